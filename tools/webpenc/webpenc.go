// Package webpenc writes lossless WebP: VP8L still images and animated
// VP8X/ANIM/ANMF files, in pure Go that builds with Go 1.19.
//
// The VP8L stream (RFC 9649) uses no transforms and no colour cache: one
// group of five canonical prefix codes over literal pixels and LZ77
// backward references. References are found greedily (the pixel to the
// left, the one above, and a bounded hash chain of earlier three-pixel
// runs), which is what sprites need: large transparent areas, flat fills,
// and previews enlarged by pixel replication, where nearly every pixel
// repeats its left or upper neighbour. Output depends only on the input
// pixels, durations and loop count.
package webpenc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math/bits"
	"sort"
)

// MaxDimension is the largest width or height VP8L can describe (14 bits).
const MaxDimension = 1 << 14

// MaxDuration is the largest ANMF frame duration in milliseconds (24 bits).
const MaxDuration = 1<<24 - 1

// EncodeStill encodes img as a simple-format lossless WebP (RIFF + VP8L).
func EncodeStill(img image.Image) ([]byte, error) {
	vp8l, err := EncodeVP8L(img)
	if err != nil {
		return nil, err
	}
	var w riffWriter
	w.chunk("VP8L", vp8l)
	return w.bytes(), nil
}

// EncodeAnimated encodes frames as an animated lossless WebP: VP8X, ANIM
// (transparent background, the given loop count, 0 meaning forever) and
// one full-canvas ANMF per frame with its duration in milliseconds. Frames
// are written with blending off and no disposal, so each composited canvas
// is exactly that frame's pixels. All frames must share one size.
func EncodeAnimated(frames []image.Image, durations []int, loop int) ([]byte, error) {
	if len(frames) == 0 {
		return nil, errors.New("webpenc: no frames")
	}
	if len(frames) != len(durations) {
		return nil, fmt.Errorf("webpenc: %d frames but %d durations", len(frames), len(durations))
	}
	if loop < 0 || loop > 0xffff {
		return nil, fmt.Errorf("webpenc: loop count %d outside 0..65535", loop)
	}
	size := frames[0].Bounds().Size()
	var (
		bits  = make([][]byte, len(frames))
		alpha bool
	)
	for i, img := range frames {
		if img.Bounds().Size() != size {
			return nil, fmt.Errorf("webpenc: frame %d is %v, frame 0 is %v", i, img.Bounds().Size(), size)
		}
		nrgba := toNRGBA(img)
		if hasAlpha(nrgba) {
			alpha = true
		}
		b, err := encodeNRGBA(nrgba)
		if err != nil {
			return nil, fmt.Errorf("webpenc: frame %d: %w", i, err)
		}
		bits[i] = b
	}
	return AssembleAnimated(size.X, size.Y, alpha, bits, durations, loop)
}

// AssembleAnimated is EncodeAnimated for frames already encoded with
// EncodeVP8L, all width x height: a caller that repeats a frame (a preview
// playing a burst several times) encodes it once and passes its bitstream
// again, and need not hold the decoded frames at all. alpha sets the VP8X
// alpha flag and must be true when any frame has a pixel that is not
// opaque.
func AssembleAnimated(width, height int, alpha bool, bitstreams [][]byte, durations []int, loop int) ([]byte, error) {
	if len(bitstreams) == 0 {
		return nil, errors.New("webpenc: no frames")
	}
	if len(bitstreams) != len(durations) {
		return nil, fmt.Errorf("webpenc: %d frames but %d durations", len(bitstreams), len(durations))
	}
	if loop < 0 || loop > 0xffff {
		return nil, fmt.Errorf("webpenc: loop count %d outside 0..65535", loop)
	}
	if width < 1 || height < 1 || width > MaxDimension || height > MaxDimension {
		return nil, fmt.Errorf("webpenc: %dx%d outside 1..%d", width, height, MaxDimension)
	}
	var w riffWriter
	x := make([]byte, 10)
	x[0] = 0x02 // animation
	if alpha {
		x[0] |= 0x10
	}
	put24(x[4:], width-1)
	put24(x[7:], height-1)
	w.chunk("VP8X", x)
	anim := make([]byte, 6)
	binary.LittleEndian.PutUint16(anim[4:], uint16(loop))
	w.chunk("ANIM", anim)
	for i, bits := range bitstreams {
		if durations[i] < 0 || durations[i] > MaxDuration {
			return nil, fmt.Errorf("webpenc: frame %d duration %d outside 0..%d", i, durations[i], MaxDuration)
		}
		var f riffWriter
		hdr := make([]byte, 16)
		put24(hdr[6:], width-1)
		put24(hdr[9:], height-1)
		put24(hdr[12:], durations[i])
		hdr[15] = 0x02 // do not blend, do not dispose
		f.buf = append(f.buf, hdr...)
		f.chunk("VP8L", bits)
		w.chunk("ANMF", f.buf)
	}
	return w.bytes(), nil
}

