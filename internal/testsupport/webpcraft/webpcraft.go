// Package webpcraft writes VP8L streams that tests need and the encoder
// would never produce: a blank stream of any size in a few bytes, and the
// hostile stream the WebP readers must refuse before decoding. Both the
// WebP parser's tests and the .petpack validator's use them, so the
// attack they are held against is one stream, not two copies of it.
package webpcraft

import "github.com/agentpet/rules_pet/tools/webpenc"

// header starts a w by h VP8L stream with no transform and no colour cache.
func header(w, h int, alpha bool) *webpenc.BitWriter {
	var b webpenc.BitWriter
	b.Write(0x2f, 8)
	b.Write(uint32(w-1), 14)
	b.Write(uint32(h-1), 14)
	if alpha {
		b.Write(1, 1)
	} else {
		b.Write(0, 1)
	}
	b.Write(0, 3) // version
	b.Write(0, 1) // no transform
	b.Write(0, 1) // no colour cache
	return &b
}

// oneSymbol writes a simple prefix code of one 8-bit symbol, which costs
// no bits per use.
func oneSymbol(b *webpenc.BitWriter, sym uint32) {
	b.Write(1, 1)
	b.Write(0, 1)
	b.Write(1, 1)
	b.Write(sym, 8)
}

// BlankVP8L is a complete w by h VP8L stream of transparent black in a few
// bytes: every code has one symbol, so the pixels cost nothing.
func BlankVP8L(w, h int) []byte {
	b := header(w, h, false)
	b.Write(0, 1) // no meta prefix codes
	for i := 0; i < 5; i++ {
		oneSymbol(b, 0)
	}
	return b.Bytes()
}

// HostileVP8L is CVE-2026-46603's shape: a valid w by h stream (w and h at
// most 512, one entropy tile) whose entropy image points every tile at
// group 0xffff, so golang.org/x/image/webp v0.24.0 allocates 65536
// prefix-code groups (about 175 MiB) and reads 65536*5 one-symbol trees at
// 4 bits each, from 160 KiB.
func HostileVP8L(w, h int) []byte {
	b := header(w, h, true)
	b.Write(1, 1) // meta prefix codes
	b.Write(7, 3) // tile bits 9: one tile
	// Entropy image: a one-group sub-image whose pixel is R=0xff G=0xff.
	b.Write(0, 1)      // no colour cache
	oneSymbol(b, 0xff) // green
	oneSymbol(b, 0xff) // red
	oneSymbol(b, 0)    // blue
	oneSymbol(b, 0)    // alpha
	oneSymbol(b, 0)    // distance
	for i := 0; i < 65536*5; i++ {
		// A simple code, one symbol, 1-bit symbol 0.
		b.Write(1, 1)
		b.Write(0, 1)
		b.Write(0, 1)
		b.Write(0, 1)
	}
	return b.Bytes()
}
