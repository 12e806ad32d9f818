package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var toolPoses = []pose{
	{pawR: 18, face: face{lookX: 3, lookY: 5}},
	{headDY: 1, face: face{lookX: 3, lookY: 6, mouth: mouthFlat}},
	{pawL: 18, face: face{lookX: -3, lookY: 5}},
	{headDY: 1, face: face{eyes: eyesHalf, lookX: -3, lookY: 4, mouth: mouthFlat}},
}

func drawTool(c *pixelart.Canvas, i int) {
	p := toolPoses[i]
	// The paws rest on the keyboard's top edge rather than the ground.
	drawSittingBehind(c, p)
	c.Place(p.headDX, p.headDY, p.tilt, neck)
	drawHead(c, p.face, 0, 0)
	c.Place(0, 0, 0, pixelart.Point{})
	switch i {
	case 1:
		tapMarks(c, 114)
	case 3:
		tapMarks(c, 78)
	}
}

// drawSittingBehind paints the sitting cat behind the keyboard, with the
// paws on top of it.
func drawSittingBehind(c *pixelart.Canvas, p pose) {
	paws := p
	p.pawL, p.pawR = 0, 0
	drawSitting(c, p)
	keyboard(c)
	for i, lift := range []int{paws.pawL, paws.pawR} {
		px, sx := 78+36*i, 82+28*i
		c.Outlined(pixelart.Line(pixelart.Pt(sx, 160), pixelart.Pt(px, 178-lift), 9*pixelart.Q), pixelart.Fur, pixelart.Outline)
		drawPaw(c, px, 180-lift)
	}
}
