// Package assetpackbuildtest makes already-reduced images for tests that encode
// packs without PNGs (the pack reader's tests, the shared firmware vectors),
// so both build the same packs from the same pixels.
package assetpackbuildtest

import (
	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

// Synth is a deterministic width by height image with a transparent pixel
// in every five, encoded as the converter would (colour zero under a clear
// mask bit, trailing mask bits zero).
func Synth(w, h, seed int) assetpackbuild.Image {
	im := assetpackbuild.Image{Width: w, Height: h, Colour: make([]byte, assetpackformat.ColourLength(w, h)), Mask: make([]byte, assetpackformat.MaskLength(w, h))}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if (x*7+y*3+seed)%5 == 0 {
				continue
			}
			v := uint16(x*31+y*17+seed*101) | 1
			i := (y*w + x) * 2
			im.Colour[i], im.Colour[i+1] = byte(v>>8), byte(v)
			im.Mask[y*((w+7)/8)+x/8] |= 0x80 >> (x % 8)
		}
	}
	return im
}

// LimitsImages gives the 32 images of manifesttest.Limits sizes of 1x1,
// 1024x1, 1x1024 and 9x2 in turn: both dimension bounds and a mask row
// that spills into a second byte.
func LimitsImages() []assetpackbuild.Image {
	dims := [...][2]int{{1, 1}, {1024, 1}, {1, 1024}, {9, 2}}
	var images []assetpackbuild.Image
	for i := 0; i < manifest.MaxImages; i++ {
		d := dims[i%len(dims)]
		images = append(images, Synth(d[0], d[1], i))
	}
	return images
}
