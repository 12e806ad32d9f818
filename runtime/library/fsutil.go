package library

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/internal/durable"
)

// replaceFile replaces path with data atomically (internal/durable: a
// temporary name in the same directory, sync, rename, sync the directory).
// On an error before the rename path is as it was and no temporary file
// is left.
func replaceFile(path string, data []byte) error {
	return durable.Write(path, data, 0o644)
}

// copySynced copies src to the new file dst, syncs it and returns the
// SHA-256 of the bytes written.
func copySynced(dst string, src io.Reader) (string, error) { return copyFile(dst, src, true) }

// copyFile is copySynced with the sync left to the caller: a staged
// revision is synced once as a tree (syncTree) before it is renamed.
func copyFile(dst string, src io.Reader, sync bool) (string, error) {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(f, h), src)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile returns the SHA-256 of the regular file path, refusing anything
// else (a link could be swapped between two looks).
func hashFile(path string) (string, int64, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", 0, err
	}
	if !info.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// syncTree syncs every file and directory below root, deepest first, so a
// renamed tree is complete on disk before the rename is.
func syncTree(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := durable.SyncDir(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

// removeAll removes path and syncs its parent; a missing path is fine.
func removeAll(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	return durable.SyncDir(filepath.Dir(path))
}

// exists reports whether path exists (without following a final link).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// randomName is a short random suffix for staging names, so two processes
// (or a crashed one's leftover) never collide.
func randomName() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("library: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
