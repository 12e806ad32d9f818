// Package atomicfile writes a file so that readers see either the old
// content or the new, never a prefix: the tools' outputs are embedded by the
// build step after them, and a half-written output is worse than none.
package atomicfile

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
func WriteChecked(path string, data []byte, perm os.FileMode, check func(tmp string) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("atomicfile: write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close() // may already be closed; the first error is the one to report
			os.Remove(tmp)
			err = fmt.Errorf("atomicfile: write %s: %w", path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
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
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it. It is best
// effort: the file is already complete and in place, and some systems
// cannot sync a directory at all.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
