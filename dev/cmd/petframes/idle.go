package main

import "github.com/agentpet/rules_pet/dev/pixelart"

// The idle action: breathing, a blink, a tail flick.

var idlePoses = []pose{
	{},
	{breathe: 1, headDY: -1},
	{breathe: 2, headDY: -2},
	{breathe: 1, headDY: -1, tail: [2]pixelart.Point{pixelart.Pt(180, 186), pixelart.Pt(170, 128)}},
	{face: face{eyes: eyesClosed}},
	{tail: [2]pixelart.Point{pixelart.Pt(176, 192), pixelart.Pt(160, 128)}, face: face{earTwitch: 4}},
}

func drawIdle(c *pixelart.Canvas, i int) { drawCat(c, idlePoses[i]) }
