package main

import (
	"image"
)

// ---------------------------------------------------------------------------
// Canvas.

// canvas is a Width x Height grid of palette indices. Shapes painted on it
// are first rotated by deg degrees (clockwise on screen) around pivot and
// then moved by (dx, dy) pixels; place sets that placement.
type canvas struct {
	pix    [Width * Height]ink
	deg    int
	pivot  pt
	dx, dy int
}

// place sets the placement of the shapes painted next.
func (c *canvas) place(dx, dy, deg int, pivot pt) {
	c.dx, c.dy, c.deg, c.pivot = dx, dy, deg, pivot
}

// mask samples s at every pixel centre through the current placement.
func (c *canvas) mask(s shape) []bool {
	m := make([]bool, Width*Height)
	sin, cos := sinCos(c.deg)
	px, py := int64(c.pivot.x*q), int64(c.pivot.y*q)
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			sx := int64((x-c.dx)*q + q/2)
			sy := int64((y-c.dy)*q + q/2)
			if c.deg != 0 {
				// The inverse rotation: by -deg around the pivot.
				rx, ry := sx-px, sy-py
				sx = px + q14(rx*cos+ry*sin)
				sy = py + q14(ry*cos-rx*sin)
			}
			m[y*Width+x] = s(sx, sy)
		}
	}
	return m
}

// paint sets every pixel in m to colour k.
func (c *canvas) paint(m []bool, k ink) {
	for i, in := range m {
		if in {
			c.pix[i] = k
		}
	}
}

// fill paints s in colour k with no outline.
func (c *canvas) fill(s shape, k ink) { c.paint(c.mask(s), k) }

// outlined paints s in colour k inside a two-pixel border of colour edge.
func (c *canvas) outlined(s shape, k, edge ink) {
	m := c.mask(s)
	grown := make([]bool, len(m))
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if m[y*Width+x] {
				continue
			}
		search:
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					if (dx == 2 || dx == -2) && (dy == 2 || dy == -2) {
						continue
					}
					nx, ny := x+dx, y+dy
					if nx >= 0 && nx < Width && ny >= 0 && ny < Height && m[ny*Width+nx] {
						grown[y*Width+x] = true
						break search
					}
				}
			}
		}
	}
	c.paint(grown, edge)
	c.paint(m, k)
}

// image converts the canvas to an NRGBA image.
func (c *canvas) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Width, Height))
	for i, k := range c.pix {
		col := palette[k]
		copy(img.Pix[4*i:4*i+4], []uint8{col.R, col.G, col.B, col.A})
	}
	return img
}
