package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var thinkingPoses = []pose{
	{tilt: -4, face: face{lookX: 2, lookY: -2, mouth: mouthFlat}},
	{tilt: -8, face: face{lookX: 3, lookY: -4, mouth: mouthFlat}},
	{tilt: -11, headDY: -1, face: face{lookX: 4, lookY: -5, mouth: mouthO}},
	{tilt: -9, face: face{lookX: 4, lookY: -5, mouth: mouthO, earTwitch: 3}},
}

func drawThinking(c *pixelart.Canvas, i int) {
	drawCat(c, thinkingPoses[i])
	big := 0
	if i == 3 {
		big = 3
	}
	thoughtDots(c, i+1, big)
}