// EncodeVP8L returns the bare VP8L bitstream (the payload of a VP8L chunk)
// for img.
func EncodeVP8L(img image.Image) ([]byte, error) {
	return encodeNRGBA(toNRGBA(img))
}

func put24(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }

type riffWriter struct{ buf []byte }

func (w *riffWriter) chunk(id string, p []byte) {
	var h [8]byte
	copy(h[:], id)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(p)))
	w.buf = append(w.buf, h[:]...)
	w.buf = append(w.buf, p...)
	if len(p)%2 == 1 {
		w.buf = append(w.buf, 0)
	}
}

func (w *riffWriter) bytes() []byte {
	out := make([]byte, 12, 12+len(w.buf))
	copy(out, "RIFF")
	binary.LittleEndian.PutUint32(out[4:], uint32(4+len(w.buf)))
	copy(out[8:], "WEBP")
	return append(out, w.buf...)
}

// toNRGBA copies img into non-premultiplied RGBA, the model VP8L stores,
// so transparent pixels keep whatever colour an NRGBA source gave them.
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if src, ok := img.(*image.NRGBA); ok {
		for y := 0; y < b.Dy(); y++ {
			i := src.PixOffset(b.Min.X, b.Min.Y+y)
			copy(out.Pix[y*out.Stride:y*out.Stride+4*b.Dx()], src.Pix[i:i+4*b.Dx()])
		}
		return out
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.SetNRGBA(x, y, color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA))
		}
	}
	return out
}

func hasAlpha(img *image.NRGBA) bool {
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 0xff {
			return true
		}
	}
	return false
}

// BitWriter writes a VP8L bit stream, least significant bit first. It is
// exported so tests elsewhere can craft streams, hostile ones included, with
// the same writer the encoder uses.
type BitWriter struct {
	buf   []byte
	acc   uint64
	nBits uint
}

// Write appends the low n bits of v, least significant first, as VP8L
// reads them.
func (w *BitWriter) Write(v uint32, n uint) {
	w.acc |= uint64(v) << w.nBits
	w.nBits += n
	for w.nBits >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nBits -= 8
	}
}

// Bytes pads the stream to a whole byte and returns it.
func (w *BitWriter) Bytes() []byte {
	if w.nBits > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nBits = 0, 0
	}
	return w.buf
}

