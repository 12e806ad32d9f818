package petpack

import (
	"bufio"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// inflater keeps one decompressor and its input buffer for every entry the
// validator reads, one at a time: a fresh flate reader per entry would
// allocate its window and tables 5000 times over.
type inflater struct {
	fr   io.ReadCloser
	br   *bufio.Reader
	busy bool
}

// open returns the content of archive entry e: stored bytes or the inflated
// stream, yielding at most the declared size. Reading it to the end checks
// the size, the CRC (even when the directory says zero, which archive/zip
// skips) and that the deflate stream ends exactly at the compressed size.
func (a *archive) open(e *entry) (io.ReadCloser, error) {
	z := &a.entries[e.ref]
	section := io.NewSectionReader(a.r, z.data, z.csize)
	cr := &checkedReader{want: z.usize, crc: z.crc}
	if z.method == methodStore {
		cr.r = section
		return cr, nil
	}
	in := &a.inflate
	shared := !in.busy
	var br *bufio.Reader
	if shared && in.br != nil {
		br = in.br
		br.Reset(section)
	} else {
		br = bufio.NewReaderSize(section, 4096)
	}
	src := &countingReader{r: br}
	var fr io.ReadCloser
	if shared && in.fr != nil {
		fr = in.fr
		if err := fr.(flate.Resetter).Reset(src, nil); err != nil {
			return nil, fmt.Errorf("resetting the decompressor: %w", err)
		}
	} else {
		fr = flate.NewReader(src)
	}
	if shared {
		in.fr, in.br, in.busy = fr, br, true
	}
	cr.r = &deflateReader{fr: fr, src: src, csize: z.csize}
	cr.release = func() {
		if shared {
			in.busy = false
		}
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

// deflateReader turns flate's errors into rules.
type deflateReader struct {
	fr    io.ReadCloser
	src   *countingReader
	csize int64
}

func (d *deflateReader) Read(p []byte) (int, error) {
	n, err := d.fr.Read(p)
	switch {
	case err == nil:
	case err == io.EOF:
		if d.src.n != d.csize {
			return n, &contentError{RuleEntryDataCorrupt, fmt.Sprintf("the deflate stream ends after %d of the %d compressed bytes", d.src.n, d.csize)}
		}
	case d.src.err != nil && errors.Is(err, d.src.err):
		return n, fmt.Errorf("reading compressed data: %w", err)
	default:
		return n, &contentError{RuleEntryDataCorrupt, fmt.Sprintf("the deflate stream is corrupt: %v", err)}
	}
	return n, err
}

// checkedReader bounds an entry's content by its declared size and checks
// size and CRC at the end.
type checkedReader struct {
	r       io.Reader
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
		c.failed = &contentError{RuleEntrySizeMismatch, fmt.Sprintf("the entry inflates past its declared %d bytes", c.want)}
		return 0, c.failed
	}
	if err == io.EOF {
		switch {
		case c.n < c.want:
			c.failed = &contentError{RuleEntrySizeMismatch, fmt.Sprintf("the entry holds %d bytes, not its declared %d", c.n, c.want)}
		case c.sum != c.crc:
			c.failed = &contentError{RuleEntryCRCMismatch, fmt.Sprintf("the content's CRC-32 is %08x, the directory says %08x", c.sum, c.crc)}
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
