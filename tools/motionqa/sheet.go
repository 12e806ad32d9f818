package motionqa

import (
	"image"
	"image/color"
)

// sheetRow is one audited state's keyframes.
type sheetRow []*image.NRGBA

// Keyframe sheet layout: one row per audited state, five runtime-size cells
// (the frames at full size, never resampled) over a checkerboard, rows
// separated by a dark band.
const (
	sheetColumns = 5
	sheetGap     = 8
	checkerTile  = 12
)

var (
	sheetBackground = color.RGBA{32, 32, 36, 255}
	checkerLight    = [3]uint32{235, 235, 235}
	checkerDark     = [3]uint32{210, 210, 210}
)

// keyframeSheet draws the sheet as an opaque PNG.
func keyframeSheet(w, h int, rows []sheetRow) ([]byte, error) {
	if len(rows) == 0 {
		rows = []sheetRow{nil}
	}
	W := w * sheetColumns
	H := len(rows)*(h+sheetGap) - sheetGap
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = sheetBackground.R, sheetBackground.G, sheetBackground.B, 255
	}
	for r, row := range rows {
		y0 := r * (h + sheetGap)
		for c, f := range row {
			x0 := c * w
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					bg := checkerLight
					if (x/checkerTile+y/checkerTile)%2 == 1 {
						bg = checkerDark
					}
					si := f.PixOffset(x, y)
					a := uint32(f.Pix[si+3])
					di := img.PixOffset(x0+x, y0+y)
					for ch := 0; ch < 3; ch++ {
						img.Pix[di+ch] = byte((uint32(f.Pix[si+ch])*a + bg[ch]*(255-a) + 127) / 255)
					}
					img.Pix[di+3] = 255
				}
			}
		}
	}
	return encodePNG(img)
}
