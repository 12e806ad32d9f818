package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var donePoses = []pose{
	{squash: 4, headDY: 6, face: face{eyes: eyesHappy, mouth: mouthW}},
	{dy: -12, breathe: 2, pawL: 4, pawR: 4, tail: [2]pixelart.Point{pixelart.Pt(184, 160), pixelart.Pt(170, 108)}, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{dy: -18, breathe: 3, headDY: -2, pawL: 6, pawR: 6, tail: [2]pixelart.Point{pixelart.Pt(186, 150), pixelart.Pt(176, 100)}, face: face{eyes: eyesHappy, mouth: mouthSmile, blush: true}},
	{headDY: 1, tail: [2]pixelart.Point{pixelart.Pt(182, 176), pixelart.Pt(176, 122)}, face: face{eyes: eyesHappy, mouth: mouthSmile, blush: true}},
}

func drawDone(c *pixelart.Canvas, i int) {
	drawCat(c, donePoses[i])
	switch i {
	case 1:
		sparkle(c, 22, 70, 8)
		sparkle(c, 170, 62, 6)
	case 2:
		sparkle(c, 20, 56, 12)
		sparkle(c, 172, 48, 10)
		sparkle(c, 28, 128, 6)
	case 3:
		sparkle(c, 16, 40, 7)
		sparkle(c, 176, 34, 8)
		sparkle(c, 22, 110, 10)
		sparkle(c, 174, 100, 6)
	}
}
