package motionqa

import (
	"image"

	"github.com/agentpet/rules_pet/tools/webpenc"
)

// vp8l is one frame encoded for an animated preview.
type vp8l struct {
	bits  []byte
	alpha bool
}

func encodeFrame(img *image.NRGBA) (vp8l, error) {
	bits, err := webpenc.EncodeVP8L(img)
	if err != nil {
		return vp8l{}, err
	}
	alpha := false
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 255 {
			alpha = true
			break
		}
	}
	return vp8l{bits, alpha}, nil
}

// animation assembles encoded frames, a frame repeated by repeating it.
func animation(w, h int, frames []vp8l, durations []int) ([]byte, error) {
	bits := make([][]byte, len(frames))
	alpha := false
	for i, f := range frames {
		bits[i] = f.bits
		alpha = alpha || f.alpha
	}
	return webpenc.AssembleAnimated(w, h, alpha, bits, durations, 0)
}
