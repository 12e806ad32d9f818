package main

var toolPoses = []pose{
	{pawR: 18, face: face{lookX: 3, lookY: 5}},
	{headDY: 1, face: face{lookX: 3, lookY: 6, mouth: mouthFlat}},
	{pawL: 18, face: face{lookX: -3, lookY: 5}},
	{headDY: 1, face: face{eyes: eyesHalf, lookX: -3, lookY: 4, mouth: mouthFlat}},
}

func drawTool(c *canvas, i int) {
	p := toolPoses[i]
	// The paws rest on the keyboard's top edge rather than the ground.
	drawSittingBehind(c, p)
	c.place(p.headDX, p.headDY, p.tilt, neck)
	drawHead(c, p.face, 0, 0)
	c.place(0, 0, 0, pt{})
	switch i {
	case 1:
		tapMarks(c, 114)
	case 3:
		tapMarks(c, 78)
	}
}

// drawSittingBehind paints the sitting cat behind the keyboard, with the
// paws on top of it.
func drawSittingBehind(c *canvas, p pose) {
	paws := p
	p.pawL, p.pawR = 0, 0
	drawSitting(c, p)
	keyboard(c)
	for i, lift := range []int{paws.pawL, paws.pawR} {
		px, sx := 78+36*i, 82+28*i
		c.outlined(line(pt{sx, 160}, pt{px, 178 - lift}, 9*q), fur, outline)
		drawPaw(c, px, 180-lift)
	}
}
