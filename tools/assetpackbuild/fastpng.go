package assetpackbuild

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/agentpet/rules_pet/tools/internal/inflate"
)

// fastDecoder converts the PNGs nearly every sprite is, 8-bit colour type
// 6 or 2 without interlacing and with no PLTE or tRNS chunk, without
// image/png: the image data is inflated whole by tools/internal/inflate
// (the header gives its exact size, so the output can be the window),
// then each row is unfiltered in place and reduced straight into the
// pack. The filtered rows are the one image-sized buffer, reused from
// image to image with the inflater's tables; no image.Image is built.
// One worker owns one fastDecoder, so memory grows with the workers,
// not with the images.
//
// It only ever accepts a file image/png accepts, with the same pixels:
// it walks the same chunk rules (every CRC checked, the IDAT run inflated
// to exactly its end, zlib's Adler-32 checked, nothing after the pixels)
// and gives up on anything else, PLTE and tRNS included, leaving the file
// to image/png, whose result, pixels or error, is then the answer. So the
// accepted set and every rejection text are image/png's, and
// FuzzFastPath holds the two paths to the same output for any input.
type fastDecoder struct {
	file     []byte   // the PNG file, read by convertFile
	segs     [][]byte // the IDAT run's data, chunk by chunk
	stream   []byte   // the run joined, when it has more than one chunk
	raw      []byte   // the image's filtered rows, inflated
	zero     []byte   // the row above the first
	inflater inflate.Decoder
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
	stream := d.segs[0]
	if len(d.segs) > 1 {
		d.stream = d.stream[:0]
		for _, s := range d.segs {
			d.stream = append(d.stream, s...)
		}
		stream = d.stream
	}
	bpp := 4
	if h.colour == 2 {
		bpp = 3
	}
	w, hgt := int(h.width), int(h.height)
	n := 1 + w*bpp // the filter type byte, then the pixels
	size := filteredSize(w, hgt, bpp)
	if cap(d.raw) < size {
		d.raw = make([]byte, size)
	}
	if cap(d.zero) < n {
		d.zero = make([]byte, n)
	}
	raw := d.raw[:size]
	// As image/png requires: the stream holds exactly the rows, ends
	// there with the right Adler-32, and uses the whole IDAT run.
	if took, err := d.inflater.Zlib(raw, stream); err != nil || took != len(stream) {
		return false
	}
	prev := d.zero[:n]
	cl, ml := 2*w, (w+7)/8
	for y := 0; y < hgt; y++ {
		cur := raw[y*n : y*n+n]
		if !unfilter(cur[0], cur[1:], prev[1:], bpp) {
			return false
		}
		colour, mask := dst.Colour[y*cl:y*cl+cl], dst.Mask[y*ml:y*ml+ml]
		if bpp == 3 {
			reduceOpaqueRow(cur[1:], 3, colour, mask)
		} else {
			reduceAlphaRow(cur[1:], colour, mask)
		}
		prev = cur
	}
	return true
}

// filteredSize is the length of a w by h image's inflated IDAT data at
// bpp bytes a pixel: each row's filter type byte, then its pixels.
func filteredSize(w, h, bpp int) int { return h * (1 + w*bpp) }

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

// unfilter reverses the PNG row filter ft on cur, given prev, the
// unfiltered row above (zero for the first row); bpp is the bytes a
// pixel. It reports false for a filter type PNG does not define. The
// filters work on whole pixels and words where they can: the bytes of a
// word are added without carries between them (add8).
func unfilter(ft byte, cur, prev []byte, bpp int) bool {
	prev = prev[:len(cur)]
	switch ft {
	case 0: // None
	case 1: // Sub
		if bpp == 4 {
			left := uint32(0)
			for i := 0; i+4 <= len(cur); i += 4 {
				left = uint32(add8(uint64(binary.LittleEndian.Uint32(cur[i:])), uint64(left)))
				binary.LittleEndian.PutUint32(cur[i:], left)
			}
			break
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2: // Up
		i := 0
		for ; i+8 <= len(cur); i += 8 {
			binary.LittleEndian.PutUint64(cur[i:], add8(binary.LittleEndian.Uint64(cur[i:]), binary.LittleEndian.Uint64(prev[i:])))
		}
		for ; i < len(cur); i++ {
			cur[i] += prev[i]
		}
	case 3: // Average
		if bpp == 4 {
			left := uint64(0)
			for i := 0; i+4 <= len(cur); i += 4 {
				up := uint64(binary.LittleEndian.Uint32(prev[i:]))
				// The bytes' floor((left+up)/2), with no carry out of any.
				avg := left&up + (left^up)>>1&0x7f7f7f7f
				left = add8(uint64(binary.LittleEndian.Uint32(cur[i:])), avg) & 0xffffffff
				binary.LittleEndian.PutUint32(cur[i:], uint32(left))
			}
			break
		}
		for i := 0; i < bpp; i++ {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += byte((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4: // Paeth
		if bpp == 4 {
			unpaeth4(cur, prev)
			break
		}
		unpaeth(cur, prev, bpp)
	default:
		return false
	}
	return true
}

// add8 adds the bytes of a and b pairwise, each modulo 256.
func add8(a, b uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return (a&low7 + b&low7) ^ (a^b)&^low7
}

// paeth is the Paeth predictor of PNG's filter type 4, a the byte to
// the left, b the one above, c the one above and to the left. Written
// as two conditional moves, with the predictor's tie order (a, then b,
// then c), so that noisy rows cost no mispredicted branches.
func paeth(a, b, c int) int {
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
	pred, m := a, pa
	if pb < m {
		pred, m = b, pb
	}
	if pc < m {
		pred = c
	}
	return pred
}

// unpaeth4 reverses the Paeth filter on four-byte pixels, the four
// channels side by side so that their chains of dependent bytes overlap.
func unpaeth4(cur, prev []byte) {
	var a0, a1, a2, a3, c0, c1, c2, c3 int
	for i := 0; i+4 <= len(cur); i += 4 {
		p, q := cur[i:i+4:i+4], prev[i:i+4:i+4]
		b0, b1, b2, b3 := int(q[0]), int(q[1]), int(q[2]), int(q[3])
		a0 = (paeth(a0, b0, c0) + int(p[0])) & 0xff
		a1 = (paeth(a1, b1, c1) + int(p[1])) & 0xff
		a2 = (paeth(a2, b2, c2) + int(p[2])) & 0xff
		a3 = (paeth(a3, b3, c3) + int(p[3])) & 0xff
		p[0], p[1], p[2], p[3] = byte(a0), byte(a1), byte(a2), byte(a3)
		c0, c1, c2, c3 = b0, b1, b2, b3
	}
}

// unpaeth reverses the Paeth filter one channel at a time, keeping the
// left (a) and upper-left (c) neighbours in registers.
func unpaeth(cur, prev []byte, bpp int) {
	for ch := 0; ch < bpp; ch++ {
		a, c := 0, 0
		for i := ch; i < len(cur); i += bpp {
			b := int(prev[i])
			a = (paeth(a, b, c) + int(cur[i])) & 0xff
			cur[i] = byte(a)
			c = b
		}
	}
}