func encodeNRGBA(img *image.NRGBA) ([]byte, error) {
	width, height := img.Rect.Dx(), img.Rect.Dy()
	if width < 1 || height < 1 || width > MaxDimension || height > MaxDimension {
		return nil, fmt.Errorf("webpenc: image size %dx%d outside 1..%d", width, height, MaxDimension)
	}
	var w BitWriter
	w.Write(0x2f, 8)
	w.Write(uint32(width-1), 14)
	w.Write(uint32(height-1), 14)
	if hasAlpha(img) {
		w.Write(1, 1)
	} else {
		w.Write(0, 1)
	}
	w.Write(0, 3) // version
	w.Write(0, 1) // no transform
	w.Write(0, 1) // no colour cache
	w.Write(0, 1) // no meta prefix codes: one group for the whole image

	// Histograms in VP8L channel order: green (with the 24 length
	// prefixes after the 256 literals), red, blue, alpha, distance.
	toks := tokenize(argbOf(img), width)
	hist := [5][]int{make([]int, 256+numLengthCodes), make([]int, 256), make([]int, 256), make([]int, 256), make([]int, numDistanceCodes)}
	for _, t := range toks {
		if t.length == 0 {
			hist[0][t.argb>>8&0xff]++
			hist[1][t.argb>>16&0xff]++
			hist[2][t.argb&0xff]++
			hist[3][t.argb>>24]++
			continue
		}
		ls, _, _ := prefixEncode(t.length)
		ds, _, _ := prefixEncode(t.dist)
		hist[0][256+ls]++
		hist[4][ds]++
	}
	var codes [5]code
	for j := range hist {
		codes[j] = writeCode(&w, hist[j])
	}
	for _, t := range toks {
		if t.length == 0 {
			codes[0].put(&w, int(t.argb>>8&0xff))
			codes[1].put(&w, int(t.argb>>16&0xff))
			codes[2].put(&w, int(t.argb&0xff))
			codes[3].put(&w, int(t.argb>>24))
			continue
		}
		ls, lbits, lextra := prefixEncode(t.length)
		codes[0].put(&w, 256+ls)
		w.Write(lextra, lbits)
		ds, dbits, dextra := prefixEncode(t.dist)
		codes[4].put(&w, ds)
		w.Write(dextra, dbits)
	}
	return w.Bytes(), nil
}

// Sizes of the VP8L backward-reference alphabets and limits.
const (
	numLengthCodes   = 24
	numDistanceCodes = 40
	maxCopyLength    = 4096    // the largest length 24 prefix codes reach
	maxDistanceCode  = 1 << 20 // the largest distance code 40 prefix codes reach
	minCopyLength    = 3       // shorter copies cost about what their literals do
	hashBits         = 16
	maxChain         = 32 // candidates tried per pixel, bounding the work
)

// token is one step of the pixel stream: a literal ARGB pixel when length
// is 0, otherwise a copy of length pixels from the distance code dist.
type token struct {
	argb   uint32
	length int
	dist   int
}

// argbOf packs the image's pixels as VP8L's ARGB words.
func argbOf(img *image.NRGBA) []uint32 {
	pix := img.Pix
	out := make([]uint32, len(pix)/4)
	for i := range out {
		p := pix[4*i : 4*i+4]
		out[i] = uint32(p[3])<<24 | uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2])
	}
	return out
}

// tokenize turns pixels into literals and backward references, greedily
// taking the longest match among the left pixel, the pixel above and up
// to maxChain earlier positions that began with the same three pixels
// (nearest first, so ties go to the shortest distance).
func tokenize(px []uint32, width int) []token {
	n := len(px)
	head := make([]int32, 1<<hashBits)
	for i := range head {
		head[i] = -1
	}
	prev := make([]int32, n)
	hash := func(i int) uint32 {
		return (px[i]*0x9e3779b1 ^ px[i+1]*0x85ebca6b ^ px[i+2]*0xc2b2ae35) >> (32 - hashBits)
	}
	insert := func(i int) {
		if i+2 < n {
			h := hash(i)
			prev[i] = head[h]
			head[h] = int32(i)
		}
	}
	var toks []token
	for i := 0; i < n; {
		bestLen, bestDist := 0, 0
		try := func(d int) {
			if d < 1 || d > i || distanceCode(d, width) > maxDistanceCode {
				return
			}
			l := 0
			for i+l < n && l < maxCopyLength && px[i+l] == px[i+l-d] {
				l++
			}
			if l > bestLen {
				bestLen, bestDist = l, d
			}
		}
		try(1)
		try(width)
		if i+2 < n {
			for c, k := head[hash(i)], 0; c >= 0 && k < maxChain; c, k = prev[c], k+1 {
				try(i - int(c))
			}
		}
		if bestLen < minCopyLength {
			toks = append(toks, token{argb: px[i]})
			insert(i)
			i++
			continue
		}
		toks = append(toks, token{length: bestLen, dist: distanceCode(bestDist, width)})
		for j := i; j < i+bestLen; j++ {
			insert(j)
		}
		i += bestLen
	}
	return toks
}

