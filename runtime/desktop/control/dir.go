package control

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// MaxIDBytes bounds a pet ID, so the socket path stays within sun_path.
const MaxIDBytes = 64

// MaxInstances bounds how many pets with one ID run at once: ID.sock,
// ID.2.sock, ..., ID.16.sock.
const MaxInstances = 16

// maxSocketPath is sun_path's size on Linux, terminating NUL included.
const maxSocketPath = 108

// CheckID reports an ID that cannot name a socket: empty, over MaxIDBytes,
// or with a byte other than a lowercase ASCII letter, digit, '_' or '-'.
func CheckID(id string) error {
	if id == "" || len(id) > MaxIDBytes {
		return fmt.Errorf("pet ID %.80q: want 1 to %d bytes", id, MaxIDBytes)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("pet ID %q: %q is not a lowercase letter, digit, '_' or '-'", id, c)
		}
	}
	return nil
}

// Dir returns the directory the sockets live in (see the package doc),
// creating it with mode 0700 when it is missing, and refuses one that is
// not a directory of the user's own with no group or other permissions.
func Dir() (string, error) {
	dir, err := dirPath()
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("control socket directory: %w", err)
	}
	if err := checkDir(dir, uint32(os.Getuid())); err != nil {
		return "", err
	}
	return dir, nil
}

// dirPath is Dir's path without touching the file system.
func dirPath() (string, error) {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		if !filepath.IsAbs(rt) {
			return "", fmt.Errorf("XDG_RUNTIME_DIR %q is not an absolute path", rt)
		}
		return filepath.Join(rt, "rules_pet"), nil
	}
	return filepath.Join(os.TempDir(), "rules_pet-"+strconv.Itoa(os.Getuid())), nil
}

// checkDir refuses dir unless it is a real directory (not a symbolic
// link) owned by uid with no group or other permission bits: anyone else
// who could write there could plant a socket that a client then trusts.
func checkDir(dir string, uid uint32) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("control socket directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("control socket directory %s is not a directory (%s)", dir, fi.Mode().Type())
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("control socket directory %s: no owner information on this system", dir)
	}
	if st.Uid != uid {
		return fmt.Errorf("control socket directory %s is owned by uid %d, not %d; refusing it", dir, st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("control socket directory %s has mode %#o; want 0700 (no group or other access)", dir, perm)
	}
	return nil
}

// socketName is the instance name of the n-th pet with this ID (n from 1):
// ID, then ID.2, ID.3, ...
func socketName(id string, n int) string {
	if n == 1 {
		return id
	}
	return id + "." + strconv.Itoa(n)
}

// socketPath is the socket of an instance name in dir, refused when it
// would not fit sun_path.
func socketPath(dir, name string) (string, error) {
	p := filepath.Join(dir, name+".sock")
	if len(p) >= maxSocketPath {
		return "", fmt.Errorf("control socket path %s is %d bytes, over the %d the system allows; use a shorter XDG_RUNTIME_DIR or ID", p, len(p), maxSocketPath-1)
	}
	return p, nil
}
