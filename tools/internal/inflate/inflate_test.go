package inflate

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	adler32ref "hash/adler32"
	"image/png"
	"io"
	"math/rand"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/benchsets"
)

// reference decodes src with compress/zlib as image/png does, reading
// to the stream's end (which checks the Adler-32). It returns the
// output and how many bytes of src the stream took, or ok false when
// compress/zlib refuses src or it inflates past max bytes.
func reference(src []byte, max int) (out []byte, n int, ok bool) {
	r := bytes.NewReader(src)
	zr, err := zlib.NewReader(r)
	if err != nil {
		return nil, 0, false
	}
	out, err = io.ReadAll(io.LimitReader(zr, int64(max)+1))
	if err != nil || len(out) > max {
		return nil, 0, false
	}
	return out, len(src) - r.Len(), true
}

// inputs are the kinds of data the seeds compress: empty, text, noise,
// long runs, and filtered sprite rows.
func inputs() map[string][]byte {
	rng := rand.New(rand.NewSource(1))
	noise := make([]byte, 70000)
	rng.Read(noise)
	var text bytes.Buffer
	for i := 0; i < 2000; i++ {
		text.WriteString("the pet sits, the pet waits, the pet naps; ")
	}
	runs := bytes.Repeat([]byte{0, 0, 0, 0, 7}, 20000)
	return map[string][]byte{
		"empty":  nil,
		"byte":   {42},
		"text":   text.Bytes(),
		"noise":  noise,
		"runs":   runs,
		"sprite": spriteRows(96),
	}
}

// spriteRows is the filtered, decompressed image data of a benchmark
// sprite as image/png writes it: what the PNG fast path inflates.
func spriteRows(side int) []byte {
	zs := idat(side)
	out, _, ok := reference(zs, 1<<26)
	if !ok {
		panic("image/png wrote a stream compress/zlib refuses")
	}
	return out
}

// idat is the zlib stream of a benchmark sprite as image/png writes it.
func idat(side int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, benchsets.Sprite(side, 3)); err != nil {
		panic(err)
	}
	data := b.Bytes()[8:]
	var z []byte
	for len(data) >= 12 {
		n := binary.BigEndian.Uint32(data)
		if string(data[4:8]) == "IDAT" {
			z = append(z, data[8:8+n]...)
		}
		data = data[12+n:]
	}
	return z
}

