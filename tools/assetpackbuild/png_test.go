package assetpackbuild

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"testing"
)

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// nrgba is a w by h colour type 6 image filled by f.
func nrgba(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, f(x, y))
		}
	}
	return img
}

// opaqueRGB is a w by h image Go's encoder writes as colour type 2 (8-bit
// RGB), because every pixel is opaque.
func opaqueRGB(w, h int, f func(x, y int) color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, f(x, y))
		}
	}
	return img
}

// patchIHDR overwrites IHDR data bytes starting at field offset off (0 is
// the width) and re-seals the chunk CRC, so only the patched field is wrong.
func patchIHDR(t testing.TB, data []byte, off int, b ...byte) []byte {
	t.Helper()
	d := append([]byte(nil), data...)
	const ihdr = 8 + 8 // signature, then length and type
	copy(d[ihdr+off:], b)
	binary.BigEndian.PutUint32(d[ihdr+13:], crc32.ChecksumIEEE(d[ihdr-4:ihdr+13]))
	return d
}

// insertChunk adds a chunk straight after IHDR.
func insertChunk(data []byte, typ string, body []byte) []byte {
	c := make([]byte, 8, 12+len(body))
	binary.BigEndian.PutUint32(c, uint32(len(body)))
	copy(c[4:], typ)
	c = append(c, body...)
	c = binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
	at := 8 + 12 + 13
	return append(append(append([]byte(nil), data[:at]...), c...), data[at:]...)
}

func colourTypeOf(data []byte) byte { return data[8+8+9] }

func TestPNGRejections(t *testing.T) {
	rgba := encodePNG(t, nrgba(4, 4, func(x, y int) color.NRGBA { return color.NRGBA{1, 2, 3, byte(x * 60)} }))
	if colourTypeOf(rgba) != 6 {
		t.Fatalf("fixture is colour type %d, want 6", colourTypeOf(rgba))
	}
	pal := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	gray := image.NewGray(image.Rect(0, 0, 4, 4))
	grayAlpha := encodePNG(t, image.NewGray(image.Rect(0, 0, 2, 2)))
	grayAlpha = patchIHDR(t, grayAlpha, 9, 4) // colour type 4, gray with alpha
	deep := image.NewNRGBA64(image.Rect(0, 0, 4, 4))
	deep.SetNRGBA64(1, 1, color.NRGBA64{1, 2, 3, 4})

	tests := []struct {
		name string
		data []byte
		want Reason
	}{
		{"empty", nil, ReasonNotPNG},
		{"text", []byte("this is not a png at all, it is text"), ReasonNotPNG},
		{"signature damaged", append([]byte{0x88}, rgba[1:]...), ReasonNotPNG},
		{"signature only", rgba[:8], ReasonIHDR},
		{"IHDR cut short", rgba[:20], ReasonIHDR},
		{"first chunk not IHDR", append(append([]byte(nil), rgba[:12]...), append([]byte("IHDX"), rgba[16:]...)...), ReasonIHDR},
		{"palette", encodePNG(t, pal), ReasonPalette},
		{"grayscale", encodePNG(t, gray), ReasonGrayscale},
		{"grayscale with alpha", grayAlpha, ReasonGrayscale},
		{"colour type 7", patchIHDR(t, rgba, 9, 7), ReasonColourType},
		{"16-bit", encodePNG(t, deep), ReasonBitDepth},
		{"bit depth 4", patchIHDR(t, rgba, 8, 4), ReasonBitDepth},
		{"interlaced", patchIHDR(t, rgba, 12, 1), ReasonInterlaced},
		{"width 0", patchIHDR(t, rgba, 0, 0, 0, 0, 0), ReasonDimensions},
		{"height 0", patchIHDR(t, rgba, 4, 0, 0, 0, 0), ReasonDimensions},
		{"width 1025", encodePNG(t, nrgba(1025, 1, func(x, y int) color.NRGBA { return color.NRGBA{A: 255} })), ReasonDimensions},
		{"height 2^31", patchIHDR(t, rgba, 4, 0x80, 0, 0, 0), ReasonDimensions},
		{"bytes after IEND", append(append([]byte(nil), rgba...), 0, 0, 0, 0), ReasonTrailingData},
		{"no IEND", rgba[:len(rgba)-12], ReasonDecode},
		{"chunk past the end", rgba[:len(rgba)-13], ReasonDecode},
		{"IDAT damaged", func() []byte {
			d := append([]byte(nil), rgba...)
			d[8+25+10] ^= 0xff // inside the IDAT chunk's data
			return d
		}(), ReasonDecode},
		{"IHDR CRC wrong", func() []byte { d := append([]byte(nil), rgba...); d[8+8+13] ^= 1; return d }(), ReasonDecode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ConvertPNG(tt.data)
			var pe *PNGError
			if !errors.As(err, &pe) || pe.Reason != tt.want {
				t.Fatalf("ConvertPNG = %v, want reason %s", err, tt.want)
			}
		})
	}
}

