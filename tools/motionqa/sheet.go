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

// sheet is the keyframe sheet being drawn, a row at a time, so a state's
// decoded frames can be dropped as soon as its row is drawn.
type sheet struct {
	img  *image.RGBA
	w, h int
}

func newSheet(w, h, rows int) *sheet {
	if rows < 1 {
		rows = 1
	}
	img := image.NewRGBA(image.Rect(0, 0, w*sheetColumns, rows*(h+sheetGap)-sheetGap))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = sheetBackground.R, sheetBackground.G, sheetBackground.B, 255
	}
	return &sheet{img, w, h}
}

// draw composites row r's keyframes over the checkerboard.
func (s *sheet) draw(r int, row sheetRow) {
	y0 := r * (s.h + sheetGap)
	for c, f := range row {
		x0 := c * s.w
		for y := 0; y < s.h; y++ {
			for x := 0; x < s.w; x++ {
				bg := checkerLight
				if (x/checkerTile+y/checkerTile)%2 == 1 {
					bg = checkerDark
				}
				si := f.PixOffset(x, y)
				a := uint32(f.Pix[si+3])
				di := s.img.PixOffset(x0+x, y0+y)
				for ch := 0; ch < 3; ch++ {
					s.img.Pix[di+ch] = byte((uint32(f.Pix[si+ch])*a + bg[ch]*(255-a) + 127) / 255)
				}
			}
		}
	}
}
