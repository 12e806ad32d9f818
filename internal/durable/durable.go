// Package durable is the one way the project puts a file on disk so that
// readers see either the old content or the new, never a prefix, and a
// crash after a write returns leaves the new content in place: a temporary
// file beside the path, written and fsynced, renamed over the path, and the
// directory fsynced so the rename itself is on disk. The tools' outputs are
// embedded by the build step after them, the pet library publishes
// revisions, and motion QA publishes report trees: a half-written or lost
// output is worse than none.
//
// The policy, for every function here: a failed directory sync is an
// error, like a failed file sync. A rename that is not known to be on disk
// is not reported as published; the caller decides whether to retry or
// give up. (A file system that cannot sync a directory at all cannot hold
// these outputs durably, and says so instead of being trusted.)
package durable

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data. It writes a temporary file in the same
// directory (so the rename cannot cross file systems), syncs and closes it,
// sets perm explicitly (so the mode does not depend on the umask), and
// renames it over path. On any error the temporary file is removed and
// path is left as it was.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteChecked(path, data, perm, nil)
}

// WriteChecked is Write with a last look at the written bytes: check, when
// not nil, is given the temporary file's name after it is synced and
// closed, and path is replaced only if check returns nil. It is for
// outputs whose format has a validator, so what is published is what was
// proven on disk, not only what was in memory.
func WriteChecked(path string, data []byte, perm os.FileMode, check func(tmp string) error) error {
	p, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := p.f.Write(data); err != nil {
		p.Abort()
		return p.wrap(err)
	}
	return p.Commit(perm, check)
}

// Pending is a file being written under a temporary name beside its
// path, for a writer that produces it piece by piece (WriteAt from
// several goroutines is safe). Commit publishes it as Write does;
// Abort removes it. Until one of them, path is untouched.
type Pending struct {
	f         *os.File
	path, dir string
}

// Create starts a Pending file for path.
func Create(path string) (*Pending, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("durable: write %s: %w", path, err)
	}
	return &Pending{f: f, path: path, dir: dir}, nil
}

func (p *Pending) wrap(err error) error {
	return fmt.Errorf("durable: write %s: %w", p.path, err)
}

// WriteAt writes b at offset off of the temporary file.
func (p *Pending) WriteAt(b []byte, off int64) error {
	if _, err := p.f.WriteAt(b, off); err != nil {
		return p.wrap(err)
	}
	return nil
}

// Flush syncs what has been written so far. A writer of a large file can
// call it halfway, from another goroutine, so that the disk is busy while
// it produces the rest and Commit's sync has less left to wait for. Its
// error is Commit's to report: the same sync runs there again.
func (p *Pending) Flush() { _ = p.f.Sync() }

// Abort removes the temporary file. It is safe after a failed Commit.
func (p *Pending) Abort() {
	p.f.Close() // may already be closed
	os.Remove(p.f.Name())
}

// Commit syncs and closes the temporary file, sets perm, gives it to
// check (when not nil, as in WriteChecked), renames it over path and
// syncs the directory. On any error before the rename the temporary file
// is removed and path is left as it was; a failed directory sync is
// reported after the rename, when path already holds the new content but
// the rename may not survive a crash.
func (p *Pending) Commit(perm os.FileMode, check func(tmp string) error) (err error) {
	tmp := p.f.Name()
	defer func() {
		if err != nil {
			p.Abort()
			err = p.wrap(err)
		}
	}()
	if err = p.f.Sync(); err != nil {
		return err
	}
	if err = p.f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp, perm); err != nil {
		return err
	}
	if check != nil {
		if err = check(tmp); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, p.path); err != nil {
		return err
	}
	// The new content is in place: a failed directory sync must not
	// remove it, so it is reported without Abort.
	if serr := SyncDir(p.dir); serr != nil {
		return p.wrap(serr)
	}
	return nil
}

// SyncDir makes the entries of dir (a creation, a rename, a removal)
// durable, and reports a failure (see the package doc).
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// WriteNew creates path, which must not exist, with data and mode 0644,
// and syncs it. The directory is not synced: a caller creating many files
// syncs it once after them (SyncDir).
func WriteNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
