package imagecheck

import (
	"fmt"
	"image"
	"image/color"
)

// The alpha thresholds the contract's authors measure with: a pixel is
// visible from alpha 16 up and transparent up to alpha 239 (a
// semi-transparent edge pixel is both), and pixels below 16 are zeroed
// before frames are compared, so colour hidden under near-zero alpha can
// neither fake motion nor tell two equal pictures apart.
const (
	MinVisibleAlpha     = 16
	MaxTransparentAlpha = 239
)

// EachRow passes img to fn a row at a time as canonical pixels: 8-bit
// non-premultiplied RGBA, the precision the runtime displays, with every
// pixel under MinVisibleAlpha as 0,0,0,0. row is reused between calls.
func EachRow(img image.Image, fn func(y int, row []byte)) {
	b := img.Bounds()
	w := b.Dx()
	row := make([]byte, 4*w)
	switch m := img.(type) {
	case *image.NRGBA: // what image/png returns for colour type 6 at 8 bits
		for y := b.Min.Y; y < b.Max.Y; y++ {
			off := m.PixOffset(b.Min.X, y)
			copy(row, m.Pix[off:off+4*w])
			for i := 3; i < len(row); i += 4 {
				if row[i] < MinVisibleAlpha {
					row[i-3], row[i-2], row[i-1], row[i] = 0, 0, 0, 0
				}
			}
			fn(y-b.Min.Y, row)
		}
	case *image.Paletted:
		var pal [256][4]byte
		for i, c := range m.Palette {
			if i < len(pal) {
				pal[i] = canonicalColor(c)
			}
		}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			off := m.PixOffset(b.Min.X, y)
			for x := 0; x < w; x++ {
				copy(row[4*x:], pal[m.Pix[off+x]][:])
			}
			fn(y-b.Min.Y, row)
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := 0; x < w; x++ {
				p := canonicalColor(img.At(b.Min.X+x, y))
				copy(row[4*x:], p[:])
			}
			fn(y-b.Min.Y, row)
		}
	}
}

func canonicalColor(c color.Color) [4]byte {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if n.A < MinVisibleAlpha {
		return [4]byte{}
	}
	return [4]byte{n.R, n.G, n.B, n.A}
}

// AlphaCount is an image's alpha coverage: pixels visible (alpha at least
// MinVisibleAlpha) and transparent (at most MaxTransparentAlpha), of total.
type AlphaCount struct{ Visible, Transparent, Total int }

// Add counts the pixels of one canonical row (EachRow's).
func (a *AlphaCount) Add(row []byte) {
	for i := 3; i < len(row); i += 4 {
		a.Total++
		if row[i] >= MinVisibleAlpha {
			a.Visible++
		}
		if row[i] <= MaxTransparentAlpha {
			a.Transparent++
		}
	}
}

// enough reports whether at least 1% of the pixels are visible and 1%
// transparent (section 6), and otherwise says what falls short.
func (a AlphaCount) Enough() (string, bool) {
	total := a.Total
	if a.Visible*100 >= total && a.Transparent*100 >= total {
		return "", true
	}
	pct := func(n int) float64 { return float64(n) * 100 / float64(total) }
	return fmt.Sprintf("%d of %d pixels visible at alpha 16 or more (%.2f%%) and %d transparent at alpha 239 or less (%.2f%%)", a.Visible, total, pct(a.Visible), a.Transparent, pct(a.Transparent)), false
}
