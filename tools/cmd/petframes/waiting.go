package main

var waitingPoses = []pose{
	{tail: [2]pt{{186, 176}, {180, 126}}, tilt: 2, face: face{lookX: 4}},
	{tail: [2]pt{{170, 196}, {146, 118}}, face: face{lookX: 2, lookY: -1}},
	{tail: [2]pt{{186, 180}, {178, 130}}, tilt: -2, face: face{lookX: -4}},
	{tail: [2]pt{{172, 194}, {150, 122}}, face: face{lookX: -2, earTwitch: 3}},
	{tail: [2]pt{{184, 184}, {174, 132}}, tilt: 1, face: face{lookX: 3}},
	{tail: [2]pt{{174, 192}, {156, 126}}, face: face{lookX: 1}},
	{tail: [2]pt{{180, 190}, {168, 134}}, face: face{eyes: eyesHalf}},
	{tail: [2]pt{{170, 200}, {180, 176}}, face: face{eyes: eyesHalf, mouth: mouthFlat}},
}

func drawWaiting(c *canvas, i int) { drawCat(c, waitingPoses[i]) }