func compress(t testing.TB, data []byte, level int) []byte {
	var b bytes.Buffer
	w, err := zlib.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var levels = []int{zlib.NoCompression, zlib.BestSpeed, zlib.DefaultCompression, zlib.BestCompression, zlib.HuffmanOnly}

// TestRoundTrip: every level of compress/zlib over every kind of input
// decodes to the input and reports the whole stream taken.
func TestRoundTrip(t *testing.T) {
	var d Decoder
	for name, data := range inputs() {
		for _, level := range levels {
			z := compress(t, data, level)
			z = append(z, "trailing"...)
			got := make([]byte, len(data))
			n, err := d.Zlib(got, z)
			if err != nil {
				t.Errorf("%s at level %d: %v", name, level, err)
				continue
			}
			if !bytes.Equal(got, data) {
				t.Errorf("%s at level %d: wrong output", name, level)
			}
			if n != len(z)-len("trailing") {
				t.Errorf("%s at level %d: took %d bytes, want %d", name, level, n, len(z)-len("trailing"))
			}
		}
	}
}

// TestRefusals: each way a stream can differ from what compress/zlib
// decodes to exactly the buffer's size is refused.
func TestRefusals(t *testing.T) {
	data := inputs()["text"]
	good := compress(t, data, zlib.DefaultCompression)
	stored := compress(t, data[:1000], zlib.NoCompression)
	edit := func(z []byte, f func([]byte)) []byte {
		c := append([]byte(nil), z...)
		f(c)
		return c
	}
	cases := []struct {
		name string
		src  []byte
		size int
	}{
		{"one byte short of the output", good, len(data) - 1},
		{"one byte past the output", good, len(data) + 1},
		{"method 7, not deflate", edit(good, func(c []byte) { c[0] = 0x77; c[1] = 0x01 + byte(31-(0x7701%31)) }), len(data)},
		{"window past 32 KiB", edit(good, func(c []byte) { c[0] = 0x88; c[1] = byte(31 - (0x8800 % 31)) }), len(data)},
		{"header check wrong", edit(good, func(c []byte) { c[1]++ }), len(data)},
		{"preset dictionary", edit(good, func(c []byte) { c[1] = 0x20 + byte(31-(uint16(c[0])<<8|0x20)%31) }), len(data)},
		{"Adler-32 wrong", edit(good, func(c []byte) { c[len(c)-1] ^= 1 }), len(data)},
		{"no Adler-32", good[:len(good)-4], len(data)},
		{"stored length check wrong", edit(stored, func(c []byte) { c[6] ^= 1 }), 1000},
		{"block type 3", []byte{0x78, 0x9c, 0x07}, 0},
		{"empty input", nil, 0},
		// A fixed-code block whose first symbol is a length: a match
		// with nothing before it.
		{"distance before the start", []byte{0x78, 0x9c, 0x03, 0x02, 0x00}, 3},
		// The same with room for the fast loop: 'a', then a match two back.
		{"distance before the start, fast loop", fixedMatchTooFar(), 1000},
		// A dynamic block whose distance code is one two-bit code:
		// incomplete, which compress/flate refuses even unused.
		{"incomplete distance code", dynamicEmpty(2), 0},
	}
	var d Decoder
	for _, c := range cases {
		if n, err := d.Zlib(make([]byte, c.size), c.src); err != ErrRefused {
			t.Errorf("%s: took %d bytes, error %v; want ErrRefused", c.name, n, err)
		}
		if _, _, ok := reference(c.src, c.size); ok && c.name != "one byte short of the output" && c.name != "one byte past the output" {
			t.Errorf("%s: compress/zlib accepts the case: it tests nothing", c.name)
		}
	}
	// Every truncation of a stream is refused.
	for cut := 0; cut < len(good); cut++ {
		if _, err := d.Zlib(make([]byte, len(data)), good[:cut]); err == nil {
			t.Fatalf("the stream cut to %d of %d bytes was accepted", cut, len(good))
		}
	}
}

// TestSingleOneBitCode: a distance code of one one-bit code is
// incomplete too, but zlib's exception, which both decoders accept.
func TestSingleOneBitCode(t *testing.T) {
	src := dynamicEmpty(1)
	if _, _, ok := reference(src, 0); !ok {
		t.Fatal("compress/zlib refuses the stream: it tests nothing")
	}
	var d Decoder
	if n, err := d.Zlib(nil, src); err != nil || n != len(src) {
		t.Errorf("took %d of %d bytes, %v", n, len(src), err)
	}
}

// bitWriter writes a deflate stream: fields least significant bit first,
// Huffman codes most significant bit first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	for w.n += n; w.n >= 8; w.n -= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
	}
}

func (w *bitWriter) code(c uint32, n uint) { w.bits(uint64(reverse(c, n)), n) }

// zlib ends the stream, with the Adler-32 of out, after the zlib header.
func (w *bitWriter) zlib(out []byte) []byte {
	if w.n > 0 {
		w.bits(0, 8-w.n)
	}
	return append(append([]byte{0x78, 0x9c}, w.out...), byte(adler32(out)>>24), byte(adler32(out)>>16), byte(adler32(out)>>8), byte(adler32(out)))
}

// fixedMatchTooFar is a fixed-code block: the literal 'a', then a match
// of length 3 at distance 2, then the end of the block.
func fixedMatchTooFar() []byte {
	var w bitWriter
	w.bits(1, 1)        // final
	w.bits(1, 2)        // fixed codes
	w.code(0x30+'a', 8) // literal 'a'
	w.code(257-256, 7)  // length 3
	w.code(1, 5)        // distance 2
	w.code(0, 7)        // end of block
	// Trailing bytes, so the input has room for eight-byte loads and the
	// match is met in the fast loop.
	return append(w.zlib([]byte("aaaa")), make([]byte, 16)...)
}

