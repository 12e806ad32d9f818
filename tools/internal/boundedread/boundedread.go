// Package boundedread reads a file whole into one buffer sized from Stat,
// reading at most one byte past a limit, so the caller can refuse an
// oversized file without ever holding it whole and a file of the right
// size costs one allocation rather than io.ReadAll's doubling copies.
package boundedread

import (
	"io"
	"io/fs"
)

// smallStart is the first buffer for a file whose size Stat does not tell
// (a pipe, a device): it then grows as io.ReadAll's would.
const smallStart = 512

// Read reads f to its end, at most limit+1 bytes: a result longer than
// limit means the file is past it. The buffer is allocated once from the
// size Stat reports for a regular file; a file that changed since is still
// read to its end (or to limit+1), never cut short at the stale size.
func Read(f fs.File, limit int64) ([]byte, error) {
	return ReadInto(nil, f, limit)
}

// ReadInto is Read into buf's storage when it is large enough, so that a
// loop reading many files allocates only for the largest. The result
// aliases buf then: the caller must be done with the previous file.
func ReadInto(buf []byte, f fs.File, limit int64) ([]byte, error) {
	start := int64(smallStart)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		start = fi.Size()
	}
	if start > limit {
		start = limit
	}
	if start < 0 {
		start = 0
	}
	// The spare byte lets the last read see the end of the file without
	// growing a buffer whose size was right.
	if int64(cap(buf)) < start+1 {
		buf = make([]byte, 0, start+1)
	}
	buf = buf[:0]
	r := &io.LimitedReader{R: f, N: limit + 1}
	for {
		if r.N == 0 {
			return buf, nil // limit+1 bytes: enough to refuse
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
