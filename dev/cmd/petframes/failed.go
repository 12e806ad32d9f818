package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var failedPoses = []pose{
	{face: face{eyes: eyesWide, mouth: mouthO}},
	{headDY: 2, face: face{eyes: eyesWide, lookY: 3, mouth: mouthO, droop: 1}},
	{headDY: 4, tail: [2]pixelart.Point{pixelart.Pt(182, 196), pixelart.Pt(174, 146)}, face: face{lookY: 4, mouth: mouthFrown, sadBrows: true, droop: 2}},
	{headDY: 6, tail: [2]pixelart.Point{pixelart.Pt(180, 200), pixelart.Pt(178, 158)}, face: face{lookY: 5, mouth: mouthFrown, sadBrows: true, droop: 3}},
	{headDY: 8, breathe: -2, tail: [2]pixelart.Point{pixelart.Pt(176, 202), pixelart.Pt(180, 170)}, face: face{lookY: 5, mouth: mouthFrown, sadBrows: true, droop: 3}},
	{headDY: 9, breathe: -2, tilt: -3, tail: [2]pixelart.Point{pixelart.Pt(172, 202), pixelart.Pt(180, 180)}, face: face{eyes: eyesHalf, lookY: 4, mouth: mouthFrown, sadBrows: true, droop: 4}},
	{headDY: 10, breathe: -3, tilt: -4, tail: [2]pixelart.Point{pixelart.Pt(166, 200), pixelart.Pt(178, 188)}, face: face{eyes: eyesClosed, mouth: mouthFrown, sadBrows: true, droop: 4}},
	{headDY: 10, breathe: -3, tilt: -3, tail: [2]pixelart.Point{pixelart.Pt(164, 200), pixelart.Pt(178, 190)}, face: face{eyes: eyesClosed, mouth: mouthFrown, sadBrows: true, droop: 4}},
}

func drawFailed(c *pixelart.Canvas, i int) {
	drawCat(c, failedPoses[i])
	switch i {
	case 4:
		sweatDrop(c, 160, 72)
	case 5:
		sweatDrop(c, 160, 78)
	case 6:
		sweatDrop(c, 160, 86)
	case 7:
		sweatDrop(c, 158, 92)
	}
}
