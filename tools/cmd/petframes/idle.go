package main

// The idle action: breathing, a blink, a tail flick.

var idlePoses = []pose{
	{},
	{breathe: 1, headDY: -1},
	{breathe: 2, headDY: -2},
	{breathe: 1, headDY: -1, tail: [2]pt{{180, 186}, {170, 128}}},
	{face: face{eyes: eyesClosed}},
	{tail: [2]pt{{176, 192}, {160, 128}}, face: face{earTwitch: 4}},
}

func drawIdle(c *canvas, i int) { drawCat(c, idlePoses[i]) }
