package petpack

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"time"
)

// Package is a .petpack archive that passed validation, to read from
// instead of reopening its bytes with another ZIP reader: its manifest, its
// files as the strict-ZIP entries the validator accepted, and each action's
// frames in the order the validator checked them.
type Package struct {
	// Manifest is the validated manifest.
	Manifest *Manifest
	set      *fileSet
	archive  *archive // nil for a package directory
	file     *os.File // the file OpenPath opened, closed by Close
	frames   map[Action][]string
}

// PackageEntry is one file of a validated archive.
type PackageEntry struct {
	// Path is the entry's slash-separated name.
	Path string
	// Size is its content's length; StoredSize its length in the archive
	// (Size for a package directory).
	Size, StoredSize int64
	// CRC32 is the archive's declared checksum of the content, which
	// reading it through FS checks (0 for a package directory).
	CRC32 uint32
}

// Entries returns the archive's files (not its directories) in path order.
func (p *Package) Entries() []PackageEntry {
	var out []PackageEntry
	for _, e := range p.set.entries {
		if e.dir {
			continue
		}
		pe := PackageEntry{Path: e.name, Size: e.size, StoredSize: e.size}
		if p.archive != nil {
			ze := &p.archive.entries[e.ref]
			pe.StoredSize, pe.CRC32 = ze.CompressedSize, ze.CRC32
		}
		out = append(out, pe)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Open validates the archive of size bytes that r reads, exactly as
// Validate does, and returns the package to read it through together with
// the verdict (which may hold warnings). A rejected archive gives a nil
// package. r must stay readable while the package is used: each file is
// read from it when opened, bounded and CRC-checked again.
func Open(r io.ReaderAt, size int64) (*Package, *Verdict) {
	c := newChecker()
	a := readArchive(c, r, size)
	if a == nil {
		return nil, c.verdict(nil)
	}
	return newPackage(c, a.fileSet(), a)
}

// OpenPath is Open for a path, checked as ValidatePath checks it: a
// regular file is opened as an archive, a real directory as a package
// directory, anything else (a symbolic link, a device) is rejected without
// being opened. The caller closes a package it gets (Close).
func OpenPath(path string) (*Package, *Verdict) {
	info, err := os.Lstat(path)
	if err == nil && info.IsDir() {
		c := newChecker()
		set := readDir(c, path)
		if set == nil {
			return nil, c.verdict(nil)
		}
		return newPackage(c, set, nil)
	}
	if err != nil || !info.Mode().IsRegular() {
		return nil, ValidatePath(path)
	}
	f, err := os.Open(path)
	if err == nil {
		var opened fs.FileInfo
		if opened, err = f.Stat(); err == nil && !os.SameFile(info, opened) {
			err = errors.New(path + " changed while it was opened")
		}
		if err == nil {
			p, v := Open(f, opened.Size())
			if p == nil {
				f.Close()
			} else {
				p.file = f
			}
			return p, v
		}
		f.Close()
	}
	c := newChecker()
	c.fail(RulePackageUnreadable, "", "", "%v", err)
	return nil, c.verdict(nil)
}

// Close closes the file OpenPath opened; it does nothing for a package
// Open made from the caller's reader.
func (p *Package) Close() error {
	if p.file == nil {
		return nil
	}
	f := p.file
	p.file = nil
	return f.Close()
}

// newPackage runs stages 2 to 5 over set and makes the package of a set
// that passed; a is the archive the set came from, nil for a directory.
func newPackage(c *checker, set *fileSet, a *archive) (*Package, *Verdict) {
	v := c.verdict(checkPackage(c, set))
	if !v.OK() || v.Manifest == nil {
		return nil, v
	}
	p := &Package{Manifest: v.Manifest, set: set, archive: a, frames: map[Action][]string{}}
	for a, nodes := range stateFrames(set) {
		paths := make([]string, len(nodes))
		for i, n := range nodes {
			paths[i] = n.path
		}
		p.frames[a] = paths
	}
	return p, v
}

// Frames returns the paths of action a's frames (assets/frames/<a>/...) in
// natural order (section 6), the order they play in; nil for a string that
// is not an action. The caller may change the slice.
func (p *Package) Frames(a Action) []string {
	return append([]string(nil), p.frames[a]...)
}

// FS returns the package's files and directories as an fs.FS: only the
// entries whose names passed the path rules, each file's content bounded
// by its declared size and checked against its CRC when read to the end.
func (p *Package) FS() fs.FS { return packageFS{p.set} }

type packageFS struct{ set *fileSet }

func (f packageFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	n := f.set.root
	if name != "." {
		n = f.set.lookup(name)
	}
	if n == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if n.dir {
		return &packageDir{info: nodeInfo{n}, kids: n.children()}, nil
	}
	rc, err := f.set.src.open(n.e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &packageFile{rc: rc, info: nodeInfo{n}}, nil
}

var errIsDir = errors.New("is a directory")

type packageFile struct {
	rc   io.ReadCloser
	info nodeInfo
}

type packageDir struct {
	info nodeInfo
	kids []*node
	off  int
}

// nodeInfo is a file-set node as an fs.FileInfo and fs.DirEntry. An
// archive records no meaningful time or mode (writers fix them), so the
// modes are read-only and the time is zero.
type nodeInfo struct{ n *node }

func (i nodeInfo) Name() string {
	if i.n.path == "" {
		return "."
	}
	return i.n.name
}

func (i nodeInfo) Size() int64 {
	if i.n.dir || i.n.e == nil {
		return 0
	}
	return i.n.e.size
}

func (i nodeInfo) Mode() fs.FileMode {
	if i.n.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

func (i nodeInfo) ModTime() time.Time                      { return time.Time{} }
func (i nodeInfo) IsDir() bool                             { return i.n.dir }
func (i nodeInfo) Sys() interface{}                        { return nil }
func (i nodeInfo) Type() fs.FileMode                       { return i.Mode().Type() }
func (i nodeInfo) Info() (fs.FileInfo, error)              { return i, nil }
func (f *packageFile) Stat() (fs.FileInfo, error)          { return f.info, nil }
func (f *packageFile) Read(b []byte) (int, error)          { return f.rc.Read(b) }
func (f *packageFile) Close() error                        { return f.rc.Close() }
func (d *packageDir) Stat() (fs.FileInfo, error)           { return d.info, nil }
func (d *packageDir) Read([]byte) (int, error)             { return 0, errIsDir }
func (d *packageDir) Close() error                         { return nil }
func (d *packageDir) ReadDir(n int) ([]fs.DirEntry, error) { return d.readDir(n) }

// readDir is fs.ReadDirFile's ReadDir: the children in name order, n at a
// time when n > 0.
func (d *packageDir) readDir(n int) ([]fs.DirEntry, error) {
	rest := d.kids[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.off += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, k := range rest {
		out[i] = nodeInfo{k}
	}
	return out, nil
}

// ReadContainer runs stage 1 only: the archive's container under the
// budgets of section 11, with no entry read and nothing else validated. It
// lists the files (not the directories) in path order, with their declared
// sizes and CRCs, or gives nil and the stage-1 verdict. It is for a reader
// that needs names, sizes and checksums of an archive validated earlier
// (the library's check of installed revisions) without paying for a full
// validation; what it lists is not a validated package.
func ReadContainer(r io.ReaderAt, size int64) ([]PackageEntry, *Verdict) {
	c := newChecker()
	a := readArchive(c, r, size)
	if a == nil {
		return nil, c.verdict(nil)
	}
	var out []PackageEntry
	for _, e := range a.entries {
		if e.IsDir() {
			continue
		}
		out = append(out, PackageEntry{Path: e.Name, Size: e.UncompressedSize, StoredSize: e.CompressedSize, CRC32: e.CRC32})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, c.verdict(nil)
}
