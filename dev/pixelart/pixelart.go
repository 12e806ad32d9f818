// Package pixelart is the integer drawing code of the repository's art
// generators (dev/cmd/petsprites, dev/cmd/petframes): a canvas of
// palette indices, shapes sampled at pixel centres in fixed-point
// coordinates, a placement that moves and rotates them, outlines, and the
// orange tabby's palette.
//
// There is no floating point anywhere: coordinates, radii and the products
// that compare them are integers, and rotations use a sine table rounded
// once to Q14. A float64 drawing gives different pixels on architectures
// that fuse a multiply and an add, and the checked-in art must come out of
// every machine byte for byte.
//
// Coordinates are in design units, Canvas.Unit of them to a pixel: 1 for art
// laid out in whole pixels, 10 for art laid out in tenths. A shape is
// evaluated in steps, Q of them to a design unit, so pixel centres (half a
// pixel in) and rotated sample points fall on integers; the widths of lines
// and rings are given in steps, so a stroke can be thinner than a design
// unit.
package pixelart

import (
	"image"
)

// Q is the number of fixed-point steps in a design unit.
const Q = 8

// Canvas is a W x H grid of palette indices. Shapes painted on it are first
// rotated by the placement's angle around its pivot and then moved by its
// offset (see Place).
type Canvas struct {
	W, H int
	// Unit is the number of design units in a pixel.
	Unit int
	// Edge is the width, in pixels, of the border Outlined draws.
	Edge int
	// Pix holds the ink of pixel (x, y) at Pix[y*W+x].
	Pix []Ink

	dx, dy, deg int
	pivot       Point
}

// New returns a transparent w x h canvas with unit design units to a pixel
// and outlines edge pixels wide.
func New(w, h, unit, edge int) *Canvas {
	return &Canvas{W: w, H: h, Unit: unit, Edge: edge, Pix: make([]Ink, w*h)}
}

// Place sets the placement of the shapes painted next: rotated by deg
// degrees (clockwise on screen) around pivot, then moved by (dx, dy), all in
// design units. Place(0, 0, 0, Point{}) paints shapes where they are.
func (c *Canvas) Place(dx, dy, deg int, pivot Point) {
	c.dx, c.dy, c.deg, c.pivot = dx, dy, deg, pivot
}

// Mask samples s at every pixel centre through the current placement; a
// shape reaching past the canvas is clipped to it.
func (c *Canvas) Mask(s Shape) []bool {
	m := make([]bool, c.W*c.H)
	sin, cos := SinCos(c.deg)
	px, py := int64(c.pivot.X*Q), int64(c.pivot.Y*Q)
	step := int64(c.Unit * Q)
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			sx := int64(x)*step + step/2 - int64(c.dx*Q)
			sy := int64(y)*step + step/2 - int64(c.dy*Q)
			if c.deg != 0 {
				// The inverse rotation, by -deg around the pivot, takes the
				// sample point back into the shape's own frame.
				rx, ry := sx-px, sy-py
				sx = px + q14(rx*cos+ry*sin)
				sy = py + q14(ry*cos-rx*sin)
			}
			m[y*c.W+x] = s(sx, sy)
		}
	}
	return m
}

// Paint sets every pixel in m to ink k.
func (c *Canvas) Paint(m []bool, k Ink) {
	for i, in := range m {
		if in {
			c.Pix[i] = k
		}
	}
}

// Fill paints s in ink k with no outline.
func (c *Canvas) Fill(s Shape, k Ink) { c.Paint(c.Mask(s), k) }

// Outlined paints s in ink k inside a border of ink edge, c.Edge pixels
// wide: every pixel outside s within the distance √(Edge²+1) of one inside,
// so a one-pixel border reaches the diagonal neighbours and a wider one is
// rounded at the corners rather than square.
func (c *Canvas) Outlined(s Shape, k, edge Ink) {
	m := c.Mask(s)
	grown := make([]bool, len(m))
	e := c.Edge
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			if m[y*c.W+x] {
				continue
			}
		search:
			for dy := -e; dy <= e; dy++ {
				for dx := -e; dx <= e; dx++ {
					if dx*dx+dy*dy > e*e+1 {
						continue
					}
					nx, ny := x+dx, y+dy
					if nx >= 0 && nx < c.W && ny >= 0 && ny < c.H && m[ny*c.W+nx] {
						grown[y*c.W+x] = true
						break search
					}
				}
			}
		}
	}
	c.Paint(grown, edge)
	c.Paint(m, k)
}

// Image converts the canvas to an NRGBA image through palette p, which must
// give a colour to every ink on the canvas.
func (c *Canvas) Image(p Palette) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, c.W, c.H))
	for i, k := range c.Pix {
		col := p[k]
		copy(img.Pix[4*i:4*i+4], []uint8{col.R, col.G, col.B, col.A})
	}
	return img
}