// dynamicEmpty is a dynamic block holding only the end of block, whose
// literal/length code is complete (literals 9 bits, end of block 1 bit)
// and whose distance code is the one symbol 0 of distLen bits.
func dynamicEmpty(distLen uint32) []byte {
	var w bitWriter
	w.bits(1, 1)  // final
	w.bits(2, 2)  // dynamic codes
	w.bits(0, 5)  // 257 literal/length codes
	w.bits(0, 5)  // 1 distance code
	w.bits(14, 4) // 18 code length code lengths
	// Code length symbols 0, 1, 2 and 9 get two bits each: codes 00,
	// 01, 10 and 11 in symbol order.
	clen := map[int]uint64{0: 2, 1: 2, 2: 2, 9: 2}
	for _, sym := range codeOrder[:18] {
		w.bits(clen[sym], 3)
	}
	codeOf := map[uint32]uint32{0: 0, 1: 1, 2: 2, 9: 3}
	for i := 0; i < 256; i++ {
		w.code(codeOf[9], 2) // literal i: 9 bits
	}
	w.code(codeOf[1], 2)       // end of block: 1 bit
	w.code(codeOf[distLen], 2) // distance 0
	w.code(0, 1)               // end of block
	return w.zlib(nil)
}

// FuzzZlib holds the decoder to compress/zlib: given the size
// compress/zlib's output has, it accepts exactly what compress/zlib
// accepts, with the same bytes and the same stream length; given any
// other size, it refuses.
func FuzzZlib(f *testing.F) {
	for _, data := range inputs() {
		for _, level := range levels {
			if len(data) > 20000 {
				data = data[:20000]
			}
			f.Add(compress(f, data, level), int8(0))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, delta int8) {
		var d Decoder
		want, took, ok := reference(src, 1<<20)
		size := len(want) + int(delta)
		if size < 0 {
			size = 0
		}
		got := make([]byte, size)
		n, err := d.Zlib(got, src)
		switch {
		case err != nil && ok && size == len(want):
			t.Fatalf("refused a stream compress/zlib decodes to %d bytes", len(want))
		case err == nil && !ok:
			t.Fatalf("accepted a stream compress/zlib refuses, as %d bytes", size)
		case err == nil && size != len(want):
			t.Fatalf("accepted %d bytes from a stream compress/zlib decodes to %d", size, len(want))
		case err == nil && !bytes.Equal(got, want):
			t.Fatalf("output differs from compress/zlib's")
		case err == nil && n != took:
			t.Fatalf("took %d bytes of the stream, compress/zlib %d", n, took)
		}
	})
}

// BenchmarkZlib compares the decoder with compress/zlib on a 512x512
// sprite's image data.
func BenchmarkZlib(b *testing.B) {
	z := idat(512)
	want, _, _ := reference(z, 1<<26)
	b.Run("inflate", func(b *testing.B) {
		var d Decoder
		dst := make([]byte, len(want))
		b.SetBytes(int64(len(want)))
		for i := 0; i < b.N; i++ {
			if _, err := d.Zlib(dst, z); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compress-zlib", func(b *testing.B) {
		dst := make([]byte, len(want))
		b.SetBytes(int64(len(want)))
		r := bytes.NewReader(z)
		zr, err := zlib.NewReader(r)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			r.Reset(z)
			if err := zr.(zlib.Resetter).Reset(r, nil); err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(zr, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCopyMatch: every distance up to a few words and every length a
// match can have copy as the byte-at-a-time definition does.
func TestCopyMatch(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for distance := 1; distance <= 40; distance++ {
		for length := 3; length <= 258; length++ {
			buf := make([]byte, 300+258+8)
			rng.Read(buf[:300])
			want := append([]byte(nil), buf...)
			for i := 0; i < length; i++ {
				want[300+i] = want[300-distance+i]
			}
			copyMatch(buf, 300, distance, length)
			if !bytes.Equal(buf[:300+length], want[:300+length]) {
				t.Fatalf("distance %d, length %d: wrong copy", distance, length)
			}
		}
	}
}

// TestAdler32 holds the word-at-a-time checksum to hash/adler32 around
// the lengths where it reduces its sums.
func TestAdler32(t *testing.T) {
	data := make([]byte, 3*5552+20)
	for i := range data {
		data[i] = 255 // the largest sums
	}
	rand.New(rand.NewSource(3)).Read(data[:100])
	for _, n := range []int{0, 1, 7, 8, 9, 100, 5551, 5552, 5553, 2 * 5552, len(data)} {
		if got, want := adler32(data[:n]), adler32ref.Checksum(data[:n]); got != want {
			t.Errorf("%d bytes: %08x, hash/adler32 %08x", n, got, want)
		}
	}
}
