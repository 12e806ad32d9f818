package main

// ---------------------------------------------------------------------------
// Props and effects, painted without placement.

// thoughtDots paints the first n of three rising thought bubbles (the
// largest n+big pixels bigger).
func thoughtDots(c *canvas, n, big int) {
	dots := []struct{ x, y, r int }{{152, 56, 4}, {164, 40, 6}, {176, 21, 8 + big}}
	for i := 0; i < n && i < len(dots); i++ {
		d := dots[i]
		c.outlined(disc(d.x, d.y, d.r), white, outline)
	}
}

// sparkle paints a four-pointed star of radius r centred on (x, y).
func sparkle(c *canvas, x, y, r int) {
	s := r / 4
	if s < 1 {
		s = 1
	}
	c.outlined(polygon(pt{x, y - r}, pt{x + s, y - s}, pt{x + r, y}, pt{x + s, y + s}, pt{x, y + r}, pt{x - s, y + s}, pt{x - r, y}, pt{x - s, y - s}), gold, goldEdge)
}

// sweatDrop paints a drop with its round bottom centred on (x, y).
func sweatDrop(c *canvas, x, y int) {
	c.outlined(union(disc(x, y, 5), polygon(pt{x - 5, y}, pt{x, y - 12}, pt{x + 5, y})), sweat, outline)
}

// keyboard paints the small keyboard the cat taps on in the tool action.
func keyboard(c *canvas) {
	c.outlined(polygon(pt{50, 180}, pt{142, 180}, pt{148, 202}, pt{44, 202}), keyDark, outline)
	for row, y := range []int{186, 195} {
		for i := 0; i < 6; i++ {
			x := 56 + 15*i + 2*row
			c.fill(polygon(pt{x, y}, pt{x + 11, y}, pt{x + 11, y + 5}, pt{x, y + 5}), keyLight)
		}
	}
}

// tapMarks paints three short strokes around the paw that hit the key at x.
func tapMarks(c *canvas, x int) {
	for _, m := range [][2]pt{{{x - 18, 176}, {x - 24, 170}}, {{x, 166}, {x, 158}}, {{x + 18, 176}, {x + 24, 170}}} {
		c.fill(line(m[0], m[1], 12), outline)
	}
}