func TestChannelReduction(t *testing.T) {
	tests := []struct {
		name string
		r, g byte
		b    byte
		want uint16
	}{
		{name: "white", r: 0xff, g: 0xff, b: 0xff, want: 0xffff},
		// 0x08>>3, 0x04>>2, 0x08>>3 are each 1: 1<<11 | 1<<5 | 1.
		{name: "lowest bit of each channel", r: 0x08, g: 0x04, b: 0x08, want: 0x0821},
		{name: "0x08 in every channel", r: 0x08, g: 0x08, b: 0x08, want: 0x0841},
		{name: "below the lowest bit", r: 0x07, g: 0x03, b: 0x07, want: 0},
		{name: "red", r: 0xff, want: 0xf800},
		{name: "green", g: 0xff, want: 0x07e0},
		{name: "blue", b: 0xff, want: 0x001f},
		{name: "no rounding", r: 0x0f, g: 0x07, b: 0x0f, want: 0x0821},
		{name: "no rounding up", r: 0xf7, g: 0xfb, b: 0xf7, want: 0xf7de},
	}
	for _, tt := range tests {
		for _, alpha := range []byte{255, 128} {
			img := nrgba(1, 1, func(x, y int) color.NRGBA { return color.NRGBA{tt.r, tt.g, tt.b, alpha} })
			im, err := ConvertPNG(encodePNG(t, img))
			if err != nil {
				t.Fatal(err)
			}
			// High byte first.
			if got := uint16(im.Colour[0])<<8 | uint16(im.Colour[1]); got != tt.want {
				t.Errorf("%s alpha %d: 0x%04x, want 0x%04x", tt.name, alpha, got, tt.want)
			}
			if im.Mask[0] != 0x80 {
				t.Errorf("%s alpha %d: mask 0x%02x, want opaque", tt.name, alpha, im.Mask[0])
			}
		}
	}
}

// TestAlphaThreshold: 127 is transparent and its colour is zeroed, 128 is
// opaque and keeps its straight (not premultiplied) colour.
func TestAlphaThreshold(t *testing.T) {
	img := nrgba(4, 1, func(x, y int) color.NRGBA {
		return color.NRGBA{0xff, 0xff, 0xff, [...]byte{0, 127, 128, 255}[x]}
	})
	im, err := ConvertPNG(encodePNG(t, img))
	if err != nil {
		t.Fatal(err)
	}
	wantColour := []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}
	if !bytes.Equal(im.Colour, wantColour) {
		t.Errorf("colour % x, want % x", im.Colour, wantColour)
	}
	if im.Mask[0] != 0x30 {
		t.Errorf("mask %08b, want 00110000", im.Mask[0])
	}
}

