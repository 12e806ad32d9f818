package petpack

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// dirSource is a real directory, walked without following any link.
type dirSource struct {
	root  string
	infos []fs.FileInfo // Lstat results, by entry ref
}

// readDir is stage 1 for a directory, with the entry budget applied while
// walking so an enormous tree is never listed whole.
func readDir(c *checker, root string) *fileSet {
	info, err := os.Lstat(root)
	if err != nil {
		c.fail(RulePackageUnreadable, "", "", "%v", err)
		return nil
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		c.fail(RulePackageNotRegular, "", "", "%s is a symbolic link; a package directory must be a real directory", root)
		return nil
	}
	if !info.IsDir() {
		c.fail(RulePackageNotRegular, "", "", "%s is not a directory", root)
		return nil
	}
	src := &dirSource{root: root}
	set := &fileSet{src: src}
	mark := c.count()
	if !walk(c, src, set, "") || c.errorsSince(mark) {
		return nil
	}
	return set
}

// walk lists dir (a slash path under the root, "" for the root) depth
// first in name order. It returns false when the walk must stop.
func walk(c *checker, src *dirSource, set *fileSet, dir string) bool {
	f, err := os.Open(filepath.Join(src.root, filepath.FromSlash(dir)))
	if err != nil {
		c.fail(RulePackageUnreadable, dir, "", "%v", err)
		return false
	}
	// Read one more than the budget allows, so a directory of a million
	// names costs no more than one of MaxEntries.
	list, err := f.ReadDir(MaxEntries + 1 - len(set.entries))
	f.Close()
	if err != nil && err != io.EOF {
		c.fail(RulePackageUnreadable, dir, "", "%v", err)
		return false
	}
	if len(set.entries)+len(list) > MaxEntries {
		c.fail(RuleTooManyEntries, "", "", "the directory holds over %d entries", MaxEntries)
		return false
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	for _, d := range list {
		name := d.Name()
		if dir != "" {
			name = dir + "/" + name
		}
		t := d.Type() // from the directory listing or Lstat: links are not followed
		switch {
		case t&fs.ModeSymlink != 0:
			c.fail(RuleEntrySymlink, safePath(name), "", "the entry is a symbolic link; directory validation does not follow links")
			continue
		case t.IsDir():
		case t.IsRegular():
		default:
			c.fail(RuleEntrySpecialFile, safePath(name), "", "the entry is a %s, not a file or directory", fileTypeName(t))
			continue
		}
		info, err := d.Info()
		if err != nil {
			c.fail(RulePackageUnreadable, safePath(name), "", "%v", err)
			return false
		}
		if info.Mode().Type() != t {
			c.fail(RulePackageUnreadable, safePath(name), "", "the entry changed type while the directory was read")
			return false
		}
		e := entry{name: name, dir: t.IsDir(), ref: len(src.infos)}
		if !e.dir {
			e.size = info.Size()
		}
		src.infos = append(src.infos, info)
		set.entries = append(set.entries, e)
		if e.dir && !walk(c, src, set, name) {
			return false
		}
	}
	return true
}

func fileTypeName(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "FIFO"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeCharDevice != 0:
		return "character device"
	case t&fs.ModeDevice != 0:
		return "block device"
	}
	return "file of unsupported type"
}

// open opens a listed file and checks that it is still the file that was
// listed: os.Open follows links, so a file swapped for a link after the
// walk would otherwise be read through it.
func (d *dirSource) open(e *entry) (io.ReadCloser, error) {
	f, err := os.Open(filepath.Join(d.root, filepath.FromSlash(e.name)))
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() || !os.SameFile(info, d.infos[e.ref]) {
		f.Close()
		return nil, fmt.Errorf("%s changed while the package was validated", e.name)
	}
	return &sizedFile{f: f, left: e.size}, nil
}

func (d *dirSource) sealed() bool { return false }

// sizedFile yields at most the size the walk saw and fails if the file has
// grown since, so a budget checked on the listed size holds.
type sizedFile struct {
	f    *os.File
	left int64
}

func (s *sizedFile) Read(p []byte) (int, error) {
	if s.left <= 0 {
		var one [1]byte
		if n, _ := s.f.Read(one[:]); n > 0 {
			return 0, &contentError{RuleEntrySizeMismatch, "the file grew while the package was validated"}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.f.Read(p)
	s.left -= int64(n)
	if err == io.EOF && s.left > 0 {
		return n, &contentError{RuleEntrySizeMismatch, "the file shrank while the package was validated"}
	}
	return n, err
}

func (s *sizedFile) Close() error { return s.f.Close() }
