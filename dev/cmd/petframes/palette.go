package main

import (
	"image/color"

	"github.com/agentpet/rules_pet/dev/pixelart"
)

// The inks of the props and effects; the cat's are pixelart's.
const (
	keyDark = pixelart.CatInks + iota
	keyLight
	gold
	goldEdge
	sweat
	speed
)

// palette is the cat's colours followed by the props', in the order of the
// inks above.
var palette = pixelart.CatPalette(
	color.NRGBA{72, 80, 104, 255},   // keyDark
	color.NRGBA{184, 196, 220, 255}, // keyLight
	color.NRGBA{255, 216, 72, 255},  // gold
	color.NRGBA{200, 136, 32, 255},  // goldEdge
	color.NRGBA{136, 196, 248, 255}, // sweat
	color.NRGBA{160, 152, 176, 255}, // speed
)
