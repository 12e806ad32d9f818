//go:build unix

package library

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// flock takes the advisory lock on f, polling every few milliseconds until
// wait has passed: flock itself has no timeout, and a blocked writer must
// turn into ErrBusy rather than hang.
func flock(f *os.File, exclusive bool, wait time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR):
			return err
		case time.Now().After(deadline):
			return ErrBusy
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// funlock releases the lock; closing the file would too.
func funlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
