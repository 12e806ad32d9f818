package assetpackbuild

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image/color"
	"math/rand"
	"testing"
)

// pngSpec is a PNG written chunk by chunk, so a test can place and break
// what image/png's encoder never writes: every filter type, IDAT split
// anywhere, chunks between and after the IDATs.
type pngSpec struct {
	w, h      int
	colour    byte              // 6 or 2
	filter    func(y int) byte  // the filter type of row y
	split     int               // IDAT data bytes a chunk (0: one chunk)
	before    [][2]string       // chunks (type, data) between IHDR and IDAT
	after     [][2]string       // chunks between the IDATs and IEND
	emptyIDAT bool              // an empty IDAT chunk ends the run
	zlibTail  []byte            // bytes appended to the zlib stream
	mutate    func(idat []byte) // changes the compressed stream
}

func chunk(typ string, data []byte) []byte {
	c := make([]byte, 8, 12+len(data))
	binary.BigEndian.PutUint32(c, uint32(len(data)))
	copy(c[4:], typ)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// craft writes s with pseudo-random pixels from seed, about a third of
// them transparent.
func craft(t testing.TB, s pngSpec, seed int64) []byte {
	t.Helper()
	bpp := 4
	if s.colour == 2 {
		bpp = 3
	}
	r := rand.New(rand.NewSource(seed))
	n := s.w * bpp
	prev := make([]byte, n)
	var raw bytes.Buffer
	for y := 0; y < s.h; y++ {
		row := make([]byte, n)
		r.Read(row)
		if y > 0 && y%3 == 0 {
			copy(row, prev) // repeated rows make Up and Paeth matter
		}
		ft := byte(y % 5)
		if s.filter != nil {
			ft = s.filter(y)
		}
		raw.WriteByte(ft)
		raw.Write(filterRow(ft, row, prev, bpp))
		prev = row
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw.Bytes())
	zw.Close()
	idat := append(z.Bytes(), s.zlibTail...)
	if s.mutate != nil {
		s.mutate(idat)
	}
	ih := make([]byte, 13)
	binary.BigEndian.PutUint32(ih, uint32(s.w))
	binary.BigEndian.PutUint32(ih[4:], uint32(s.h))
	ih[8], ih[9] = 8, s.colour
	out := append([]byte(pngSignature), chunk("IHDR", ih)...)
	for _, c := range s.before {
		out = append(out, chunk(c[0], []byte(c[1]))...)
	}
	for len(idat) > 0 {
		k := len(idat)
		if s.split > 0 && k > s.split {
			k = s.split
		}
		out = append(out, chunk("IDAT", idat[:k])...)
		idat = idat[k:]
	}
	if s.emptyIDAT {
		out = append(out, chunk("IDAT", nil)...)
	}
	for _, c := range s.after {
		out = append(out, chunk(c[0], []byte(c[1]))...)
	}
	return append(out, chunk("IEND", nil)...)
}

// filterRow applies PNG filter ft to row, prev being the row above.
func filterRow(ft byte, row, prev []byte, bpp int) []byte {
	out := make([]byte, len(row))
	for i := range row {
		var a, c int
		if i >= bpp {
			a, c = int(row[i-bpp]), int(prev[i-bpp])
		}
		out[i] = row[i] - byte(predict(ft, a, int(prev[i]), c))
	}
	return out
}

// predict is PNG's predictor of filter type ft for a byte whose left,
// upper and upper-left neighbours are a, b and c (RFC 2083 6.6).
func predict(ft byte, a, b, c int) int {
	switch ft {
	case 1:
		return a
	case 2:
		return b
	case 3:
		return (a + b) / 2
	case 4:
		p := a + b - c
		pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
		switch {
		case pa <= pb && pa <= pc:
			return a
		case pb <= pc:
			return b
		}
		return c
	}
	return 0
}

// convertBoth converts data with the fast path first and with image/png
// alone, and fails unless both give the same bytes or the same error. It
// reports whether the fast path itself took the file.
func convertBoth(t testing.TB, data []byte) (fastTook bool) {
	t.Helper()
	h, err := readIHDR(data)
	if err != nil {
		return false
	}
	w, hgt := int(h.width), int(h.height)
	mk := func(fill byte) *Image {
		im := &Image{Width: w, Height: hgt, Colour: bytes.Repeat([]byte{fill}, 2*w*hgt), Mask: bytes.Repeat([]byte{fill}, (w+7)/8*hgt)}
		return im
	}
	// Buffers start non-zero, so a byte either path leaves unwritten shows.
	probe, fast, std := mk(0xa5), mk(0x5a), mk(0xc3)
	if _, err := checkPNG(data, probe); err == nil {
		fastTook = new(fastDecoder).decode(data, h, probe)
	}
	errFast := convertInto(data, fast, new(fastDecoder))
	errStd := convertInto(data, std, nil)
	switch {
	case (errFast == nil) != (errStd == nil):
		t.Fatalf("fast path error %v, image/png error %v", errFast, errStd)
	case errFast != nil:
		if errFast.Error() != errStd.Error() {
			t.Fatalf("fast path error %q, image/png error %q", errFast, errStd)
		}
	default:
		if !bytes.Equal(fast.Colour, std.Colour) || !bytes.Equal(fast.Mask, std.Mask) {
			t.Fatalf("fast path and image/png reduce %dx%d differently", w, hgt)
		}
		if fastTook && (!bytes.Equal(probe.Colour, std.Colour) || !bytes.Equal(probe.Mask, std.Mask)) {
			t.Fatalf("the fast path alone reduces %dx%d differently from image/png", w, hgt)
		}
	}
	return fastTook
}

// TestFastPathTaken: the files sprites are made of take the fast path and
// come out as image/png would make them.
func TestFastPathTaken(t *testing.T) {
	every := func(ft byte) func(int) byte { return func(int) byte { return ft } }
	tests := []struct {
		name string
		spec pngSpec
	}{
		{"RGBA, filters by row", pngSpec{w: 13, h: 11, colour: 6}},
		{"RGB, filters by row", pngSpec{w: 13, h: 11, colour: 2}},
		{"RGBA, None", pngSpec{w: 9, h: 3, colour: 6, filter: every(0)}},
		{"RGBA, Sub", pngSpec{w: 9, h: 3, colour: 6, filter: every(1)}},
		{"RGBA, Up", pngSpec{w: 9, h: 3, colour: 6, filter: every(2)}},
		{"RGBA, Average", pngSpec{w: 9, h: 3, colour: 6, filter: every(3)}},
		{"RGBA, Paeth", pngSpec{w: 9, h: 4, colour: 6, filter: every(4)}},
		{"RGB, Paeth", pngSpec{w: 9, h: 4, colour: 2, filter: every(4)}},
		{"RGB, Average", pngSpec{w: 9, h: 4, colour: 2, filter: every(3)}},
		{"1x1", pngSpec{w: 1, h: 1, colour: 6}},
		{"IDAT in 7-byte chunks", pngSpec{w: 17, h: 5, colour: 6, split: 7}},
		{"IDAT in 1-byte chunks", pngSpec{w: 3, h: 3, colour: 2, split: 1}},
		{"ancillary chunks around the IDATs", pngSpec{w: 8, h: 2, colour: 6, before: [][2]string{{"gAMA", "\x00\x00\xb1\x8f"}, {"tEXt", "a\x00b"}}, after: [][2]string{{"tIME", "\x07\xea\x0c\x05\x00\x00\x00"}}}},
		{"empty IDAT at the end", pngSpec{w: 8, h: 2, colour: 6, emptyIDAT: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := int64(0); seed < 4; seed++ {
				if !convertBoth(t, craft(t, tt.spec, seed)) {
					t.Fatalf("seed %d: the fast path declined", seed)
				}
			}
		})
	}
	// And what Go's encoder writes, adaptive filters and all.
	for name, data := range map[string][]byte{
		"image/png RGBA": encodePNG(t, nrgba(70, 30, func(x, y int) color.NRGBA {
			return color.NRGBA{byte(x * 3), byte(y * 7), byte(x * y), byte(x*y) ^ byte(x)}
		})),
		"image/png RGB": encodePNG(t, opaqueRGB(70, 30, func(x, y int) color.RGBA { return color.RGBA{byte(x * 3), byte(y * 7), byte(x ^ y), 255} })),
	} {
		if !convertBoth(t, data) {
			t.Errorf("%s: the fast path declined", name)
		}
	}
}

// TestFastPathDeclines: each file here is one the fast path must leave to
// image/png, accepted or not; the result is image/png's all the same.
func TestFastPathDeclines(t *testing.T) {
	base := pngSpec{w: 11, h: 6, colour: 6, split: 40}
	with := func(f func(s *pngSpec)) pngSpec { s := base; f(&s); return s }
	tests := []struct {
		name string
		data []byte
	}{
		{"tRNS on RGB", craft(t, with(func(s *pngSpec) { s.colour = 2; s.before = [][2]string{{"tRNS", "\x00\x00\x00\x00\x00\x00"}} }), 1)},
		{"PLTE on RGBA", craft(t, with(func(s *pngSpec) { s.before = [][2]string{{"PLTE", "\x00\x00\x00"}} }), 1)},
		{"filter type 5", craft(t, with(func(s *pngSpec) { s.filter = func(y int) byte { return byte(5 * (y / 5)) } }), 1)},
		{"zlib data after the pixels", craft(t, with(func(s *pngSpec) { s.h = 1 }), 1)[:0]},
		{"bytes after the zlib stream", craft(t, with(func(s *pngSpec) { s.zlibTail = []byte{0} }), 1)},
		{"Adler-32 wrong", craft(t, with(func(s *pngSpec) { s.mutate = func(z []byte) { z[len(z)-1] ^= 1 } }), 1)},
		{"deflate data damaged", craft(t, with(func(s *pngSpec) { s.mutate = func(z []byte) { z[len(z)/2] ^= 0x55 } }), 1)},
		{"IDAT run broken by tEXt", func() []byte {
			d := craft(t, base, 1)
			// Move the first IDAT's successor behind a tEXt chunk.
			at := len(pngSignature) + 25 + 12 + 40
			return append(append(append([]byte(nil), d[:at]...), chunk("tEXt", []byte("k\x00v"))...), d[at:]...)
		}()},
		{"IDAT after the run", craft(t, with(func(s *pngSpec) { s.after = [][2]string{{"tEXt", "k\x00v"}, {"IDAT", ""}} }), 1)},
		{"IEND with data", func() []byte {
			d := craft(t, base, 1)
			return append(d[:len(d)-12], chunk("IEND", []byte{0})...)
		}()},
		{"IDAT CRC wrong", func() []byte {
			d := craft(t, base, 1)
			d[len(pngSignature)+25+8+40] ^= 1 // the first IDAT's CRC
			return d
		}()},
		{"ancillary CRC wrong", func() []byte {
			d := craft(t, with(func(s *pngSpec) { s.after = [][2]string{{"tEXt", "k\x00v"}} }), 1)
			d[len(d)-13] ^= 1 // the tEXt chunk's CRC
			return d
		}()},
		{"compression method 1", patchIHDR(t, craft(t, base, 1), 10, 1)},
		{"filter method 1", patchIHDR(t, craft(t, base, 1), 11, 1)},
		{"too few rows", craft(t, with(func(s *pngSpec) { s.mutate = nil }), 1)},
	}
	// "too few rows": the header claims one row more than the data holds.
	tests[len(tests)-1].data = patchIHDR(t, tests[len(tests)-1].data, 4, 0, 0, 0, 7)
	// "zlib data after the pixels": a 6-row stream under a 5-row header.
	tests[3].data = patchIHDR(t, craft(t, base, 1), 4, 0, 0, 0, 5)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if convertBoth(t, tt.data) {
				t.Fatal("the fast path took the file")
			}
		})
	}
}

