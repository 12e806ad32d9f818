//go:build !unix

package library

import (
	"errors"
	"os"
	"time"
)

// flock is unix-only for now: the store refuses to open rather than run
// without its lock.
func flock(f *os.File, exclusive bool, wait time.Duration) error {
	return errors.New("library: the store's file lock is implemented on unix systems only")
}

func funlock(f *os.File) error { return nil }
