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
)

// File is one entry of a package: a slash path relative to the package root
// and its bytes. A path ending in "/" is a directory and carries no data.
type File struct {
	Path string
	Data []byte
	// From is the input file the entry was read from when that is not its
	// package path (Assemble's inputs), so a finding can name the file a
	// person edits; "" otherwise. It never reaches the archive.
	From string
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

// ErrInvalid is returned (wrapped) when the package does not validate.
var ErrInvalid = errors.New("package does not validate")

// Build packs the package directory srcDir (see Pack: missing previews
// are made and build/validation.json is written) and publishes the archive
// at out, through a temporary file validated on disk. out may not lie inside
// srcDir. On any failure out is left absent, a previous output included, so
// a rejected build is never mistaken for a successful one; the result, when
// there is one, holds the verdict that explains a rejection.
func Build(srcDir, out string, opt Options) (*Result, error) {
	if err := checkOutside(srcDir, out); err != nil {
		return nil, err
	}
	res, err := buildDir(srcDir, opt)
	return publishOrRemove(res, err, out)
}

// BuildSpec packs the package a Spec describes and publishes it at out,
// as Build does for a directory.
func BuildSpec(s *Spec, read ReadFunc, out string) (*Result, error) {
	files, opt, err := Assemble(s, read)
	if err != nil {
		return publishOrRemove(nil, err, out)
	}
	res, err := Pack(files, opt)
	return publishOrRemove(res, err, out)
}

// publishOrRemove publishes a packed result, or after a failure removes
// any previous output, so out never outlives the build that was asked for.
func publishOrRemove(res *Result, err error, out string) (*Result, error) {
	if err == nil {
		err = Publish(res, out)
	}
	if err != nil {
		if rerr := removeStale(out); rerr != nil {
			return res, fmt.Errorf("%w (and removing the previous %s: %v)", err, out, rerr)
		}
		return res, err
	}
	return res, nil
}

func buildDir(srcDir string, opt Options) (*Result, error) {
	files, err := ReadDir(srcDir)
	if err != nil {
		return nil, err
	}
	res, err := Pack(files, opt)
	if err != nil {
		return res, fmt.Errorf("%s: %w", srcDir, err)
	}
	return res, nil
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
	if src == dst || strings.HasPrefix(dst, src+string(filepath.Separator)) {
		return fmt.Errorf("output %s is inside the package directory %s", out, srcDir)
	}
	return nil
}

// realPath resolves p through every symbolic link. A tail that does not
// exist yet (an output directory the build would create) is kept as
// written below its deepest existing ancestor, so a missing directory
// inside the input tree is still recognised as inside it.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(abs)
		if !os.IsNotExist(err) || parent == abs {
			return "", err
		}
		rest = filepath.Join(filepath.Base(abs), rest)
		abs = parent
	}
}
