// Package inflate decompresses a whole zlib stream (RFC 1950 around RFC
// 1951) into a buffer of known size. It is the PNG fast path's inflater:
// a PNG's header gives the exact size of its decompressed rows, so the
// whole output can serve as the window, and the decoder needs neither
// compress/flate's sliding window nor its byte-at-a-time reads. It loads
// the input eight bytes at a time and decodes a Huffman code with one
// table lookup (two for codes longer than the primary table), which
// makes it about twice as fast.
//
// It accepts only streams compress/zlib accepts, producing the same
// bytes: the same header and Adler-32 checks, the same code rules
// (complete codes, except an empty tree and zlib's single one-bit code),
// the same limits on code counts, symbols and distances. It also
// refuses what its caller would have to treat differently, a stream
// that produces more or fewer bytes than the buffer holds. A refusal is
// never more than "not here": the caller then decodes with the standard
// library, whose answer stands. FuzzZlib holds the two to that.
package inflate

import (
	"encoding/binary"
	"errors"
	"sync"
)

// ErrRefused is the one error Zlib returns: the stream is not one
// compress/zlib would decode to exactly len(dst) bytes, or it is one this
// decoder leaves to compress/zlib.
var ErrRefused = errors.New("inflate: stream refused")

const (
	maxNumLit  = 286 // literal/length symbols a dynamic block may declare
	maxNumDist = 30  // distance symbols a dynamic block may declare
	maxCodeLen = 15

	litBits  = 10 // primary table index bits, literal/length code
	distBits = 8  // primary table index bits, distance code
	clenBits = 7  // the code-length code's codes are at most 7 bits

	// A subtable holds 2^(maxCodeLen-primary) entries, one per prefix
	// of the primary table's width: at most one per symbol.
	litTableSize  = 1<<litBits + 288<<(maxCodeLen-litBits)
	distTableSize = 1<<distBits + 32<<(maxCodeLen-distBits)
)

// A table entry is a uint32: bits 0-3 the bits it consumes, bits 4-7
// the extra bits that follow it (for a subtable pointer: the
// subtable's index bits), bits 8-10 its kind, bits 16-31 its value (a
// literal byte, a base length or distance, or a subtable's offset).
const (
	kindInvalid = iota // no code, or a symbol the format does not allow
	kindLiteral        // a literal byte; a code-length symbol
	kindLength         // a match length
	kindEOB            // end of block
	kindSub            // see the subtable at the value's offset
	kindDist           // a match distance
)

func entry(kind, value, extra uint32) uint32 { return value<<16 | kind<<8 | extra<<4 }

