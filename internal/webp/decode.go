package webp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"

	xwebp "golang.org/x/image/webp"
)

// Frame is one decoded frame.
type Frame struct {
	// Image holds the frame's own pixels (not composited onto the canvas);
	// its bounds start at (0, 0).
	Image image.Image
	// X and Y are the frame's offset on the canvas.
	X, Y int
	// Duration is the ANMF duration in milliseconds (0 for a still image).
	Duration int
}

// decodeImage is the single-image decoder, a variable so tests can make it
// panic the way GO-2026-5061 does.
var decodeImage = xwebp.Decode

// DecodeFrames validates data with Parse and then decodes every frame, of
// an animated file or the single image of a still one. Each frame is
// decoded by golang.org/x/image/webp from a standalone RIFF WEBP built
// around its bitstream, only after the pre-pass has bounded its cost; a
// decoder panic becomes a RuleDecoderPanic rejection. All frames are held
// at once (within Budget.MaxDecodedBytes); DecodeEach holds one.
func DecodeFrames(data []byte, budget Budget) ([]Frame, error) {
	var out []Frame
	err := DecodeEach(data, budget, func(_ int, fr Frame) error {
		out = append(out, fr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DecodeEach is DecodeFrames for a caller that looks at one frame at a
// time: it validates data with Parse, then decodes the frames in file
// order and passes each to fn, keeping no reference to it, so a validator
// that only needs to know every frame decodes holds one frame's pixels at
// a time rather than up to Budget.MaxDecodedBytes. An error from fn stops
// decoding and is returned as it is.
func DecodeEach(data []byte, budget Budget, fn func(i int, fr Frame) error) error {
	budget = budget.withDefaults()
	f, e := parse(data, budget)
	if e != nil {
		return e
	}
	for i, fr := range f.Frames {
		img, err := decodeOne(standalone(fr))
		if err != nil {
			if we, ok := err.(*Error); ok {
				we.Msg = fmt.Sprintf("frame %d: %s", i, we.Msg)
				return we
			}
			return &Error{Rule: RuleDecodeFailed, Msg: fmt.Sprintf("frame %d: %v", i, err), Err: err}
		}
		b := img.Bounds()
		if b.Dx() != fr.Width || b.Dy() != fr.Height {
			return reject(RuleDecodeFailed, "frame %d decoded to %dx%d, header says %dx%d", i, b.Dx(), b.Dy(), fr.Width, fr.Height)
		}
		if err := fn(i, Frame{Image: img, X: fr.X, Y: fr.Y, Duration: fr.Duration}); err != nil {
			return err
		}
	}
	return nil
}

func decodeOne(b []byte) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, reject(RuleDecoderPanic, "decoder panicked: %v", r)
		}
	}()
	return decodeImage(bytes.NewReader(b))
}

// standalone wraps one frame's bitstream as a RIFF WEBP file that x/image
// accepts: VP8L or VP8 alone, or VP8X (alpha flag) + ALPH + VP8, because
// x/image reads ALPH only after a VP8X that announces it.
func standalone(fr FrameInfo) []byte {
	var body []byte
	put := func(id string, p []byte) {
		var h [8]byte
		copy(h[:], id)
		binary.LittleEndian.PutUint32(h[4:], uint32(len(p)))
		body = append(body, h[:]...)
		body = append(body, p...)
		if len(p)%2 == 1 {
			body = append(body, 0)
		}
	}
	switch {
	case fr.Lossless:
		put("VP8L", fr.Bitstream)
	case fr.Alpha != nil:
		x := make([]byte, 10)
		x[0] = flagAlpha
		w, h := fr.Width-1, fr.Height-1
		x[4], x[5], x[6] = byte(w), byte(w>>8), byte(w>>16)
		x[7], x[8], x[9] = byte(h), byte(h>>8), byte(h>>16)
		put("VP8X", x)
		put("ALPH", fr.Alpha)
		put("VP8 ", fr.Bitstream)
	default:
		put("VP8 ", fr.Bitstream)
	}
	out := make([]byte, 12, 12+len(body))
	copy(out, "RIFF")
	binary.LittleEndian.PutUint32(out[4:], uint32(4+len(body)))
	copy(out[8:], "WEBP")
	return append(out, body...)
}
