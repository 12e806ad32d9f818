// Package assetset is the shared asset-set layer of manifest contract
// sections 9 and 11: it reads a pet asset set through a Reader, parses its
// manifest, checks that every image the manifest names begins with the PNG
// signature, and either offers the whole set or reports that the built-in
// fallback presentation is required.
//
// The layer reads through a Reader rather than the filesystem so the same
// acceptance rules serve tests (bytes in memory), the desktop (a runtime copy
// on disk) and embedded frontends (generated arrays) alike.
package assetset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// Runtime asset layout of manifest contract section 11, in slash form. These
// are the only place the layout is spelled out.
const (
	// ManifestName is the manifest's file name inside an asset set root.
	ManifestName = "manifest.petasset"
	// RootDir is the pet asset set root relative to a build output (or to
	// the source checkout for the canonical set).
	RootDir = "assets/pet"
	// SpritesDir is where pet presentation images live inside the root.
	SpritesDir = "sprites"
)

// MaxManifestRead is the most bytes a Reader need return for a manifest: one
// byte past manifest.MaxFileBytes is enough for the parser to reject the file
// as too large, so nothing beyond it is ever worth reading.
const MaxManifestRead = manifest.MaxFileBytes + 1

// SignatureLen is how many leading bytes of an image the layer inspects.
const SignatureLen = 8

// Errors a Reader reports, tested with errors.Is. A missing file is
// fs.ErrNotExist, as the os package already reports it; any other error
// counts as unreadable.
var (
	// ErrIsDirectory means the path names a directory, not a file.
	ErrIsDirectory = errors.New("is a directory")
	// ErrNotRegular means the path names something that is neither a
	// directory nor a regular file (a device, a FIFO, a socket).
	ErrNotRegular = errors.New("not a regular file")
	// ErrInvalidPath means the path could name a file outside the asset
	// set. The parser already rejects such paths, so a Reader seeing one is
	// being misused rather than fed a bad manifest.
	ErrInvalidPath = errors.New("path is not a relative path inside the asset set")
)

// Reader gives the asset-set layer the bytes of one asset set. Paths are the
// manifest's own: slash-separated and relative to the asset set root.
//
// Returned slices may alias the reader's storage; the layer never modifies
// them.
type Reader interface {
	// ReadManifest returns the manifest's bytes. It may stop after
	// MaxManifestRead bytes, and a reader over untrusted storage should, so
	// that a huge file is rejected without being read whole. A missing
	// manifest is an error satisfying errors.Is(err, fs.ErrNotExist).
	ReadManifest() ([]byte, error)
	// ReadLeading returns at most n leading bytes of the file at path;
	// fewer only when the file is shorter. A missing file is
	// fs.ErrNotExist, a directory is ErrIsDirectory, and any other failure
	// is some other error.
	ReadLeading(path string, n int) ([]byte, error)
}

// RuntimeRoot returns the asset set root of a runtime copy produced next to
// the build output directory outputDir (manifest contract section 11). The
// result depends only on outputDir, never on the source checkout.
func RuntimeRoot(outputDir string) string {
	return filepath.Join(outputDir, filepath.FromSlash(RootDir))
}

// Dir returns the desktop Reader over the asset set rooted at root, such as
// RuntimeRoot(outputDir) or the canonical assets/pet.
//
// Paths are resolved lexically under root and one that could escape it is
// refused with ErrInvalidPath. Symbolic links met on the way are followed:
// Bazel's runfiles tree and some runtime copies are made of links into the
// output base, so refusing them would reject every such copy, and the path
// check already keeps the name itself inside the set.
func Dir(root string) Reader {
	return dirReader{root: root}
}

type dirReader struct{ root string }

func (d dirReader) ReadManifest() ([]byte, error) {
	f, err := d.open(ManifestName)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestRead))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return data, nil
}

func (d dirReader) ReadLeading(path string, n int) ([]byte, error) {
	f, err := d.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if n < 0 {
		n = 0
	}
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return buf[:k], nil
}

// open opens the regular file at the slash path rel under the root.
func (d dirReader) open(rel string) (*os.File, error) {
	if !localPath(rel) {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: ErrInvalidPath}
	}
	full := filepath.Join(d.root, filepath.FromSlash(rel))
	// Stat before opening: opening a FIFO would block until a writer
	// appears, and a directory opens successfully on most systems.
	fi, err := os.Stat(full)
	if err != nil {
		return nil, err
	}
	if err := regular(full, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(full)
	if err != nil {
		return nil, err
	}
	// Check again on the open file so a swap between Stat and Open cannot
	// hand us a directory or a device.
	if fi, err = f.Stat(); err == nil {
		err = regular(full, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func regular(path string, fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return &fs.PathError{Op: "open", Path: path, Err: ErrIsDirectory}
	case !fi.Mode().IsRegular():
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return nil
}

// localPath reports whether the slash path p stays under its root on every
// platform: fs.ValidPath rules out absolute paths and "." or ".." segments,
// and Windows would also read a backslash as a separator and a colon as a
// drive or stream.
func localPath(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsAny(p, `\:`)
}

// Memory returns a Reader over files, keyed by slash path relative to the
// asset set root (the manifest is the key ManifestName). A key ending in "/"
// is a directory, and so is any path that is a proper prefix of another key
// at a slash, so both "sprites/" and "sprites/a.png" make "sprites" a
// directory. The map and its slices are used in place, not copied, so they
// can be generated arrays; they must not change while the Reader is in use.
func Memory(files map[string][]byte) Reader {
	return memReader(files)
}

type memReader map[string][]byte

func (m memReader) ReadManifest() ([]byte, error) {
	return m.ReadLeading(ManifestName, MaxManifestRead)
}

func (m memReader) ReadLeading(path string, n int) ([]byte, error) {
	if m.isDir(path) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrIsDirectory}
	}
	data, ok := m[path]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrNotExist}
	}
	if n < 0 {
		n = 0
	}
	if n > len(data) {
		n = len(data)
	}
	// The capacity is clipped so a caller appending cannot write into the
	// bytes after the returned prefix.
	return data[:n:n], nil
}

func (m memReader) isDir(path string) bool {
	prefix := path + "/"
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
