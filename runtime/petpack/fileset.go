package petpack

import (
	"io"
	"sort"
	"strings"
)

// entry is one name of a package's file set, whether it came from an
// archive's central directory or a directory walk.
type entry struct {
	// name is slash-separated, without a directory's trailing slash.
	name string
	dir  bool
	// size is the declared expanded size: the central directory's
	// uncompressed size, or the directory walk's Lstat size.
	size int64
	// ref indexes the source's own table.
	ref int
	// head holds the first bytes of a sealed entry once verifyContent has
	// read it, so the header pre-pass need not inflate it again.
	head []byte
}

// source reads the content of a file set's entries; the core never knows
// whether it reads an archive or a directory.
type source interface {
	// open returns the entry's content. The reader yields at most size
	// bytes and fails (with a *contentError where a rule applies) rather
	// than yield more; reading it to the end checks everything the source
	// can check, such as an archive entry's size and CRC.
	open(e *entry) (io.ReadCloser, error)
	// sealed reports whether entries carry a declared size and checksum
	// that stage 2 verifies by reading every entry once.
	sealed() bool
}

// contentError is a read failure that breaks a rule (a lying size, a CRC
// mismatch, a corrupt deflate stream), as opposed to an I/O error.
type contentError struct {
	rule Rule
	msg  string
}

func (e *contentError) Error() string { return string(e.rule) + ": " + e.msg }

// fileSet is the abstract package the core validates.
type fileSet struct {
	entries []entry
	src     source
	// root is the tree of the entries whose names broke no path rule and
	// did not collide with an earlier entry; layout and media work on it.
	root *node
}

// node is a file or directory of the tree; a directory may exist only
// because deeper names imply it, as archives need not list directories.
type node struct {
	name string // the last segment
	path string
	dir  bool
	// e is the entry the node came from, nil for an implied directory.
	e    *entry
	kids map[string]*node
}

func newDirNode(name, path string) *node {
	return &node{name: name, path: path, dir: true, kids: map[string]*node{}}
}

// children returns the node's children sorted by name, for a stable verdict.
func (n *node) children() []*node {
	out := make([]*node, 0, len(n.kids))
	for _, k := range n.kids {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// lookup returns the node at a slash-separated path, or nil.
func (fs *fileSet) lookup(path string) *node {
	n := fs.root
	for _, seg := range strings.Split(path, "/") {
		if n == nil || !n.dir {
			return nil
		}
		n = n.kids[seg]
	}
	return n
}

// checkPaths is the path part of stage 2: every entry's name against the
// path rules, then exact duplicates, case-folded collisions and names used
// as both file and directory, building the tree from the entries that pass.
// A rejected name stays out of the tree, so it cannot also satisfy, or
// break, a layout rule.
func checkPaths(c *checker, fs *fileSet) {
	fs.root = newDirNode("", "")
	folded := map[string]string{} // fold key -> the first path with it
	for i := range fs.entries {
		e := &fs.entries[i]
		problems := pathProblems(e.name)
		for _, p := range problems {
			c.fail(p.rule, safePath(e.name), "", "%s", p.msg)
		}
		if len(problems) == 0 {
			insert(c, fs.root, e, folded)
		}
	}
}

// safePath is a name fit to print in a finding: a name that broke a path
// rule may hold control bytes or be very long.
func safePath(name string) string {
	q := quoteShort(name)
	return q[1 : len(q)-1]
}

func insert(c *checker, root *node, e *entry, folded map[string]string) {
	segs := strings.Split(e.name, "/")
	cur := root
	for i, seg := range segs {
		last := i == len(segs)-1
		path := strings.Join(segs[:i+1], "/")
		next := cur.kids[seg]
		if next == nil {
			key := foldKey(path)
			if other, ok := folded[key]; ok {
				c.fail(RulePathCaseCollision, e.name, "", "%s and %s differ only in case and would be one file on macOS and Windows", path, other)
				return
			}
			folded[key] = path
			if last && !e.dir {
				next = &node{name: seg, path: path, e: e}
			} else {
				next = newDirNode(seg, path)
				if last {
					next.e = e
				}
			}
			cur.kids[seg] = next
			cur = next
			continue
		}
		switch {
		case !last && !next.dir:
			c.fail(RulePathFileDirectoryConflict, e.name, "", "%s is a file and also the directory of %s", path, e.name)
			return
		case !last:
		case next.dir != e.dir:
			c.fail(RulePathFileDirectoryConflict, e.name, "", "%s is both a file and a directory", path)
			return
		case next.dir && next.e == nil:
			next.e = e // an explicit directory entry after names that implied it
			return
		default:
			c.fail(RulePathDuplicate, e.name, "", "the package holds %s twice", path)
			return
		}
		cur = next
	}
}
