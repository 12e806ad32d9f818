package webp

// The VP8L pre-pass. golang.org/x/image v0.24.0 (the newest release that
// builds with Go 1.19) sizes its prefix-code group table from the largest
// index in the entropy image before reading a single code (CVE-2026-46603),
// so a few hundred kilobytes can make it allocate over a gigabyte. We read
// the bitstream exactly as far as that table: the header, every transform
// (whose sub-images must be decoded to be skipped), the colour-cache bits
// and the entropy image, and refuse what would cost more than the budget.
//
// The sub-image decoder mirrors x/image's vp8l package (BSD licence,
// Copyright 2014 The Go Authors) so both read the same bits the same way;
// it differs only where x/image trusts the input: bounds on every index,
// and no allocation that the budget has not allowed.

import (
	"errors"
)

var errVP8L = errors.New("invalid VP8L bitstream")

type bitReader struct {
	b     []byte
	i     int
	bits  uint32
	nBits uint32
}

func (d *bitReader) read(n uint32) (uint32, error) {
	for d.nBits < n {
		if d.i >= len(d.b) {
			return 0, errVP8L
		}
		d.bits |= uint32(d.b[d.i]) << d.nBits
		d.i++
		d.nBits += 8
	}
	u := d.bits & (1<<n - 1)
	d.bits >>= n
	d.nBits -= n
	return u, nil
}

// prefixCode is a canonical prefix code as a flat decoding table: for each
// code length, the first code and the symbols in canonical order.
type prefixCode struct {
	single  bool
	symbol  uint32
	count   [16]uint16
	symbols []uint16
}

