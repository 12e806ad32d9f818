package pixelart

import (
	"image/color"
)

// Ink is an index into a Palette; None, ink 0, is the transparent
// background.
type Ink uint8

// The inks of the orange tabby, the same cat in every generator's art.
const (
	None Ink = iota
	Outline
	Fur
	FurShade
	Cream
	EarPink
	Nose
	White
	Pupil
	MouthRed
	Tongue
	Blush
	// CatInks is the number of the cat's inks, and so the first ink a
	// generator gives a colour of its own (see CatPalette).
	CatInks
)

// Palette gives each ink its colour: ink k is Palette[k].
type Palette []color.NRGBA

// cat holds the tabby's flat colours, chosen to stay distinct after the
// pack's reduction to RGB565.
var cat = [CatInks]color.NRGBA{
	None:     {0, 0, 0, 0},
	Outline:  {48, 32, 40, 255},
	Fur:      {248, 168, 72, 255},
	FurShade: {216, 120, 48, 255},
	Cream:    {255, 236, 200, 255},
	EarPink:  {248, 152, 160, 255},
	Nose:     {232, 96, 120, 255},
	White:    {255, 255, 255, 255},
	Pupil:    {32, 24, 48, 255},
	MouthRed: {176, 48, 72, 255},
	Tongue:   {248, 128, 144, 255},
	Blush:    {255, 136, 152, 255},
}

// CatPalette returns a new palette of the cat's colours followed by extra:
// extra[i] is the colour of ink CatInks+i.
func CatPalette(extra ...color.NRGBA) Palette {
	p := make(Palette, 0, len(cat)+len(extra))
	p = append(p, cat[:]...)
	return append(p, extra...)
}
