package packbuild

import (
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// fastDecoder converts the PNGs nearly every sprite is, 8-bit colour type
// 6 or 2 without interlacing and with no PLTE or tRNS chunk, a row at a
// time: the image data is inflated into two row buffers, unfiltered and
// reduced straight into the pack. No decoded image is ever held, which
// image/png cannot avoid, and the buffers and the inflater are reused
// from image to image. One worker owns one fastDecoder.
//
// It only ever accepts a file image/png accepts, with the same pixels:
// it walks the same chunk rules (every CRC checked, the IDAT run inflated
// to exactly its end, zlib's Adler-32 checked, nothing after the pixels)
// and gives up on anything else, PLTE and tRNS included, leaving the file
// to image/png, whose result, pixels or error, is then the answer. So the
// accepted set and every rejection text are image/png's, and
// FuzzFastPath holds the two paths to the same output for any input.
type fastDecoder struct {
	segs      [][]byte // the IDAT run's data, chunk by chunk
	src       segReader
	zr        io.ReadCloser // reset to each image's stream
	cur, prev []byte        // a filtered row and the row above it
}

// decode converts data, whose header h readIHDR accepted and whose
// chunks checkChunks walked, into dst, and reports whether it did. When
// it did not, dst may be partly written and the caller converts the file
// with image/png.
func (d *fastDecoder) decode(data []byte, h ihdr, dst *Image) (ok bool) {
	// A decoder bug must not decide the result: image/png gets the file.
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if !d.chunks(data) {
		return false
	}
	d.src.reset(d.segs)
	if d.zr == nil {
		zr, err := zlib.NewReader(&d.src)
		if err != nil {
			return false
		}
		d.zr = zr
	} else if err := d.zr.(zlib.Resetter).Reset(&d.src, nil); err != nil {
		return false
	}
	bpp := 4
	if h.colour == 2 {
		bpp = 3
	}
	w, hgt := int(h.width), int(h.height)
	n := 1 + w*bpp // the filter type byte, then the pixels
	if cap(d.cur) < n {
		d.cur, d.prev = make([]byte, n), make([]byte, n)
	}
	cur, prev := d.cur[:n], d.prev[:n]
	for i := range prev {
		prev[i] = 0 // the row above the first is zero
	}
	cl, ml := 2*w, (w+7)/8
	for y := 0; y < hgt; y++ {
		if _, err := io.ReadFull(d.zr, cur); err != nil {
			return false
		}
		if !unfilter(cur[0], cur[1:], prev[1:], bpp) {
			return false
		}
		colour, mask := dst.Colour[y*cl:y*cl+cl], dst.Mask[y*ml:y*ml+ml]
		if bpp == 3 {
			reduceOpaqueRow(cur[1:], 3, colour, mask)
		} else {
			reduceAlphaRow(cur[1:], colour, mask)
		}
		cur, prev = prev, cur
	}
	// As image/png does: the stream must end here, which also checks
	// its Adler-32, and it must have used every byte of the IDAT run.
	var one [1]byte
	var rn int
	var err error
	for i := 0; rn == 0 && err == nil; i++ {
		if i == 100 {
			return false
		}
		rn, err = d.zr.Read(one[:])
	}
	return rn == 0 && err == io.EOF && d.src.exhausted()
}

// chunks checks the chunk sequence the fast path takes and collects the
// IDAT run into d.segs: the 13-byte IHDR with compression and filter
// method 0, any chunks image/png skips, one run of IDAT chunks, any
// chunks it skips, and an empty IEND ending the file; every CRC right
// and every length at most 2^31-1.
func (d *fastDecoder) chunks(data []byte) bool {
	const ihdrEnd = len(pngSignature) + 8 + 13 + 4
	if len(data) < ihdrEnd {
		return false
	}
	ihdrChunk := data[len(pngSignature):ihdrEnd]
	if ihdrChunk[8+10] != 0 || ihdrChunk[8+11] != 0 || !crcOK(ihdrChunk) {
		return false
	}
	d.segs = d.segs[:0]
	const (
		beforeIDAT = iota
		inIDAT
		afterIDAT
	)
	stage := beforeIDAT
	for off := ihdrEnd; ; {
		if len(data)-off < 12 {
			return false
		}
		n := binary.BigEndian.Uint32(data[off:])
		if n > 0x7fffffff || uint64(n) > uint64(len(data)-off-12) {
			return false
		}
		end := off + 12 + int(n)
		c := data[off:end]
		if !crcOK(c) {
			return false
		}
		switch string(c[4:8]) {
		case "IHDR", "PLTE", "tRNS":
			return false
		case "IDAT":
			if stage == afterIDAT {
				return false
			}
			stage = inIDAT
			d.segs = append(d.segs, c[8:8+n])
		case "IEND":
			return stage != beforeIDAT && n == 0 && end == len(data)
		default:
			if stage == inIDAT {
				stage = afterIDAT
			}
		}
		off = end
	}
}

// crcOK reports whether chunk, length to CRC, carries the CRC of its
// type and data.
func crcOK(chunk []byte) bool {
	n := len(chunk)
	return crc32.ChecksumIEEE(chunk[4:n-4]) == binary.BigEndian.Uint32(chunk[n-4:])
}

// segReader reads the IDAT run as one stream. It is an io.ByteReader, so
// the inflater reads from it directly, never ahead through a buffer:
// exhausted then tells whether the stream used the whole run.
type segReader struct {
	segs [][]byte
	cur  []byte
}

func (r *segReader) reset(segs [][]byte) { r.segs, r.cur = segs, nil }

// next makes cur non-empty, or reports that the run is used up.
func (r *segReader) next() bool {
	for len(r.cur) == 0 {
		if len(r.segs) == 0 {
			return false
		}
		r.cur, r.segs = r.segs[0], r.segs[1:]
	}
	return true
}

func (r *segReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !r.next() {
		return 0, io.EOF
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

func (r *segReader) ReadByte() (byte, error) {
	if !r.next() {
		return 0, io.EOF
	}
	b := r.cur[0]
	r.cur = r.cur[1:]
	return b, nil
}

func (r *segReader) exhausted() bool { return !r.next() }

// unfilter reverses the PNG row filter ft on cur, given prev, the
// unfiltered row above (zero for the first row); bpp is the bytes a
// pixel. It reports false for a filter type PNG does not define.
func unfilter(ft byte, cur, prev []byte, bpp int) bool {
	prev = prev[:len(cur)]
	switch ft {
	case 0: // None
	case 1: // Sub
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2: // Up
		for i, p := range prev {
			cur[i] += p
		}
	case 3: // Average
		for i := 0; i < bpp; i++ {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += byte((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4: // Paeth
		unpaeth(cur, prev, bpp)
	default:
		return false
	}
	return true
}

// unpaeth reverses the Paeth filter one channel at a time, keeping the
// left (a) and upper-left (c) neighbours in registers.
func unpaeth(cur, prev []byte, bpp int) {
	for ch := 0; ch < bpp; ch++ {
		a, c := 0, 0
		for i := ch; i < len(cur); i += bpp {
			b := int(prev[i])
			pa := b - c   // |p - a| where p = a + b - c
			pb := a - c   // |p - b|
			pc := pa + pb // |p - c|
			if pa < 0 {
				pa = -pa
			}
			if pb < 0 {
				pb = -pb
			}
			if pc < 0 {
				pc = -pc
			}
			pred := c
			if pa <= pb && pa <= pc {
				pred = a
			} else if pb <= pc {
				pred = b
			}
			a = (pred + int(cur[i])) & 0xff
			cur[i] = byte(a)
			c = b
		}
	}
}
