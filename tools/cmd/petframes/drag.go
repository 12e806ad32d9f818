package main

// dragSwing is one loop of being dragged: the lean of the body behind the
// pointer (degrees), the swing of the front and hind legs (pixels, against
// the drag direction) and the tail tip's swing.
var dragSwing = []struct{ lean, front, hind, tail int }{
	{10, 2, 4, 0},
	{13, 5, 8, 4},
	{16, 8, 12, 7},
	{14, 6, 6, 5},
	{11, 2, 0, 1},
	{9, 0, 2, -4},
}

// scruff is the point the cat hangs from while dragged (before it is moved
// down by dragDrop); the ears are swept back a little.
var scruff = pt{96, 40}

const dragDrop = 4

// drawDrag paints frame i of a drag in direction dir (-1 left, +1 right):
// the cat hangs from the scruff, its body trailing behind the pointer, legs
// dangling, eyes looking where it goes, with speed strokes behind it.
func drawDrag(c *canvas, dir, i int) {
	s := dragSwing[i]
	back := -dir // the trailing side
	c.place(0, dragDrop, dir*s.lean, scruff)

	// Tail, hanging from the body's right side, swinging.
	drawTail(c, pt{116, 166}, pt{140 + back*s.tail, 186}, pt{132 + back*s.tail, 154})
	// Hind legs dangling.
	for _, lx := range []int{80, 112} {
		foot := pt{lx + back*s.hind/2 - 2 + 4*((lx-80)/32), 186}
		c.outlined(line(pt{lx, 156}, foot, 8*q), fur, outline)
		c.outlined(ellipse(foot.x, foot.y+4, 10, 7), cream, outline)
	}
	// Body.
	body := ellipse(96, 134, 34, 42)
	c.outlined(body, fur, outline)
	for _, st := range [][2]pt{{{62, 124}, {74, 128}}, {{62, 138}, {72, 140}}, {{130, 124}, {118, 128}}, {{130, 138}, {120, 140}}} {
		c.fill(intersect(body, line(st[0], st[1], 20)), furShade)
	}
	c.fill(intersect(body, ellipse(96, 144, 20, 28)), cream)
	// Front legs dangling in front of the body.
	for _, lx := range []int{78, 114} {
		paw := pt{lx + back*s.front, 154}
		c.outlined(line(pt{lx, 114}, paw, 8*q), fur, outline)
		drawPaw(c, paw.x, paw.y)
	}
	// Head, looking the way it is dragged.
	f := face{lookX: 5 * dir, mouth: mouthO, droop: 1}
	if i%3 == 2 {
		f.mouth = mouthW
	}
	drawHead(c, f, 0, -24)
	c.place(0, 0, 0, pt{})

	// Speed strokes on the trailing side, drifting down the loop.
	for k, y := range []int{58, 74, 90} {
		l := 14 - 4*((i+k)%3)
		x0 := 96 + back*70
		y += 2 * i
		c.fill(line(pt{x0, y}, pt{x0 + back*l, y}, 12), speed)
	}
}