var (
	lengthBase  = [29]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint32{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint32{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// codeOrder is the order of the code-length code's lengths.
	codeOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

func litEntry(sym int) uint32 {
	switch {
	case sym < 256:
		return entry(kindLiteral, uint32(sym), 0)
	case sym == 256:
		return entry(kindEOB, 0, 0)
	case sym < maxNumLit:
		return entry(kindLength, lengthBase[sym-257], lengthExtra[sym-257])
	}
	return entry(kindInvalid, 0, 0) // 286 and 287 exist only in the fixed code
}

func distEntry(sym int) uint32 {
	if sym < maxNumDist {
		return entry(kindDist, distBase[sym], distExtra[sym])
	}
	return entry(kindInvalid, 0, 0) // 30 and 31 exist only in the fixed code
}

func clenEntry(sym int) uint32 { return entry(kindLiteral, uint32(sym), 0) }

// fixed holds the tables of the fixed Huffman code (RFC 1951 3.2.6),
// built on first use so that programs that never inflate pay nothing.
var fixed struct {
	once sync.Once
	lit  [litTableSize]uint32
	dist [distTableSize]uint32
}

func fixedTables() (*[litTableSize]uint32, *[distTableSize]uint32) {
	fixed.once.Do(func() {
		var lens [288]uint8
		for i := range lens {
			switch {
			case i < 144:
				lens[i] = 8
			case i < 256:
				lens[i] = 9
			case i < 280:
				lens[i] = 7
			default:
				lens[i] = 8
			}
		}
		build(fixed.lit[:], lens[:], litBits, litEntry)
		var dl [32]uint8
		for i := range dl {
			dl[i] = 5
		}
		build(fixed.dist[:], dl[:], distBits, distEntry)
	})
	return &fixed.lit, &fixed.dist
}

// build fills table for the canonical Huffman code whose symbol s has
// code length lens[s] (0: unused), with a primary table of 2^pb entries
// and subtables behind it, and the entry of each symbol from kind. It
// reports false where compress/flate's huffmanDecoder.init does: an
// over-subscribed code, or an incomplete one other than an empty code
// and a single one-bit code. Indices no code reaches stay invalid.
func build(table []uint32, lens []uint8, pb uint, kind func(int) uint32) bool {
	var count [maxCodeLen + 1]int
	maxLen := uint(0)
	for _, l := range lens {
		count[l]++
		if uint(l) > maxLen {
			maxLen = uint(l)
		}
	}
	count[0] = 0 // unused symbols take no code
	primary := table[:1<<pb]
	for i := range primary {
		primary[i] = 0
	}
	if maxLen == 0 {
		return true // empty: any use of it fails, as in compress/flate
	}
	left := 1
	for l := 1; l <= maxCodeLen; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return false
		}
	}
	if left != 0 && !(maxLen == 1 && count[1] == 1) {
		return false
	}
	var next [maxCodeLen + 1]uint32
	code := uint32(0)
	for l := 1; l <= maxCodeLen; l++ {
		code = (code + uint32(count[l-1])) << 1
		next[l] = code
	}
	subBits := uint(0)
	if maxLen > pb {
		subBits = maxLen - pb
	}
	free := uint32(1) << pb
	for s, l8 := range lens {
		l := uint(l8)
		if l == 0 {
			continue
		}
		c := next[l]
		next[l]++
		r := reverse(c, l)
		e := kind(s)
		if l <= pb {
			for i := r; i < 1<<pb; i += 1 << l {
				table[i] = e | uint32(l)
			}
			continue
		}
		p := r & (1<<pb - 1)
		if table[p]>>8&7 != kindSub {
			table[p] = entry(kindSub, free, uint32(subBits)) | uint32(pb)
			sub := table[free : free+1<<subBits]
			for i := range sub {
				sub[i] = 0
			}
			free += 1 << subBits
		}
		off := table[p] >> 16
		for i := r >> pb; i < 1<<subBits; i += 1 << (l - pb) {
			table[off+i] = e | uint32(l-pb)
		}
	}
	return true
}

// reverse returns the low n bits of c in reverse order: deflate packs a
// code's first bit into the lowest bit of the stream.
func reverse(c uint32, n uint) uint32 {
	r := uint32(0)
	for i := uint(0); i < n; i++ {
		r = r<<1 | c&1
		c >>= 1
	}
	return r
}

// Decoder decompresses zlib streams. It holds the tables of the dynamic
// blocks it decodes, so one Decoder reused by one goroutine allocates
// nothing per stream. The zero value is ready to use.
type Decoder struct {
	lit  [litTableSize]uint32
	dist [distTableSize]uint32
	clen [1 << clenBits]uint32
	lens [maxNumLit + maxNumDist]uint8
}

// bitReader reads src least significant bit first. Bits past the end of
// src read as zero and are counted in over: a stream that ends up
// consuming one of them is truncated.
type bitReader struct {
	src  []byte
	pos  int    // the next byte of src to load into buf
	buf  uint64 // loaded bits, the next one lowest
	n    uint   // how many bits of buf are loaded
	over int    // zero bytes loaded past the end of src
}

// refill loads bytes until at least 57 bits are loaded.
func (b *bitReader) refill() {
	if b.pos+8 <= len(b.src) {
		b.buf |= binary.LittleEndian.Uint64(b.src[b.pos:]) << b.n
		b.pos += int((63 - b.n) >> 3)
		b.n |= 56
		return
	}
	for b.n <= 56 {
		if b.pos < len(b.src) {
			b.buf |= uint64(b.src[b.pos]) << b.n
			b.pos++
		} else {
			b.over++
		}
		b.n += 8
	}
}

// take consumes and returns k bits (k <= 32), refilling first if needed.
func (b *bitReader) take(k uint) uint32 {
	if b.n < k {
		b.refill()
	}
	v := uint32(b.buf & (1<<k - 1))
	b.buf >>= k
	b.n -= k
	return v
}

// consumed is how many bytes of src the bits read so far touch.
func (b *bitReader) consumed() int {
	return (8*(b.pos+b.over) - int(b.n) + 7) / 8
}

// truncated reports whether the stream has read a bit past src's end.
func (b *bitReader) truncated() bool {
	return 8*(b.pos+b.over)-int(b.n) > 8*len(b.src)
}

// Zlib decompresses the zlib stream at the start of src into dst, which
// it fills exactly: the stream must produce len(dst) bytes, end there
// and carry their Adler-32. It returns how many bytes of src the stream
// took, through its checksum; any other outcome is ErrRefused.
func (d *Decoder) Zlib(dst, src []byte) (int, error) {
	if len(src) < 2 {
		return 0, ErrRefused
	}
	cmf, flg := src[0], src[1]
	if cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 || flg&0x20 != 0 {
		return 0, ErrRefused // compress/zlib: ErrHeader, or ErrDictionary
	}
	br := bitReader{src: src, pos: 2}
	out := 0
	for final := uint32(0); final == 0; {
		final = br.take(1)
		var ok bool
		switch br.take(2) {
		case 0:
			out, ok = stored(&br, dst, out)
		case 1:
			lit, dist := fixedTables()
			out, ok = d.block(&br, dst, out, lit, dist)
		case 2:
			ok = d.dynamic(&br)
			if ok {
				out, ok = d.block(&br, dst, out, &d.lit, &d.dist)
			}
		}
		if !ok || br.truncated() || br.over > 16 {
			return 0, ErrRefused
		}
	}
	if out != len(dst) {
		return 0, ErrRefused
	}
	end := br.consumed()
	if len(src)-end < 4 || binary.BigEndian.Uint32(src[end:]) != adler32(dst) {
		return 0, ErrRefused
	}
	return end + 4, nil
}

// stored copies a stored block's bytes (RFC 1951 3.2.4).
func stored(br *bitReader, dst []byte, out int) (int, bool) {
	br.take(br.n & 7) // to the byte boundary
	ln, nln := br.take(16), br.take(16)
	if ln != ^nln&0xffff {
		return out, false
	}
	// The bytes still in buf are the block's first: read from src.
	p := br.pos + br.over - int(br.n/8)
	n := int(ln)
	if p > len(br.src) || n > len(br.src)-p || n > len(dst)-out {
		return out, false
	}
	copy(dst[out:], br.src[p:p+n])
	br.pos, br.buf, br.n, br.over = p+n, 0, 0, 0
	return out + n, true
}

// dynamic reads a dynamic block's code lengths (RFC 1951 3.2.7) into
// d.lit and d.dist, with compress/flate's limits.
func (d *Decoder) dynamic(br *bitReader) bool {
	nlit := int(br.take(5)) + 257
	ndist := int(br.take(5)) + 1
	nclen := int(br.take(4)) + 4
	if nlit > maxNumLit || ndist > maxNumDist {
		return false
	}
	var cl [19]uint8
	for i := 0; i < nclen; i++ {
		cl[codeOrder[i]] = uint8(br.take(3))
	}
	if !build(d.clen[:], cl[:], clenBits, clenEntry) {
		return false
	}
	lens := d.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		if br.n < clenBits+7 {
			br.refill()
		}
		e := d.clen[br.buf&(1<<clenBits-1)]
		if e>>8&7 != kindLiteral {
			return false
		}
		br.buf >>= e & 15
		br.n -= uint(e & 15)
		sym := e >> 16
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var rep int
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				return false
			}
			rep, v = 3+int(br.take(2)), lens[i-1]
		case 17:
			rep = 3 + int(br.take(3))
		default:
			rep = 11 + int(br.take(7))
		}
		if i+rep > len(lens) {
			return false
		}
		for j := 0; j < rep; j++ {
			lens[i] = v
			i++
		}
	}
	return build(d.lit[:], lens[:nlit], litBits, litEntry) &&
		build(d.dist[:], lens[nlit:], distBits, distEntry)
}

