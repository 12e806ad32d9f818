package main

import (
	"image/color"
)

// ---------------------------------------------------------------------------
// Palette.

// ink is an index into palette; 0 is the transparent background.
type ink uint8

const (
	none ink = iota
	outline
	fur
	furShade
	cream
	earPink
	nose
	white
	pupil
	mouthRed
	tongue
	blush
	keyDark
	keyLight
	gold
	goldEdge
	sweat
	speed
	inkCount
)

// palette holds the flat colours; the cat's are the canonical sprites'.
var palette = [inkCount]color.NRGBA{
	none:     {0, 0, 0, 0},
	outline:  {48, 32, 40, 255},
	fur:      {248, 168, 72, 255},
	furShade: {216, 120, 48, 255},
	cream:    {255, 236, 200, 255},
	earPink:  {248, 152, 160, 255},
	nose:     {232, 96, 120, 255},
	white:    {255, 255, 255, 255},
	pupil:    {32, 24, 48, 255},
	mouthRed: {176, 48, 72, 255},
	tongue:   {248, 128, 144, 255},
	blush:    {255, 136, 152, 255},
	keyDark:  {72, 80, 104, 255},
	keyLight: {184, 196, 220, 255},
	gold:     {255, 216, 72, 255},
	goldEdge: {200, 136, 32, 255},
	sweat:    {136, 196, 248, 255},
	speed:    {160, 152, 176, 255},
}