// TestMaskBitOrder uses a 9-pixel row, so each row takes two bytes: the
// leftmost pixel is the top bit and the seven bits after pixel 8 are zero.
func TestMaskBitOrder(t *testing.T) {
	opaque := map[[2]int]bool{{0, 0}: true, {8, 0}: true, {1, 1}: true, {7, 1}: true, {3, 2}: true}
	img := nrgba(9, 3, func(x, y int) color.NRGBA {
		if opaque[[2]int{x, y}] {
			return color.NRGBA{0x10, 0x20, 0x30, 0xff}
		}
		return color.NRGBA{0xaa, 0xbb, 0xcc, 0}
	})
	im, err := ConvertPNG(encodePNG(t, img))
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x80, 0x80, 0x41, 0x00, 0x10, 0x00}
	if !bytes.Equal(im.Mask, want) {
		t.Fatalf("mask % 08b, want % 08b", im.Mask, want)
	}
	if im.Width != 9 || im.Height != 3 || len(im.Colour) != 54 {
		t.Fatalf("geometry %dx%d colour %d", im.Width, im.Height, len(im.Colour))
	}
	for y := 0; y < 3; y++ {
		for x := 0; x < 9; x++ {
			c := im.Colour[(y*9+x)*2:]
			zero := c[0] == 0 && c[1] == 0
			if zero == opaque[[2]int{x, y}] {
				t.Errorf("pixel %d,%d colour % x, opaque %v", x, y, c[:2], opaque[[2]int{x, y}])
			}
		}
	}
}

func TestColourType2Opaque(t *testing.T) {
	rgb := encodePNG(t, opaqueRGB(3, 2, func(x, y int) color.RGBA { return color.RGBA{byte(x * 100), 0, byte(y), 255} }))
	if colourTypeOf(rgb) != 2 {
		t.Fatalf("fixture is colour type %d, want 2", colourTypeOf(rgb))
	}
	// A tRNS chunk naming black as transparent: section 12 says colour
	// type 2 has no alpha channel, so the pixels stay opaque.
	withTRNS := insertChunk(rgb, "tRNS", []byte{0, 0, 0, 0, 0, 0})
	for name, data := range map[string][]byte{"plain": rgb, "with tRNS": withTRNS} {
		im, err := ConvertPNG(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(im.Mask, []byte{0xe0, 0xe0}) {
			t.Errorf("%s: mask % 08b, want every pixel opaque", name, im.Mask)
		}
		if im.Colour[2] != 0x60 || im.Colour[3] != 0 { // x=1: r=100 -> 12<<11
			t.Errorf("%s: pixel 1,0 colour % x", name, im.Colour[2:4])
		}
	}
}

// TestReduceAlphaRow holds the row reduction, two pixels to a word, to
// the rule a pixel at a time (RGB565 of the top bits, high byte first;
// alpha below 128 clear in the mask with colour zero), for every width
// up to five mask bytes and alphas around the threshold.
func TestReduceAlphaRow(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for w := 1; w <= 40; w++ {
		for trial := 0; trial < 20; trial++ {
			row := make([]byte, 4*w)
			rng.Read(row)
			for x := 0; x < w; x++ {
				row[4*x+3] = [...]byte{0, 127, 128, 255, row[4*x+3]}[rng.Intn(5)]
			}
			colour, mask := make([]byte, 2*w), make([]byte, (w+7)/8)
			wantColour, wantMask := make([]byte, 2*w), make([]byte, (w+7)/8)
			for x := 0; x < w; x++ {
				r, g, b, a := row[4*x], row[4*x+1], row[4*x+2], row[4*x+3]
				if a < 128 {
					continue
				}
				v := uint16(r>>3)<<11 | uint16(g>>2)<<5 | uint16(b>>3)
				wantColour[2*x], wantColour[2*x+1] = byte(v>>8), byte(v)
				wantMask[x/8] |= 0x80 >> uint(x%8)
			}
			reduceAlphaRow(row, colour, mask)
			if !bytes.Equal(colour, wantColour) || !bytes.Equal(mask, wantMask) {
				t.Fatalf("width %d: colour % x mask % 08b, want % x and % 08b", w, colour, mask, wantColour, wantMask)
			}
		}
	}
}
