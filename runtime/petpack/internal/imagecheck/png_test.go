package imagecheck

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
)

// ihdr returns a PNG signature and IHDR chunk with a correct CRC.
func ihdr(w, h uint32, depth, ctype, comp, filter, interlace byte) []byte {
	b := append([]byte(nil), Signature...)
	var c [4 + 4 + 13]byte
	binary.BigEndian.PutUint32(c[:], 13)
	copy(c[4:], "IHDR")
	binary.BigEndian.PutUint32(c[8:], w)
	binary.BigEndian.PutUint32(c[12:], h)
	c[16], c[17], c[18], c[19], c[20] = depth, ctype, comp, filter, interlace
	b = append(b, c[:]...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(c[4:]))
}

func TestParseHeader(t *testing.T) {
	badCRC := ihdr(4, 4, 8, 6, 0, 0, 0)
	badCRC[len(badCRC)-1] ^= 1
	for _, tc := range []struct {
		name string
		data []byte
		want Header
		err  string
	}{
		{"rgba", ihdr(192, 208, 8, 6, 0, 0, 0), Header{192, 208, 8, 6}, ""},
		{"grey+alpha 16-bit", ihdr(1, 1, 16, 4, 0, 0, 1), Header{1, 1, 16, 4}, ""},
		{"short", ihdr(4, 4, 8, 6, 0, 0, 0)[:HeaderLen-1], Header{}, "shorter"},
		{"not a PNG", append([]byte("GIF89a.."), make([]byte, 25)...), Header{}, "signature"},
		{"bad CRC", badCRC, Header{}, "CRC"},
		{"zero width", ihdr(0, 4, 8, 6, 0, 0, 0), Header{}, "dimensions"},
		{"too wide", ihdr(1<<31, 4, 8, 6, 0, 0, 0), Header{}, "dimensions"},
		{"rgba at 4 bits", ihdr(4, 4, 4, 6, 0, 0, 0), Header{}, "bit depth"},
		{"interlace 2", ihdr(4, 4, 8, 6, 0, 0, 2), Header{}, "interlace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParseHeader(tc.data)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseHeader = %+v, %v; want an error about %s", h, err, tc.err)
				}
				return
			}
			if err != nil || h != tc.want {
				t.Fatalf("ParseHeader = %+v, %v; want %+v", h, err, tc.want)
			}
		})
	}
	h := Header{Width: 3, Height: 5, BitDepth: 16}
	if h.Pixels() != 15 || h.DecodedBytes() != 120 {
		t.Errorf("16-bit 3x5: %d pixels, %d bytes; want 15 and 120", h.Pixels(), h.DecodedBytes())
	}
	h.BitDepth = 8
	if h.DecodedBytes() != 60 {
		t.Errorf("8-bit 3x5: %d bytes, want 60", h.DecodedBytes())
	}
}

// withChunk inserts a chunk of type typ after the IHDR of a PNG.
func withChunk(p []byte, typ string) []byte {
	var c []byte
	c = binary.BigEndian.AppendUint32(c, 1)
	c = append(c, typ...)
	c = append(c, 0)
	c = binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
	out := append([]byte(nil), p[:HeaderLen]...)
	out = append(out, c...)
	return append(out, p[HeaderLen:]...)
}

func TestChunkGuard(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.NRGBA{10, 20, 30, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		refuse bool
	}{
		{"plain", buf.Bytes(), false},
		{"an ancillary chunk", withChunk(buf.Bytes(), "tEXt"), false},
		{"an unknown critical chunk", withChunk(buf.Bytes(), "ZZZZ"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte a read: the guard must follow chunk headers split
			// across reads.
			_, err := png.Decode(NewChunkGuard(oneByte{bytes.NewReader(tc.data)}))
			if refused := err != nil && strings.Contains(err.Error(), "unknown critical chunk"); refused != tc.refuse {
				t.Fatalf("decode: %v; want refused %v", err, tc.refuse)
			}
		})
	}
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func TestAlphaCount(t *testing.T) {
	for _, tc := range []struct {
		name   string
		alphas []byte
		ok     bool
	}{
		{"half and half", []byte{0, 255}, true},
		{"all opaque", []byte{255, 255}, false},
		{"all clear", []byte{0, 0}, false},
		{"semi-transparent edge counts both ways", []byte{MinVisibleAlpha, MaxTransparentAlpha}, true},
		{"just under visible", []byte{MinVisibleAlpha - 1, MinVisibleAlpha - 1}, false},
	} {
		row := make([]byte, 4*len(tc.alphas))
		for i, a := range tc.alphas {
			row[4*i+3] = a
		}
		var a AlphaCount
		a.Add(row)
		if msg, ok := a.Enough(); ok != tc.ok || (ok == (msg != "")) {
			t.Errorf("%s: Enough() = %q, %v; want %v", tc.name, msg, ok, tc.ok)
		}
	}
}

func TestEachRowCanonical(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{200, 100, 50, MinVisibleAlpha - 1})
	img.SetNRGBA(1, 0, color.NRGBA{200, 100, 50, MinVisibleAlpha})
	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.NRGBA{200, 100, 50, MinVisibleAlpha - 1}, color.NRGBA{200, 100, 50, MinVisibleAlpha}})
	pal.SetColorIndex(1, 0, 1)
	want := []byte{0, 0, 0, 0, 200, 100, 50, MinVisibleAlpha}
	for name, m := range map[string]image.Image{"NRGBA": img, "Paletted": pal, "generic": image.Image(struct{ image.Image }{img})} {
		n := 0
		EachRow(m, func(y int, row []byte) {
			n++
			if y != 0 || !bytes.Equal(row, want) {
				t.Errorf("%s: row %d = %v, want %v", name, y, row, want)
			}
		})
		if n != 1 {
			t.Errorf("%s: %d rows, want 1", name, n)
		}
	}
}