func (c *prefixCode) build(lengths []uint32) error {
	c.single = false
	c.count = [16]uint16{}
	n, last := 0, 0
	for s, l := range lengths {
		if l > 15 {
			return errVP8L
		}
		if l != 0 {
			n++
			last = s
			c.count[l]++
		}
	}
	if n == 0 {
		return errVP8L
	}
	if n == 1 {
		// One symbol costs zero bits, as in x/image and libwebp.
		c.single, c.symbol = true, uint32(last)
		return nil
	}
	// The code must be complete: libwebp rejects over- and
	// under-subscribed codes, x/image rejects over-subscribed ones.
	left := 1
	for l := 1; l < 16; l++ {
		left = left<<1 - int(c.count[l])
		if left < 0 {
			return errVP8L
		}
	}
	if left != 0 {
		return errVP8L
	}
	var offs [16]int
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + int(c.count[l])
	}
	c.symbols = make([]uint16, n)
	for s, l := range lengths {
		if l != 0 {
			c.symbols[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	return nil
}

func (c *prefixCode) next(d *bitReader) (uint32, error) {
	if c.single {
		return c.symbol, nil
	}
	code, first, index := 0, 0, 0
	for l := 1; l < 16; l++ {
		b, err := d.read(1)
		if err != nil {
			return 0, err
		}
		code |= int(b)
		cnt := int(c.count[l])
		if code-first < cnt {
			return uint32(c.symbols[index+code-first]), nil
		}
		index += cnt
		first = (first + cnt) << 1
		code <<= 1
	}
	return 0, errVP8L
}

var (
	codeLengthCodeOrder = [19]uint8{17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	repeatBits          = [3]uint8{2, 3, 7}
	repeatOffsets       = [3]uint8{3, 3, 11}
	alphabetSizes       = [5]uint32{256 + 24, 256, 256, 256, 40}
)

// readCode reads one prefix code (RFC 9649 section 3.7.2.1) into c and
// returns the number of symbols it uses, which is what x/image allocates
// tree nodes for.
func readCode(d *bitReader, c *prefixCode, alphabetSize uint32) (int, error) {
	simple, err := d.read(1)
	if err != nil {
		return 0, err
	}
	lengths := make([]uint32, alphabetSize)
	if simple != 0 {
		n, err := d.read(1)
		if err != nil {
			return 0, err
		}
		first, err := d.read(1)
		if err != nil {
			return 0, err
		}
		s0, err := d.read(7*first + 1)
		if err != nil {
			return 0, err
		}
		if s0 >= alphabetSize {
			return 0, errVP8L
		}
		if n == 0 {
			c.single, c.symbol = true, s0
			return 1, nil
		}
		s1, err := d.read(8)
		if err != nil {
			return 0, err
		}
		if s1 >= alphabetSize || s1 == s0 {
			return 0, errVP8L
		}
		lengths[s0], lengths[s1] = 1, 1
		return 2, c.build(lengths)
	}
	nCodes, err := d.read(4)
	if err != nil {
		return 0, err
	}
	var clLengths [19]uint32
	for i := uint32(0); i < nCodes+4; i++ {
		if clLengths[codeLengthCodeOrder[i]], err = d.read(3); err != nil {
			return 0, err
		}
	}
	var cl prefixCode
	if err := cl.build(clLengths[:]); err != nil {
		return 0, err
	}
	maxSymbol := int(alphabetSize)
	useLength, err := d.read(1)
	if err != nil {
		return 0, err
	}
	if useLength != 0 {
		n, err := d.read(3)
		if err != nil {
			return 0, err
		}
		ms, err := d.read(2 + 2*n)
		if err != nil {
			return 0, err
		}
		maxSymbol = int(ms) + 2
		if maxSymbol > int(alphabetSize) {
			return 0, errVP8L
		}
	}
	prev := uint32(8)
	for sym := 0; sym < int(alphabetSize) && maxSymbol > 0; maxSymbol-- {
		l, err := cl.next(d)
		if err != nil {
			return 0, err
		}
		if l < 16 {
			lengths[sym] = l
			sym++
			if l != 0 {
				prev = l
			}
			continue
		}
		r, err := d.read(uint32(repeatBits[l-16]))
		if err != nil {
			return 0, err
		}
		r += uint32(repeatOffsets[l-16])
		if sym+int(r) > int(alphabetSize) {
			return 0, errVP8L
		}
		v := uint32(0)
		if l == 16 {
			v = prev
		}
		for ; r > 0; r-- {
			lengths[sym] = v
			sym++
		}
	}
	used := 0
	for _, l := range lengths {
		if l != 0 {
			used++
		}
	}
	return used, c.build(lengths)
}

func nTiles(size int, bits uint32) int { return (size + 1<<bits - 1) >> bits }

var distanceMapTable = [120]uint8{
	0x18, 0x07, 0x17, 0x19, 0x28, 0x06, 0x27, 0x29, 0x16, 0x1a,
	0x26, 0x2a, 0x38, 0x05, 0x37, 0x39, 0x15, 0x1b, 0x36, 0x3a,
	0x25, 0x2b, 0x48, 0x04, 0x47, 0x49, 0x14, 0x1c, 0x35, 0x3b,
	0x46, 0x4a, 0x24, 0x2c, 0x58, 0x45, 0x4b, 0x34, 0x3c, 0x03,
	0x57, 0x59, 0x13, 0x1d, 0x56, 0x5a, 0x23, 0x2d, 0x44, 0x4c,
	0x55, 0x5b, 0x33, 0x3d, 0x68, 0x02, 0x67, 0x69, 0x12, 0x1e,
	0x66, 0x6a, 0x22, 0x2e, 0x54, 0x5c, 0x43, 0x4d, 0x65, 0x6b,
	0x32, 0x3e, 0x78, 0x01, 0x77, 0x79, 0x53, 0x5d, 0x11, 0x1f,
	0x64, 0x6c, 0x42, 0x4e, 0x76, 0x7a, 0x21, 0x2f, 0x75, 0x7b,
	0x31, 0x3f, 0x63, 0x6d, 0x52, 0x5e, 0x00, 0x74, 0x7c, 0x41,
	0x4f, 0x10, 0x20, 0x62, 0x6e, 0x30, 0x73, 0x7d, 0x51, 0x5f,
	0x40, 0x72, 0x7e, 0x61, 0x6f, 0x50, 0x71, 0x7f, 0x60, 0x70,
}

func lz77Param(d *bitReader, sym uint32) (int, error) {
	if sym < 4 {
		return int(sym) + 1, nil
	}
	extra := (sym - 2) >> 1
	offset := (2 + sym&1) << extra
	n, err := d.read(extra)
	if err != nil {
		return 0, err
	}
	return int(offset+n) + 1, nil
}

// readCacheBits reads the colour-cache flag and size (RFC 9649 3.7.2.2).
func readCacheBits(d *bitReader) (uint32, error) {
	use, err := d.read(1)
	if err != nil || use == 0 {
		return 0, err
	}
	b, err := d.read(4)
	if err != nil {
		return 0, err
	}
	if b < 1 || b > maxCacheBits {
		return 0, errVP8L
	}
	return b, nil
}

// decodeSubImage decodes a w x h sub-image (transform data or entropy
// image), which has one prefix-code group, and returns ARGB pixels.
func decodeSubImage(d *bitReader, w, h int) ([]uint32, error) {
	ccBits, err := readCacheBits(d)
	if err != nil {
		return nil, err
	}
	var codes [5]prefixCode
	for j, size := range alphabetSizes {
		if j == 0 && ccBits > 0 {
			size += 1 << ccBits
		}
		if _, err := readCode(d, &codes[j], size); err != nil {
			return nil, err
		}
	}
	var cache []uint32
	if ccBits > 0 {
		cache = make([]uint32, 1<<ccBits)
	}
	pix := make([]uint32, w*h)
	cached := 0
	for p := 0; p < len(pix); {
		g, err := codes[0].next(d)
		if err != nil {
			return nil, err
		}
		switch {
		case g < 256:
			r, err := codes[1].next(d)
			if err != nil {
				return nil, err
			}
			b, err := codes[2].next(d)
			if err != nil {
				return nil, err
			}
			a, err := codes[3].next(d)
			if err != nil {
				return nil, err
			}
			pix[p] = a<<24 | r<<16 | g<<8 | b
			p++
		case g < 256+24:
			length, err := lz77Param(d, g-256)
			if err != nil {
				return nil, err
			}
			ds, err := codes[4].next(d)
			if err != nil {
				return nil, err
			}
			dc, err := lz77Param(d, ds)
			if err != nil {
				return nil, err
			}
			dist := dc - 120
			if dc <= 120 {
				m := int(distanceMapTable[dc-1])
				dist = (m>>4)*w + 8 - m&0xf
				if dist < 1 {
					dist = 1
				}
			}
			if dist > p || length > len(pix)-p {
				return nil, errVP8L
			}
			for end := p + length; p < end; p++ {
				pix[p] = pix[p-dist]
			}
		default:
			for ; cached < p; cached++ {
				cache[(pix[cached]*0x1e35a7bd)>>(32-ccBits)] = pix[cached]
			}
			i := int(g) - 256 - 24
			if i >= len(cache) {
				return nil, errVP8L
			}
			pix[p] = cache[i]
			p++
		}
	}
	return pix, nil
}

type vp8lInfo struct {
	width, height int
	alphaHint     bool
	groups        int
	estimate      int64
}

// Sizes of x/image's tables on a 64-bit machine: an hTree is a slice
// header and a 128-entry uint32 look-up table; an hGroup is five of them;
// an hNode is 8 bytes.
const (
	hTreeBytes  = 24 + 4*128
	hGroupBytes = 5 * hTreeBytes
	hNodeBytes  = 8
)

// checkVP8L runs the pre-pass over a VP8L bitstream. With w == 0 it reads
// the 5-byte header; otherwise b is headerless ALPH data of size w x h.
func checkVP8L(b []byte, w, h int, budget Budget) (vp8lInfo, *Error) {
	d := &bitReader{b: b}
	info := vp8lInfo{width: w, height: h}
	if w == 0 {
		if len(b) < 5 {
			return info, reject(RuleBitstreamHeader, "VP8L payload has %d bytes, fewer than its 5-byte header", len(b))
		}
		sig, _ := d.read(8)
		if sig != 0x2f {
			return info, reject(RuleBitstreamHeader, "VP8L signature is %#02x, want 0x2f", sig)
		}
		wm1, _ := d.read(14)
		hm1, _ := d.read(14)
		hint, _ := d.read(1)
		version, _ := d.read(3)
		if version != 0 {
			return info, reject(RuleBitstreamHeader, "VP8L version %d, want 0", version)
		}
		info.width, info.height, info.alphaHint = int(wm1)+1, int(hm1)+1, hint != 0
	}
	pixels := int64(info.width) * int64(info.height)
	if pixels > int64(budget.MaxPixels) {
		return info, reject(RuleCanvasTooLarge, "VP8L image %dx%d exceeds %d pixels", info.width, info.height, budget.MaxPixels)
	}
	bad := func(what string) *Error {
		return reject(RuleBitstreamInvalid, "VP8L %s is malformed or truncated", what)
	}
	// x/image keeps the final pixels plus, for colour indexing, a second
	// full-size buffer while inverting transforms.
	est := 2 * 4 * pixels
	xw := info.width
	var seen [4]bool
	for {
		more, err := d.read(1)
		if err != nil {
			return info, bad("transform list")
		}
		if more == 0 {
			break
		}
		t, err := d.read(2)
		if err != nil {
			return info, bad("transform type")
		}
		if seen[t] {
			return info, bad("transform list (repeated transform)")
		}
		seen[t] = true
		switch t {
		case 0, 1: // predictor, cross-colour: a tile image
			bits, err := d.read(3)
			if err != nil {
				return info, bad("transform")
			}
			tw, th := nTiles(xw, bits+2), nTiles(info.height, bits+2)
			if _, err := decodeSubImage(d, tw, th); err != nil {
				return info, bad("transform image")
			}
			est += 4 * int64(tw*th)
		case 3: // colour indexing: a palette, then a narrower image
			n, err := d.read(8)
			if err != nil {
				return info, bad("colour table")
			}
			n++
			if _, err := decodeSubImage(d, int(n), 1); err != nil {
				return info, bad("colour table")
			}
			bits := uint32(0)
			switch {
			case n <= 2:
				bits = 3
			case n <= 4:
				bits = 2
			case n <= 16:
				bits = 1
			}
			xw = nTiles(xw, bits)
			est += 4 * 256
		}
	}
	ccBits, err := readCacheBits(d)
	if err != nil {
		return info, bad("colour cache")
	}
	groups := 1
	meta, err := d.read(1)
	if err != nil {
		return info, bad("meta prefix flag")
	}
	if meta != 0 {
		bits, err := d.read(3)
		if err != nil {
			return info, bad("entropy image")
		}
		tw, th := nTiles(xw, bits+2), nTiles(info.height, bits+2)
		img, err := decodeSubImage(d, tw, th)
		if err != nil {
			return info, bad("entropy image")
		}
		est += 4 * int64(tw*th)
		max := 0
		for _, px := range img {
			// The group index is the red and green bytes.
			if i := int(px>>8) & 0xffff; i > max {
				max = i
			}
		}
		groups = max + 1
	}
	info.groups = groups
	if groups > budget.MaxHuffmanGroups {
		return info, reject(RuleHuffmanGroups, "VP8L entropy image declares %d prefix-code groups, budget %d", groups, budget.MaxHuffmanGroups)
	}
	// Every group's five trees are allocated for every symbol they use,
	// so bound the worst case: each alphabet fully used.
	perGroup := int64(hGroupBytes)
	for j, size := range alphabetSizes {
		if j == 0 && ccBits > 0 {
			size += 1 << ccBits
		}
		perGroup += hNodeBytes * int64(2*size-1)
	}
	est += int64(groups)*perGroup + 4*(int64(1)<<ccBits)
	info.estimate = est
	if est > budget.MaxDecoderBytes {
		return info, reject(RuleDecoderMemory, "decoding this VP8L image may allocate %d bytes, budget %d", est, budget.MaxDecoderBytes)
	}
	return info, nil
}

// maxCacheBits is the largest colour-cache size VP8L allows, in bits.
const maxCacheBits = 11

// maxVP8LSide is the largest width or height a VP8L header can state
// (14 bits plus one).
const maxVP8LSide = 1 << 14

// DecoderBytesFor is the most the VP8L pre-pass lets one frame's decoding
// be estimated to cost under budget b, derived from b's own limits rather
// than chosen: two RGBA buffers of the largest frame b.MaxPixels allows
// (x/image's result and its working copy), the three tile images a frame
// may carry (predictor, cross-colour, entropy) at the finest 4x4 tiling,
// a 256-entry colour-indexing palette, and b.MaxHuffmanGroups prefix-code
// groups with every alphabet fully used and the largest colour cache.
func DecoderBytesFor(b Budget) int64 {
	pixels := int64(b.MaxPixels)
	tiles := pixels/16 + 2*maxVP8LSide/4 + 1
	perGroup := int64(hGroupBytes)
	for j, size := range alphabetSizes {
		if j == 0 {
			size += 1 << maxCacheBits
		}
		perGroup += hNodeBytes * int64(2*size-1)
	}
	return 2*4*pixels + 3*4*tiles + 4*256 + int64(b.MaxHuffmanGroups)*perGroup + 4*(int64(1)<<maxCacheBits)
}