// block decodes one Huffman-coded block with the tables lit and dist
// into dst from out, and returns where its output ends.
func (d *Decoder) block(br *bitReader, dst []byte, out int, lit *[litTableSize]uint32, dist *[distTableSize]uint32) (int, bool) {
	src := br.src
	pos, buf, n := br.pos, br.buf, br.n
	// The fast loop runs while eight input bytes can always be loaded
	// and the output has room for any match plus a word of overshoot,
	// so it checks neither; the careful loop below finishes the block.
	for pos+8 <= len(src) && out <= len(dst)-(258+8) {
		// One refill covers a whole match, at most 15+5+15+13 bits,
		// or three literals.
		buf |= binary.LittleEndian.Uint64(src[pos:]) << n
		pos += int((63 - n) >> 3)
		n |= 56
		e := lit[buf&(1<<litBits-1)]
		if e>>8&7 == kindLiteral {
			for k := 1; ; k++ {
				buf >>= e & 15
				n -= uint(e & 15)
				dst[out] = byte(e >> 16)
				out++
				e = lit[buf&(1<<litBits-1)]
				if k == 3 || e>>8&7 != kindLiteral {
					break
				}
			}
			continue
		}
		if e>>8&7 == kindSub {
			buf >>= litBits
			n -= litBits
			e = lit[e>>16+uint32(buf)&(1<<(e>>4&15)-1)]
		}
		buf >>= e & 15
		n -= uint(e & 15)
		switch e >> 8 & 7 {
		case kindLiteral:
			dst[out] = byte(e >> 16)
			out++
			continue
		case kindLength:
		case kindEOB:
			br.pos, br.buf, br.n = pos, buf, n
			return out, true
		default:
			return out, false
		}
		x := uint(e >> 4 & 15)
		length := int(e>>16) + int(buf&(1<<x-1))
		buf >>= x
		n -= x
		e = dist[buf&(1<<distBits-1)]
		if e>>8&7 == kindSub {
			buf >>= distBits
			n -= distBits
			e = dist[e>>16+uint32(buf)&(1<<(e>>4&15)-1)]
		}
		if e>>8&7 != kindDist {
			return out, false
		}
		buf >>= e & 15
		n -= uint(e & 15)
		x = uint(e >> 4 & 15)
		distance := int(e>>16) + int(buf&(1<<x-1))
		buf >>= x
		n -= x
		if distance > out {
			return out, false
		}
		copyMatch(dst, out, distance, length)
		out += length
	}
	br.pos, br.buf, br.n = pos, buf, n
	return d.blockTail(br, dst, out, lit, dist)
}

