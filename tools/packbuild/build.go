package packbuild

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/tools/internal/atomicfile"
)

// maxPNGBytes bounds how much of one image file is read. A 1024 by 1024
// RGBA PNG stored without compression is about 4 MiB, so anything past
// this is not a sprite and is refused before it is held in memory.
const maxPNGBytes = 32 << 20

// Build converts m into a pack, reading each image's bytes through open,
// which receives the manifest path exactly as written. Errors name the
// image: `image sprite_idle (sprites/idle.png): png_palette: ...`.
func Build(m *manifest.Manifest, open func(path string) ([]byte, error)) ([]byte, error) {
	images := make([]Image, len(m.Images))
	for i, im := range m.Images {
		data, err := open(im.Path)
		if err != nil {
			return nil, fmt.Errorf("image %s (%s): %w", im.ID, im.Path, err)
		}
		images[i], err = ConvertPNG(data)
		if err != nil {
			return nil, fmt.Errorf("image %s (%s): %w", im.ID, im.Path, err)
		}
	}
	return Encode(m, images)
}

// BuildFile parses the manifest at manifestPath and builds its pack,
// resolving image paths against the manifest's directory (the asset set's
// root, manifest contract section 7). A manifest rejection reads
// `FILE:LINE: RULE: message` and wraps the *manifest.Error.
func BuildFile(manifestPath string) ([]byte, error) {
	m, err := manifest.ReadFile(manifestPath)
	if err != nil {
		return nil, err
	}
	root := filepath.Dir(manifestPath)
	data, err := Build(m, func(p string) ([]byte, error) {
		// The parser has already refused absolute paths, `..` and
		// backslashes, so joining cannot leave the asset set.
		return readImage(filepath.Join(root, filepath.FromSlash(p)))
	})
	if err != nil {
		// Name the manifest, as every other rejection does, so a build
		// log points at the asset set the image belongs to.
		return nil, fmt.Errorf("%s: %w", manifestPath, err)
	}
	return data, nil
}

// readImage reads a regular file of at most maxPNGBytes. Symbolic links are
// followed, because Bazel hands actions their inputs as links.
func readImage(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPNGBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPNGBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxPNGBytes)
	}
	return data, nil
}

// WriteFile builds the pack of the manifest at manifestPath and writes it
// to outPath atomically with mode 0644. When the build fails it also
// removes a pack left at outPath by an earlier run, because the step after
// the converter embeds whatever file it finds (section 12).
func WriteFile(manifestPath, outPath string) error {
	data, err := BuildFile(manifestPath)
	if err != nil {
		if rmErr := removeStale(outPath); rmErr != nil {
			return fmt.Errorf("%w (and the stale output could not be removed: %v)", err, rmErr)
		}
		return err
	}
	return atomicfile.Write(outPath, data, 0o644)
}

// removeStale removes outPath when it is a regular file; anything else at
// that path is not an earlier pack and is left alone.
func removeStale(outPath string) error {
	fi, err := os.Lstat(outPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	return os.Remove(outPath)
}
