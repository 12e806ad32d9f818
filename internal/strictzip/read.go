package strictzip

import (
	"bufio"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// inflater keeps one decompressor and its input buffer for the entries of
// an archive read one after another: a fresh flate reader per entry would
// allocate its window and tables 5000 times over. An entry opened while
// another is being read gets its own.
type inflater struct {
	mu   sync.Mutex
	fr   io.ReadCloser
	br   *bufio.Reader
	busy bool
}

// take lends out the kept decompressor and buffer (nil until the first
// deflated entry returns them), or reports that they are in use.
func (in *inflater) take() (io.ReadCloser, *bufio.Reader, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.busy {
		return nil, nil, false
	}
	in.busy = true
	return in.fr, in.br, true
}

// give keeps fr and br for the next entry.
func (in *inflater) give(fr io.ReadCloser, br *bufio.Reader) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.fr, in.br, in.busy = fr, br, false
}

// Open returns the entry's content: the stored bytes or the inflated
// stream, never more than the declared uncompressed size. Reading it to
// the end checks the size, the CRC (even when the directory says zero,
// which archive/zip skips) and that the deflate stream ends exactly at the
// compressed size; a failed check is a *Problem with SizeMismatch,
// CRCMismatch or DataCorrupt, and an I/O error is returned wrapped. Close
// releases the decompressor for the next entry.
func (e *Entry) Open() (io.ReadCloser, error) {
	a := e.archive
	if a == nil {
		return nil, errors.New("strictzip: the entry does not come from an opened archive")
	}
	z := &a.entries[e.index]
	section := io.NewSectionReader(a.r, z.DataOffset, z.CompressedSize)
	cr := &checkedReader{name: z.Name, want: z.UncompressedSize, crc: z.CRC32}
	if z.Method == Store {
		cr.r = section
		return cr, nil
	}
	fr, br, shared := a.inflate.take()
	if br != nil {
		br.Reset(section)
	} else {
		br = bufio.NewReaderSize(section, 4096)
	}
	src := &countingReader{r: br}
	if fr != nil {
		if err := fr.(flate.Resetter).Reset(src, nil); err != nil {
			a.inflate.give(nil, nil)
			return nil, fmt.Errorf("resetting the decompressor: %w", err)
		}
	} else {
		fr = flate.NewReader(src)
	}
	cr.r = &deflateReader{fr: fr, src: src, name: z.Name, csize: z.CompressedSize}
	if shared {
		cr.release = func() { a.inflate.give(fr, br) }
	}
	return cr, nil
}

// countingReader counts the compressed bytes the decompressor consumes.
// It is an io.ByteReader, so flate reads through it without buffering of
// its own and the count is exact; it remembers the last error of the
// underlying reader, so an I/O error is not mistaken for corrupt data.
type countingReader struct {
	r   *bufio.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	} else if err != io.EOF {
		c.err = err
	}
	return b, err
}

// deflateReader turns flate's errors into problems.
type deflateReader struct {
	fr    io.ReadCloser
	src   *countingReader
	name  string
	csize int64
}

func (d *deflateReader) Read(p []byte) (int, error) {
	n, err := d.fr.Read(p)
	switch {
	case err == nil:
	case err == io.EOF:
		if d.src.n != d.csize {
			return n, &Problem{Reason: DataCorrupt, Name: d.name, Msg: fmt.Sprintf("the deflate stream ends after %d of the %d compressed bytes", d.src.n, d.csize)}
		}
	case d.src.err != nil && errors.Is(err, d.src.err):
		return n, fmt.Errorf("reading compressed data: %w", err)
	default:
		return n, &Problem{Reason: DataCorrupt, Name: d.name, Msg: fmt.Sprintf("the deflate stream is corrupt: %v", err)}
	}
	return n, err
}

// checkedReader bounds an entry's content by its declared size and checks
// size and CRC at the end.
type checkedReader struct {
	r       io.Reader
	name    string
	want    int64
	crc     uint32
	n       int64
	sum     uint32
	failed  error
	release func()
}

func (c *checkedReader) Read(p []byte) (int, error) {
	if c.failed != nil {
		return 0, c.failed
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.sum = crc32.Update(c.sum, crc32.IEEETable, p[:n])
	if c.n > c.want {
		// Stop at the first read past the declared size: a lying entry
		// costs at most one buffer more than it declares.
		c.failed = &Problem{Reason: SizeMismatch, Name: c.name, Msg: fmt.Sprintf("the entry inflates past its declared %d bytes", c.want)}
		return 0, c.failed
	}
	if err == io.EOF {
		switch {
		case c.n < c.want:
			c.failed = &Problem{Reason: SizeMismatch, Name: c.name, Msg: fmt.Sprintf("the entry holds %d bytes, not its declared %d", c.n, c.want)}
		case c.sum != c.crc:
			c.failed = &Problem{Reason: CRCMismatch, Name: c.name, Msg: fmt.Sprintf("the content's CRC-32 is %08x, the directory says %08x", c.sum, c.crc)}
		}
		if c.failed != nil {
			return n, c.failed
		}
	} else if err != nil {
		c.failed = err
	}
	return n, err
}

func (c *checkedReader) Close() error {
	if c.release != nil {
		c.release()
		c.release = nil
	}
	return nil
}
