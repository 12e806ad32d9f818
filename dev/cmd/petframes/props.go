package main

import "github.com/agentpet/rules_pet/dev/pixelart"

// ---------------------------------------------------------------------------
// Props and effects, painted without placement.

// thoughtDots paints the first n of three rising thought bubbles (the
// largest n+big pixels bigger).
func thoughtDots(c *pixelart.Canvas, n, big int) {
	dots := []struct{ x, y, r int }{{152, 56, 4}, {164, 40, 6}, {176, 21, 8 + big}}
	for i := 0; i < n && i < len(dots); i++ {
		d := dots[i]
		c.Outlined(pixelart.Disc(d.x, d.y, d.r), pixelart.White, pixelart.Outline)
	}
}

// sparkle paints a four-pointed star of radius r centred on (x, y).
func sparkle(c *pixelart.Canvas, x, y, r int) {
	s := r / 4
	if s < 1 {
		s = 1
	}
	c.Outlined(pixelart.Polygon(pixelart.Pt(x, y-r), pixelart.Pt(x+s, y-s), pixelart.Pt(x+r, y), pixelart.Pt(x+s, y+s), pixelart.Pt(x, y+r), pixelart.Pt(x-s, y+s), pixelart.Pt(x-r, y), pixelart.Pt(x-s, y-s)), gold, goldEdge)
}

// sweatDrop paints a drop with its round bottom centred on (x, y).
func sweatDrop(c *pixelart.Canvas, x, y int) {
	c.Outlined(pixelart.Union(pixelart.Disc(x, y, 5), pixelart.Polygon(pixelart.Pt(x-5, y), pixelart.Pt(x, y-12), pixelart.Pt(x+5, y))), sweat, pixelart.Outline)
}

// keyboard paints the small keyboard the cat taps on in the tool action.
func keyboard(c *pixelart.Canvas) {
	c.Outlined(pixelart.Polygon(pixelart.Pt(50, 180), pixelart.Pt(142, 180), pixelart.Pt(148, 202), pixelart.Pt(44, 202)), keyDark, pixelart.Outline)
	for row, y := range []int{186, 195} {
		for i := 0; i < 6; i++ {
			x := 56 + 15*i + 2*row
			c.Fill(pixelart.Polygon(pixelart.Pt(x, y), pixelart.Pt(x+11, y), pixelart.Pt(x+11, y+5), pixelart.Pt(x, y+5)), keyLight)
		}
	}
}

// tapMarks paints three short strokes around the paw that hit the key at x.
func tapMarks(c *pixelart.Canvas, x int) {
	for _, m := range [][2]pixelart.Point{{pixelart.Pt(x-18, 176), pixelart.Pt(x-24, 170)}, {pixelart.Pt(x, 166), pixelart.Pt(x, 158)}, {pixelart.Pt(x+18, 176), pixelart.Pt(x+24, 170)}} {
		c.Fill(pixelart.Line(m[0], m[1], 12), pixelart.Outline)
	}
}