// FuzzFastPath holds the fast path to image/png: for any input, the same
// pixels or the same error.
func FuzzFastPath(f *testing.F) {
	f.Add(craft(f, pngSpec{w: 5, h: 4, colour: 6}, 1))
	f.Add(craft(f, pngSpec{w: 5, h: 4, colour: 2, split: 9}, 2))
	f.Add(craft(f, pngSpec{w: 3, h: 2, colour: 6, before: [][2]string{{"tEXt", "a\x00b"}}, after: [][2]string{{"tIME", "1234567"}}}, 3))
	f.Add(encodePNG(f, nrgba(9, 5, func(x, y int) color.NRGBA { return color.NRGBA{byte(x * 30), byte(y * 50), 7, byte(x * y * 9)} })))
	f.Fuzz(func(t *testing.T, data []byte) {
		if h, err := readIHDR(data); err == nil && h.width*h.height > 1<<14 {
			return // a large header costs allocation, not coverage
		}
		convertBoth(t, data)
	})
}

// refUnfilter is PNG's definition of the row filters, a byte at a time.
func refUnfilter(ft byte, cur, prev []byte, bpp int) {
	for i := range cur {
		var a, c int
		if i >= bpp {
			a, c = int(cur[i-bpp]), int(prev[i-bpp])
		}
		cur[i] = byte(int(cur[i]) + predict(ft, a, int(prev[i]), c))
	}
}

// TestUnfilter holds the word-at-a-time filters to the definition, for
// every filter, both pixel sizes and widths around a word, on random and
// on extreme rows.
func TestUnfilter(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, bpp := range []int{3, 4} {
		for _, w := range []int{1, 2, 3, 5, 17, 64} {
			for ft := byte(0); ft <= 4; ft++ {
				for trial := 0; trial < 50; trial++ {
					cur, prev := make([]byte, w*bpp), make([]byte, w*bpp)
					rng.Read(cur)
					rng.Read(prev)
					if trial%5 == 0 {
						for i := range cur {
							cur[i], prev[i] = 255, 255-byte(i%2)
						}
					}
					want := append([]byte(nil), cur...)
					refUnfilter(ft, want, prev, bpp)
					if !unfilter(ft, cur, prev, bpp) {
						t.Fatalf("filter %d refused", ft)
					}
					if !bytes.Equal(cur, want) {
						t.Fatalf("filter %d, %d-byte pixels, width %d: got %v, want %v", ft, bpp, w, cur, want)
					}
				}
			}
		}
	}
	if unfilter(5, make([]byte, 4), make([]byte, 4), 4) {
		t.Error("filter type 5 was accepted")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
