package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var waitingPoses = []pose{
	{tail: [2]pixelart.Point{pixelart.Pt(186, 176), pixelart.Pt(180, 126)}, tilt: 2, face: face{lookX: 4}},
	{tail: [2]pixelart.Point{pixelart.Pt(170, 196), pixelart.Pt(146, 118)}, face: face{lookX: 2, lookY: -1}},
	{tail: [2]pixelart.Point{pixelart.Pt(186, 180), pixelart.Pt(178, 130)}, tilt: -2, face: face{lookX: -4}},
	{tail: [2]pixelart.Point{pixelart.Pt(172, 194), pixelart.Pt(150, 122)}, face: face{lookX: -2, earTwitch: 3}},
	{tail: [2]pixelart.Point{pixelart.Pt(184, 184), pixelart.Pt(174, 132)}, tilt: 1, face: face{lookX: 3}},
	{tail: [2]pixelart.Point{pixelart.Pt(174, 192), pixelart.Pt(156, 126)}, face: face{lookX: 1}},
	{tail: [2]pixelart.Point{pixelart.Pt(180, 190), pixelart.Pt(168, 134)}, face: face{eyes: eyesHalf}},
	{tail: [2]pixelart.Point{pixelart.Pt(170, 200), pixelart.Pt(180, 176)}, face: face{eyes: eyesHalf, mouth: mouthFlat}},
}

func drawWaiting(c *pixelart.Canvas, i int) { drawCat(c, waitingPoses[i]) }
