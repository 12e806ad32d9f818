package imagecheck

import (
	"bytes"
	"image/png"
	"testing"
)

// FuzzDecode feeds any bytes to the header read and to image/png behind
// the chunk guard, as the media gate runs them: neither panics, a header
// that parses is within its stated bounds, and an image that decodes has
// the header's dimensions and canonical rows of its width.
func FuzzDecode(f *testing.F) {
	f.Add(ihdr(2, 2, 8, 6, 0, 0, 0))
	f.Add(withChunk(ihdr(2, 2, 8, 6, 0, 0, 0), "ZZZZ"))
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHeader(data)
		if err != nil {
			return
		}
		if h.Width == 0 || h.Height == 0 || h.Width > 1<<31-1 || h.Height > 1<<31-1 {
			t.Fatalf("accepted header %+v", h)
		}
		if h.Pixels() > 1<<16 {
			return // the validator's budget refuses it before decoding
		}
		img, err := png.Decode(NewChunkGuard(bytes.NewReader(data)))
		if err != nil {
			return
		}
		b := img.Bounds()
		if b.Dx() != int(h.Width) || b.Dy() != int(h.Height) {
			t.Fatalf("decoded %v, header %+v", b, h)
		}
		var a AlphaCount
		EachRow(img, func(_ int, row []byte) {
			if len(row) != 4*b.Dx() {
				t.Fatalf("row of %d bytes for width %d", len(row), b.Dx())
			}
			a.Add(row)
		})
		if a.Total != b.Dx()*b.Dy() {
			t.Fatalf("%d pixels counted of %d", a.Total, b.Dx()*b.Dy())
		}
		count, corners := CoverPixels(img)
		if count != a {
			t.Fatalf("CoverPixels counts %+v, EachRow %+v", count, a)
		}
		corners.Checkerboard()
	})
}
