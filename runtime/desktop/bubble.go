package desktop

import (
	"image"
	"image/color"
	"image/draw"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// bubbleColumns is where bubble text wraps, in characters of basicfont's
// 7x13 face.
const bubbleColumns = 28

// bubblePad is the margin around the text, inside the border, in pixels.
const bubblePad = 4

// RenderBubble draws bubble text as the pet shows it above itself: black
// basicfont text on white with a one-pixel dark border, wrapped at word
// boundaries to bubbleColumns characters, every pixel opaque (the window
// is a rectangle).
func RenderBubble(text string) *image.NRGBA {
	lines := wrap(text, bubbleColumns)
	face := basicfont.Face7x13
	cols := 1
	for _, l := range lines {
		if n := len([]rune(l)); n > cols {
			cols = n
		}
	}
	w := cols*face.Advance + 2*bubblePad + 2
	h := len(lines)*face.Height + 2*bubblePad + 2
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(color.NRGBA{0x30, 0x30, 0x30, 0xff}), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(1, 1, w-1, h-1), image.NewUniform(color.NRGBA{0xff, 0xff, 0xff, 0xff}), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.NRGBA{0, 0, 0, 0xff}), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(1+bubblePad, 1+bubblePad+i*face.Height+face.Ascent)
		d.DrawString(l)
	}
	// Anti-aliasing is none in basicfont, but keep every pixel opaque so
	// the shape is the whole rectangle.
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	return img
}

// wrap breaks text into lines of at most n runes at spaces, and a word
// longer than n into pieces.
func wrap(text string, n int) []string {
	var lines []string
	cur := []rune{}
	for _, word := range strings.Fields(text) {
		rw := []rune(word)
		for len(rw) > n {
			if len(cur) > 0 {
				lines = append(lines, string(cur))
				cur = cur[:0]
			}
			lines = append(lines, string(rw[:n]))
			rw = rw[n:]
		}
		switch {
		case len(cur) == 0:
			cur = append(cur, rw...)
		case len(cur)+1+len(rw) <= n:
			cur = append(append(cur, ' '), rw...)
		default:
			lines = append(lines, string(cur))
			cur = append(cur[:0:0], rw...)
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