// copyMatch copies length bytes from distance back to dst[out:], a word
// at a time. It may write up to 7 bytes past the match, which dst must
// have room for; a later symbol overwrites them.
func copyMatch(dst []byte, out, distance, length int) {
	if distance >= 8 {
		from := out - distance
		for i := 0; i < length; i += 8 {
			binary.LittleEndian.PutUint64(dst[out+i:], binary.LittleEndian.Uint64(dst[from+i:]))
		}
		return
	}
	// A run with a period under a word (zeros, a repeated pixel): once
	// a few bytes are copied one at a time, the output repeats with
	// period far, a multiple of distance at least a word long, and the
	// rest copies a word at a time from far back.
	far := distance * ((8 + distance - 1) / distance)
	k := far - distance
	if k > length {
		k = length
	}
	from := out - distance
	for i := 0; i < k; i++ {
		dst[out+i] = dst[from+i]
	}
	for i := k; i < length; i += 8 {
		binary.LittleEndian.PutUint64(dst[out+i:], binary.LittleEndian.Uint64(dst[out+i-far:]))
	}
}

// blockTail is block's careful loop: every load and store checked.
func (d *Decoder) blockTail(br *bitReader, dst []byte, out int, lit *[litTableSize]uint32, dist *[distTableSize]uint32) (int, bool) {
	for {
		br.refill()
		if br.over > 16 {
			return out, false
		}
		buf := br.buf
		e := lit[buf&(1<<litBits-1)]
		if e>>8&7 == kindSub {
			buf >>= litBits
			br.n -= litBits
			e = lit[e>>16+uint32(buf)&(1<<(e>>4&15)-1)]
		}
		buf >>= e & 15
		br.n -= uint(e & 15)
		switch e >> 8 & 7 {
		case kindLiteral:
			br.buf = buf
			if out >= len(dst) {
				return out, false
			}
			dst[out] = byte(e >> 16)
			out++
			continue
		case kindLength:
		case kindEOB:
			br.buf = buf
			return out, true
		default:
			return out, false
		}
		x := uint(e >> 4 & 15)
		length := int(e>>16) + int(buf&(1<<x-1))
		buf >>= x
		br.n -= x
		e = dist[buf&(1<<distBits-1)]
		if e>>8&7 == kindSub {
			buf >>= distBits
			br.n -= distBits
			e = dist[e>>16+uint32(buf)&(1<<(e>>4&15)-1)]
		}
		if e>>8&7 != kindDist {
			return out, false
		}
		buf >>= e & 15
		br.n -= uint(e & 15)
		x = uint(e >> 4 & 15)
		distance := int(e>>16) + int(buf&(1<<x-1))
		br.buf = buf >> x
		br.n -= x
		if distance > out || length > len(dst)-out {
			return out, false
		}
		from := out - distance
		for i := 0; i < length; i++ {
			dst[out+i] = dst[from+i]
		}
		out += length
	}
}

// adler32 is hash/adler32.Checksum eight bytes a step: s2 gains eight
// times s1 plus the bytes weighted 8 down to 1, which spares the chain
// of dependent additions the byte-at-a-time form makes.
func adler32(p []byte) uint32 {
	const mod, nmax = 65521, 5552 // the most bytes before s2 could overflow; a multiple of 8
	s1, s2 := uint32(1), uint32(0)
	for len(p) > 0 {
		q := p
		if len(q) > nmax {
			q = q[:nmax]
		}
		p = p[len(q):]
		for ; len(q) >= 8; q = q[8:] {
			b := q[:8:8]
			s2 += 8*s1 + 8*uint32(b[0]) + 7*uint32(b[1]) + 6*uint32(b[2]) + 5*uint32(b[3]) +
				4*uint32(b[4]) + 3*uint32(b[5]) + 2*uint32(b[6]) + uint32(b[7])
			s1 += uint32(b[0]) + uint32(b[1]) + uint32(b[2]) + uint32(b[3]) +
				uint32(b[4]) + uint32(b[5]) + uint32(b[6]) + uint32(b[7])
		}
		for _, c := range q {
			s1 += uint32(c)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
	}
	return s2<<16 | s1
}
