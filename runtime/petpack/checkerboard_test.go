package petpack

import (
	"image/color"
	"testing"
)

// The two tones of the contract authors' cover tests: a warm light grey
// pair like an editor's transparency preview.
var (
	checkLight = color.NRGBA{232, 229, 224, 255}
	checkDark  = color.NRGBA{210, 206, 200, 255}
)

// checkerAt is the tone of an s px checkerboard at x, y, with alpha a.
func checkerAt(x, y, s int, a uint8) color.NRGBA {
	c := checkDark
	if (x/s+y/s)%2 == 0 {
		c = checkLight
	}
	c.A = a
	return c
}

// petWith is a 384x416 cover: transparent canvas, an orange disc for the
// pet, and extra painted over both where it returns true.
func petWith(extra func(x, y int) (color.NRGBA, bool)) []byte {
	return encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		if c, ok := extra(x, y); ok {
			return c
		}
		if inDisc(x, y, 192, 230, 100) {
			return orange
		}
		return color.NRGBA{}
	}))
}

// TestCoverCheckerboard: a checkerboard that fills the cover's corners is
// a baked background and is refused; a checked object held by the pet,
// or one corner's checked blanket, is art and passes. The first case of
// each half is the contract authors' own cover test.
func TestCoverCheckerboard(t *testing.T) {
	base := validPackage()
	inRect := func(x, y, x0, y0, x1, y1 int) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }
	refused := []struct {
		name  string
		cover []byte
		also  []Rule
	}{
		// No pixel of it is fully transparent, which our 1% rule (alpha
		// zero) refuses as well; the authors count alpha 200 as
		// transparent.
		{"a semi-transparent 16 px checkerboard over the whole cover", encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
			return checkerAt(x, y, 16, 200)
		})), nil}, // alpha 200 is both visible and transparent (16 to 239): only the board is wrong
		{"an opaque 8 px checkerboard behind the pet", petWith(func(x, y int) (color.NRGBA, bool) {
			if x < 40 || inDisc(x, y, 192, 230, 100) {
				return color.NRGBA{}, false
			}
			return checkerAt(x, y, 8, 255), true
		}), nil},
		{"a checkerboard at alpha 16 behind the pet", petWith(func(x, y int) (color.NRGBA, bool) {
			if x < 40 || inDisc(x, y, 192, 230, 100) {
				return color.NRGBA{}, false
			}
			return checkerAt(x, y, 12, 16), true
		}), nil},
		{"a red and blue checked background", checkerCover(8, color.NRGBA{255, 80, 80, 255}, color.NRGBA{80, 80, 255, 255}), nil},
		{"a checkered band across the top corners only", petWith(func(x, y int) (color.NRGBA, bool) {
			return checkerAt(x, y, 10, 255), y < 140
		}), nil},
		{"a checkered band down the left corners only", petWith(func(x, y int) (color.NRGBA, bool) {
			return checkerAt(x, y, 6, 255), x < 130
		}), nil},
		{"a 40x40 cover of 4 px cells, its four corners one patch", encodePNG(drawn(40, 40, func(x, y int) color.NRGBA {
			if inRect(x, y, 18, 18, 22, 22) {
				return color.NRGBA{}
			}
			return checkerAt(x, y, 4, 255)
		})), nil},
	}
	for _, tc := range refused {
		t.Run("refused/"+tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(base.with(coverPath, tc.cover)))
			expectRules(t, v, append([]Rule{RuleCoverCheckerboard}, tc.also...)...)
		})
	}
	passed := []struct {
		name  string
		cover []byte
	}{
		{"a 128 px checkered square in the middle of a transparent cover", encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
			if inRect(x, y, 128, 144, 256, 272) {
				return checkerAt(x, y, 16, 255)
			}
			return color.NRGBA{}
		}))},
		{"a checkered flag held by the pet", petWith(func(x, y int) (color.NRGBA, bool) {
			switch {
			case inRect(x, y, 280, 40, 286, 260): // the pole
				return color.NRGBA{90, 60, 30, 255}, true
			case inRect(x, y, 286, 40, 366, 120): // the flag, 8 px cells
				return checkerAt(x, y, 8, 255), true
			}
			return color.NRGBA{}, false
		})},
		{"a racing flag of black and white cells over the pet", petWith(func(x, y int) (color.NRGBA, bool) {
			if !inRect(x, y, 140, 150, 250, 230) {
				return color.NRGBA{}, false
			}
			if (x/10+y/10)%2 == 0 {
				return color.NRGBA{0, 0, 0, 255}, true
			}
			return color.NRGBA{255, 255, 255, 255}, true
		})},
		{"a checked blanket in one corner", petWith(func(x, y int) (color.NRGBA, bool) {
			return checkerAt(x, y, 8, 255), inRect(x, y, 0, 300, 140, 416)
		})},
		{"a checkerboard below alpha 16 behind the pet", petWith(func(x, y int) (color.NRGBA, bool) {
			if x < 40 || inDisc(x, y, 192, 230, 100) {
				return color.NRGBA{}, false
			}
			return checkerAt(x, y, 12, 15), true
		})},
		{"grey stripes filling the background", petWith(func(x, y int) (color.NRGBA, bool) {
			if x < 40 || inDisc(x, y, 192, 230, 100) {
				return color.NRGBA{}, false
			}
			return checkerAt(0, y, 8, 255), true
		})},
		{"tones too close to tell apart", petWith(func(x, y int) (color.NRGBA, bool) {
			if x < 40 || inDisc(x, y, 192, 230, 100) {
				return color.NRGBA{}, false
			}
			if (x/8+y/8)%2 == 0 {
				return color.NRGBA{220, 220, 220, 255}, true
			}
			return color.NRGBA{211, 211, 211, 255}, true // squared distance 243
		})},
	}
	for _, tc := range passed {
		t.Run("passed/"+tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(base.with(coverPath, tc.cover)))
			if !v.OK() {
				t.Fatalf("refused:\n%s", describeVerdict(v))
			}
		})
	}
}
