// Package spritepng is what the repository's deterministic sprite
// generators (dev/cmd/petsprites, dev/cmd/petframes) share about the
// PNG files they check in: how they are written, so a rerun gives the same
// bytes, and the header every one of them must have.
package spritepng

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"

	"github.com/agentpet/rules_pet/internal/durable"
)

// Write replaces path with img encoded by image/png at its default level,
// so the same program gives the same bytes, never leaving half a file.
func Write(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return durable.Write(path, b.Bytes(), 0o644)
}

// CheckHeader reports whether data starts with a PNG signature and an IHDR
// chunk for a w x h, 8-bit RGBA (colour type 6), non-interlaced image: what
// image/png writes for an *image.NRGBA with transparency, and what the
// pack converter and the .petpack cover rule expect of a sprite.
func CheckHeader(data []byte, w, h int) error {
	if len(data) < 29 || string(data[:8]) != "\x89PNG\r\n\x1a\n" || string(data[12:16]) != "IHDR" {
		return fmt.Errorf("not a PNG starting with IHDR")
	}
	gw, gh := binary.BigEndian.Uint32(data[16:]), binary.BigEndian.Uint32(data[20:])
	if int64(gw) != int64(w) || int64(gh) != int64(h) {
		return fmt.Errorf("IHDR size %dx%d, want %dx%d", gw, gh, w, h)
	}
	if depth, ctype, interlace := data[24], data[25], data[28]; depth != 8 || ctype != 6 || interlace != 0 {
		return fmt.Errorf("IHDR bit depth %d, colour type %d, interlace %d; want 8, 6, 0", depth, ctype, interlace)
	}
	return nil
}

// Decode checks data's header with CheckHeader and decodes it into the
// *image.NRGBA image/png returns for such a file.
func Decode(data []byte, w, h int) (*image.NRGBA, error) {
	if err := CheckHeader(data, w, h); err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	nrgba, ok := img.(*image.NRGBA)
	if !ok {
		return nil, fmt.Errorf("decoded as %T, want *image.NRGBA", img)
	}
	return nrgba, nil
}

// CheckPixels reports whether img is w x h from the origin with every pixel
// either fully opaque or fully transparent with RGB 0, and counts the opaque
// ones. A pack keeps a pixel when its alpha is at least 128 and reduces its
// colour to RGB565, so crisp alpha and a clean background are what keep the
// drawn shapes exactly.
func CheckPixels(img *image.NRGBA, w, h int) (opaque int, err error) {
	if b := img.Bounds(); b.Min != (image.Point{}) || b.Dx() != w || b.Dy() != h {
		return 0, fmt.Errorf("bounds %v, want %dx%d from the origin", b, w, h)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			switch c := img.NRGBAAt(x, y); {
			case c.A == 255:
				opaque++
			case c.A != 0:
				return 0, fmt.Errorf("pixel (%d,%d) has alpha %d, want 0 or 255", x, y, c.A)
			case c.R != 0 || c.G != 0 || c.B != 0:
				return 0, fmt.Errorf("transparent pixel (%d,%d) has RGB %d,%d,%d, want 0,0,0", x, y, c.R, c.G, c.B)
			}
		}
	}
	return opaque, nil
}