// distanceCode is the VP8L code for a copy from dist pixels back: the
// two neighbours through the short-distance map (code 1 is one row up,
// code 2 one pixel left), anything else as dist + 120.
func distanceCode(dist, width int) int {
	switch dist {
	case width:
		return 1
	case 1:
		return 2
	}
	return dist + 120
}

// prefixEncode splits a length or distance code v >= 1 into VP8L's prefix
// symbol and its extra bits (RFC 9649 section 3.5.2.2, inverted).
func prefixEncode(v int) (sym int, nExtra uint, extra uint32) {
	d := v - 1
	if d < 4 {
		return d, 0, 0
	}
	h := uint(bits.Len(uint(d)) - 1)
	second := d >> (h - 1) & 1
	return int(2*h) + second, h - 1, uint32(d & (1<<(h-1) - 1))
}

// code is a canonical prefix code ready for writing: bit-reversed codes,
// since VP8L reads a code's first (most significant) bit first from an
// LSB-first stream.
type code struct {
	lengths []uint8
	rev     []uint32
}

func (c *code) put(w *BitWriter, s int) {
	if n := c.lengths[s]; n > 0 {
		w.Write(c.rev[s], uint(n))
	}
}

// writeCode chooses and writes the prefix code for a histogram. Alphabets
// with zero or one used symbol below 256 take the simple code, whose one
// symbol costs no bits; everything else a normal code.
func writeCode(w *BitWriter, hist []int) code {
	used := []int{}
	for s, n := range hist {
		if n > 0 {
			used = append(used, s)
		}
	}
	c := code{lengths: make([]uint8, len(hist))}
	if len(used) <= 1 {
		s := 0
		if len(used) == 1 {
			s = used[0]
		}
		if s < 256 {
			w.Write(1, 1) // simple
			w.Write(0, 1) // one symbol
			if s < 2 {
				w.Write(0, 1)
				w.Write(uint32(s), 1)
			} else {
				w.Write(1, 1)
				w.Write(uint32(s), 8)
			}
			c.rev = make([]uint32, len(hist))
			return c
		}
		// A lone symbol >= 256 cannot be simple-coded; pair it with a
		// dummy so a normal code has two symbols.
		hist = append([]int(nil), hist...)
		hist[0] = 1
	}
	lengths := limitedLengths(hist, 15)
	copy(c.lengths, lengths)
	c.rev = canonical(lengths)
	w.Write(0, 1) // normal
	writeLengths(w, lengths)
	return c
}

