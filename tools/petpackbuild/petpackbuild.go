// Package petpackbuild writes `.petpack` archives deterministically: the
// same package directory gives the same archive bytes on every machine, so a
// remote cache can share them.
//
// Every entry is stored (method 0): frames and previews are already
// compressed, and deflate output depends on the compressor's version, which
// would tie the bytes to the Go release that built the tool. Entries are
// sorted by path, every parent directory has its own entry, times are the
// ZIP epoch (1980-01-01 00:00) and modes are fixed (0644 files, 0755
// directories), whatever the source tree says.
package petpackbuild

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/internal/atomicfile"
)

// File is one entry of a package: a slash path relative to the package root
// and its bytes. A path ending in "/" is a directory and carries no data.
type File struct {
	Path string
	Data []byte
}

// zipEpoch is 1980-01-01 00:00:00 in MS-DOS date and time fields.
const (
	zipEpochDate = 1<<5 | 1
	zipEpochTime = 0
	unixHost     = 3 << 8 // "made by" Unix, so external attributes carry a mode
	fileMode     = 0o100644
	dirMode      = 0o040755
)

// Archive returns the archive holding files (and a directory entry for every
// parent directory they imply), in path order.
func Archive(files []File) ([]byte, error) {
	entries := map[string]File{}
	for _, f := range files {
		if f.Path == "" || strings.HasPrefix(f.Path, "/") {
			return nil, fmt.Errorf("archive entry %q: not a relative slash path", f.Path)
		}
		if _, dup := entries[f.Path]; dup {
			return nil, fmt.Errorf("archive entry %q: given twice", f.Path)
		}
		entries[f.Path] = f
		for dir := path.Dir(strings.TrimSuffix(f.Path, "/")); dir != "."; dir = path.Dir(dir) {
			if _, ok := entries[dir+"/"]; !ok {
				entries[dir+"/"] = File{Path: dir + "/"}
			}
		}
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)

	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, n := range names {
		f := entries[n]
		mode := uint32(fileMode)
		if strings.HasSuffix(n, "/") {
			mode = dirMode
		}
		h := &zip.FileHeader{
			Name:               n,
			CreatorVersion:     unixHost | 20,
			ReaderVersion:      20,
			Flags:              0x800, // UTF-8 names
			Method:             zip.Store,
			ModifiedTime:       zipEpochTime,
			ModifiedDate:       zipEpochDate,
			CRC32:              crc32.ChecksumIEEE(f.Data),
			CompressedSize64:   uint64(len(f.Data)),
			UncompressedSize64: uint64(len(f.Data)),
			ExternalAttrs:      mode << 16,
		}
		// CreateRaw writes the sizes and CRC in the local header, with no
		// data descriptor and no extended-timestamp extra field.
		fw, err := w.CreateRaw(h)
		if err != nil {
			return nil, fmt.Errorf("archive entry %s: %w", n, err)
		}
		if _, err := fw.Write(f.Data); err != nil {
			return nil, fmt.Errorf("archive entry %s: %w", n, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadDir returns the package directory root as Files: regular files and
// directories only (the validator has already refused links and special
// files; they are refused again here rather than followed).
func ReadDir(root string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t.IsDir():
			files = append(files, File{Path: rel + "/"})
		case t.IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, File{Path: rel, Data: data})
		default:
			return fmt.Errorf("%s: not a regular file or directory", p)
		}
		return nil
	})
	return files, err
}

// ErrInvalid is returned (wrapped) when the source package or, through a
// writer bug, the written archive does not validate.
var ErrInvalid = errors.New("package does not validate")

// Build validates the package directory srcDir, writes its archive and
// validates the archive bytes, and only then publishes them at out (through
// a temporary name). It returns the verdict of the source directory. On any
// failure out is not written.
func Build(srcDir, out string) (*petpack.Verdict, error) {
	if err := checkOutside(srcDir, out); err != nil {
		return nil, err
	}
	v := petpack.ValidateDir(srcDir)
	if !v.OK() {
		return v, fmt.Errorf("%s: %w: %v", srcDir, ErrInvalid, v.Err())
	}
	files, err := ReadDir(srcDir)
	if err != nil {
		return v, err
	}
	data, err := Archive(files)
	if err != nil {
		return v, err
	}
	if av := petpack.Validate(bytes.NewReader(data), int64(len(data))); !av.OK() {
		return v, fmt.Errorf("written archive for %s: %w: %v", srcDir, ErrInvalid, av.Err())
	}
	return v, atomicfile.Write(out, data, 0o644)
}

// checkOutside refuses an output inside the input tree (contract section
// 11): the next build would package its own previous output.
func checkOutside(srcDir, out string) error {
	src, err := realPath(srcDir)
	if err != nil {
		return err
	}
	dst, err := realPath(filepath.Dir(out))
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(src, dst); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("output %s is inside the package directory %s", out, srcDir)
	}
	return nil
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
