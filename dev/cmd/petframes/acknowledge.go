package main

import "github.com/agentpet/rules_pet/dev/pixelart"

var acknowledgePoses = []pose{
	{headDY: 3, face: face{eyes: eyesClosed}},
	{headDY: 7, tilt: 2, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{headDY: 3, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{face: face{mouth: mouthSmile, blush: true}},
}

func drawAcknowledge(c *pixelart.Canvas, i int) { drawCat(c, acknowledgePoses[i]) }
