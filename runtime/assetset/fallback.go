package assetset

// RGB is an 8-bit-per-channel colour.
type RGB struct {
	R, G, B uint8
}

// RGB565 reduces c to the pack's pixel encoding: red in the five most
// significant bits, green in the middle six, blue in the low five. Low bits
// are discarded by a shift, exactly as the pack converter does (pack contract
// section 12), so the fallback drawn on a device matches a converted sprite
// of the same colour.
func (c RGB) RGB565() uint16 {
	return uint16(c.R>>3)<<11 | uint16(c.G>>2)<<5 | uint16(c.B>>3)
}

// RGB565Bytes returns RGB565 high byte first, the order the pack stores
// pixels and an ST7789 panel consumes over SPI (pack contract section 7.1).
func (c RGB) RGB565Bytes() [2]byte {
	v := c.RGB565()
	return [2]byte{byte(v >> 8), byte(v)}
}

// FallbackPresentation is what a frontend shows when no asset set is
// accepted: one solid colour held for one frame duration, with no text or
// glyph (manifest contract section 9).
type FallbackPresentation struct {
	// Colour fills the pet's area.
	Colour RGB
	// DurationMS is the single frame's duration, inside the manifest's 1 to
	// 60000 ms range so it schedules like any one-frame animation.
	DurationMS uint32
}

// BuiltinFallback is the built-in presentation, the same whatever failed.
// Frontends treat it as read-only.
//
// The colour is a soft, muted blue-teal (#5B8FA8). It has to read as a pet at
// rest, not as an error: red, orange and yellow are the warning colours and
// saturated hues draw the eye, so the choice is a cool hue at moderate
// lightness and low saturation that stays visible on both light and dark
// backgrounds. Its RGB565 reduction (0x5C75) keeps the same character on a
// 16-bit panel. The 1000 ms duration matches the canonical anim_fallback
// frame, so the two resting presentations pace the same.
var BuiltinFallback = FallbackPresentation{
	Colour:     RGB{R: 0x5B, G: 0x8F, B: 0xA8},
	DurationMS: 1000,
}