// writeLengths writes code lengths through the code-length code, using
// symbol 17/18 runs for zeros and 16 for repeats of the previous length.
func writeLengths(w *BitWriter, lengths []uint8) {
	type tok struct{ sym, extra, nExtra int }
	var toks []tok
	for i := 0; i < len(lengths); {
		l := lengths[i]
		run := 1
		for i+run < len(lengths) && lengths[i+run] == l {
			run++
		}
		if l == 0 && run >= 3 {
			for run >= 3 {
				n := run
				if n >= 11 {
					if n > 138 {
						n = 138
					}
					toks = append(toks, tok{18, n - 11, 7})
				} else {
					toks = append(toks, tok{17, n - 3, 3})
				}
				run -= n
				i += n
			}
			for ; run > 0; run-- {
				toks = append(toks, tok{0, 0, 0})
				i++
			}
			continue
		}
		toks = append(toks, tok{int(l), 0, 0})
		i++
		run--
		// Symbol 16 repeats the previous non-zero length; after a
		// literal of l it means l.
		for l != 0 && run >= 3 {
			n := run
			if n > 6 {
				n = 6
			}
			toks = append(toks, tok{16, n - 3, 2})
			run -= n
			i += n
		}
		for ; run > 0; run-- {
			toks = append(toks, tok{int(l), 0, 0})
			i++
		}
	}
	clHist := make([]int, 19)
	for _, t := range toks {
		clHist[t.sym]++
	}
	var clLengths []uint8
	nUsed := 0
	for _, n := range clHist {
		if n > 0 {
			nUsed++
		}
	}
	if nUsed == 1 {
		// One used symbol: decoders give it a zero-bit code whatever its
		// length, so any non-zero length works.
		clLengths = make([]uint8, 19)
		for s, n := range clHist {
			if n > 0 {
				clLengths[s] = 1
			}
		}
	} else {
		clLengths = limitedLengths(clHist, 7)
	}
	clRev := canonical(clLengths)
	order := [19]int{17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	n := 19
	for n > 4 && clLengths[order[n-1]] == 0 {
		n--
	}
	w.Write(uint32(n-4), 4)
	for i := 0; i < n; i++ {
		w.Write(uint32(clLengths[order[i]]), 3)
	}
	w.Write(0, 1) // max_symbol not used: lengths for the whole alphabet
	for _, t := range toks {
		if nUsed > 1 {
			w.Write(clRev[t.sym], uint(clLengths[t.sym]))
		}
		if t.nExtra > 0 {
			w.Write(uint32(t.extra), uint(t.nExtra))
		}
	}
}

// canonical returns the bit-reversed canonical codes for lengths.
func canonical(lengths []uint8) []uint32 {
	var count [16]uint32
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]uint32
	c := uint32(0)
	for l := 1; l < 16; l++ {
		c = (c + count[l-1]) << 1
		next[l] = c
	}
	rev := make([]uint32, len(lengths))
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		v := next[l]
		next[l]++
		r := uint32(0)
		for i := uint8(0); i < l; i++ {
			r = r<<1 | (v>>i)&1
		}
		rev[s] = r
	}
	return rev
}

// limitedLengths returns Huffman code lengths for a histogram with at
// least two used symbols, no longer than limit. When plain Huffman is too
// deep it flattens the counts and retries, which keeps the code complete.
func limitedLengths(hist []int, limit int) []uint8 {
	counts := append([]int(nil), hist...)
	for {
		l := huffman(counts)
		max := uint8(0)
		for _, v := range l {
			if v > max {
				max = v
			}
		}
		if int(max) <= limit {
			return l
		}
		for i, n := range counts {
			if n > 0 {
				counts[i] = n/2 + 1
			}
		}
	}
}

// huffman computes code lengths with ties broken by symbol, so the result
// depends only on the histogram.
func huffman(hist []int) []uint8 {
	type node struct {
		weight      int
		sym         int // smallest symbol below, the tie-breaker
		left, right int
	}
	var nodes []node
	var live []int
	for s, n := range hist {
		if n > 0 {
			nodes = append(nodes, node{n, s, -1, -1})
			live = append(live, len(nodes)-1)
		}
	}
	lengths := make([]uint8, len(hist))
	less := func(a, b int) bool {
		if nodes[a].weight != nodes[b].weight {
			return nodes[a].weight < nodes[b].weight
		}
		return nodes[a].sym < nodes[b].sym
	}
	for len(live) > 1 {
		sort.SliceStable(live, func(i, j int) bool { return less(live[i], live[j]) })
		a, b := live[0], live[1]
		s := nodes[a].sym
		if nodes[b].sym < s {
			s = nodes[b].sym
		}
		nodes = append(nodes, node{nodes[a].weight + nodes[b].weight, s, a, b})
		live = append([]int{len(nodes) - 1}, live[2:]...)
	}
	var walk func(n int, depth uint8)
	walk = func(n int, depth uint8) {
		if nodes[n].left < 0 {
			lengths[nodes[n].sym] = depth
			return
		}
		walk(nodes[n].left, depth+1)
		walk(nodes[n].right, depth+1)
	}
	walk(live[0], 0)
	return lengths
}
