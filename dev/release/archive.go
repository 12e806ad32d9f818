package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// source is one file to ship: its path inside the archive (below the top
// directory) and where its bytes are read from.
type source struct {
	name string // slash-separated, relative, e.g. "rules/defs.bzl"
	path string // the file on disk
}

// epoch is every entry's modification time: the archive must not record
// when or where it was built.
var epoch = time.Unix(0, 0)

// writeArchive writes a gzipped tar of files under the top directory
// prefix to w. The bytes depend only on prefix, the names and each file's
// content and executable bit: entries are sorted by name, each directory is
// an entry of its own, times are the epoch, owners are 0 with no names,
// modes are 0755 (directories, executables) or 0644, and the gzip header
// carries no name or time. A name that is absolute, climbs out with "..",
// or is listed twice with two different sources is an error.
func writeArchive(w io.Writer, prefix string, files []source) error {
	if prefix == "" || strings.Contains(prefix, "/") {
		return fmt.Errorf("top directory %q: want one path element", prefix)
	}
	byName := make(map[string]string, len(files))
	dirs := map[string]bool{}
	for _, f := range files {
		if f.name == "" || path.IsAbs(f.name) || path.Clean(f.name) != f.name || f.name == ".." || strings.HasPrefix(f.name, "../") {
			return fmt.Errorf("%s: archive name %q is not a clean relative path", f.path, f.name)
		}
		if prev, ok := byName[f.name]; ok && prev != f.path {
			return fmt.Errorf("archive name %q given twice, from %s and %s", f.name, prev, f.path)
		}
		byName[f.name] = f.path
		for d := path.Dir(f.name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		if _, ok := byName[d]; ok {
			return fmt.Errorf("archive name %q is both a file and a directory", d)
		}
	}
	// Directory names carry their trailing slash, so "a/" sorts before
	// everything inside a/ and the order is one total order on strings.
	names := make([]string, 0, len(byName)+len(dirs)+1)
	names = append(names, "")
	for d := range dirs {
		names = append(names, d+"/")
	}
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)

	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	for _, n := range names {
		hdr := &tar.Header{
			Name:    prefix + "/" + n,
			ModTime: epoch,
			Format:  tar.FormatUSTAR,
		}
		if n == "" || strings.HasSuffix(n, "/") {
			hdr.Typeflag = tar.TypeDir
			hdr.Mode = 0o755
			if err := tw.WriteHeader(hdr); err != nil {
				return fmt.Errorf("directory %s: %w", hdr.Name, err)
			}
			continue
		}
		src := byName[n]
		data, mode, err := readSource(src)
		if err != nil {
			return err
		}
		hdr.Typeflag = tar.TypeReg
		hdr.Mode = mode
		hdr.Size = int64(len(data))
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("%s (as %s): %w", src, hdr.Name, err)
		}
		if _, err := tw.Write(data); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// readSource reads a regular file (through symbolic links, which is how
// Bazel's sandboxes present inputs) and its normalised mode.
func readSource(p string) ([]byte, int64, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s: not a regular file (%s)", p, info.Mode().Type())
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, 0, err
	}
	if info.Mode().Perm()&0o111 != 0 {
		return data, 0o755, nil
	}
	return data, 0o644, nil
}

// readArchive returns the regular files of a gzipped tar by their name
// below the top directory prefix; an entry outside prefix is an error.
func readArchive(data []byte, prefix string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		name := strings.TrimPrefix(hdr.Name, prefix+"/")
		if name == hdr.Name {
			return nil, fmt.Errorf("entry %s is not under %s/", hdr.Name, prefix)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", hdr.Name, err)
		}
		files[name] = b
	}
}
