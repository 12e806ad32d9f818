package main

import "github.com/agentpet/rules_pet/dev/pixelart"

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
var scruff = pixelart.Pt(96, 40)

const dragDrop = 4

// drawDrag paints frame i of a drag in direction dir (-1 left, +1 right):
// the cat hangs from the scruff, its body trailing behind the pointer, legs
// dangling, eyes looking where it goes, with speed strokes behind it.
func drawDrag(c *pixelart.Canvas, dir, i int) {
	s := dragSwing[i]
	back := -dir // the trailing side
	c.Place(0, dragDrop, dir*s.lean, scruff)

	// Tail, hanging from the body's right side, swinging.
	drawTail(c, pixelart.Pt(116, 166), pixelart.Pt(140+back*s.tail, 186), pixelart.Pt(132+back*s.tail, 154))
	// Hind legs dangling.
	for _, lx := range []int{80, 112} {
		foot := pixelart.Pt(lx+back*s.hind/2-2+4*((lx-80)/32), 186)
		c.Outlined(pixelart.Line(pixelart.Pt(lx, 156), foot, 8*pixelart.Q), pixelart.Fur, pixelart.Outline)
		c.Outlined(pixelart.Ellipse(foot.X, foot.Y+4, 10, 7), pixelart.Cream, pixelart.Outline)
	}
	// Body.
	body := pixelart.Ellipse(96, 134, 34, 42)
	c.Outlined(body, pixelart.Fur, pixelart.Outline)
	for _, st := range [][2]pixelart.Point{{pixelart.Pt(62, 124), pixelart.Pt(74, 128)}, {pixelart.Pt(62, 138), pixelart.Pt(72, 140)}, {pixelart.Pt(130, 124), pixelart.Pt(118, 128)}, {pixelart.Pt(130, 138), pixelart.Pt(120, 140)}} {
		c.Fill(pixelart.Intersect(body, pixelart.Line(st[0], st[1], 20)), pixelart.FurShade)
	}
	c.Fill(pixelart.Intersect(body, pixelart.Ellipse(96, 144, 20, 28)), pixelart.Cream)
	// Front legs dangling in front of the body.
	for _, lx := range []int{78, 114} {
		paw := pixelart.Pt(lx+back*s.front, 154)
		c.Outlined(pixelart.Line(pixelart.Pt(lx, 114), paw, 8*pixelart.Q), pixelart.Fur, pixelart.Outline)
		drawPaw(c, paw.X, paw.Y)
	}
	// Head, looking the way it is dragged.
	f := face{lookX: 5 * dir, mouth: mouthO, droop: 1}
	if i%3 == 2 {
		f.mouth = mouthW
	}
	drawHead(c, f, 0, -24)
	c.Place(0, 0, 0, pixelart.Point{})

	// Speed strokes on the trailing side, drifting down the loop.
	for k, y := range []int{58, 74, 90} {
		l := 14 - 4*((i+k)%3)
		x0 := 96 + back*70
		y += 2 * i
		c.Fill(pixelart.Line(pixelart.Pt(x0, y), pixelart.Pt(x0+back*l, y), 12), speed)
	}
}
