package webp

import (
	"image"
	"io"
)

// SetDecoderForTest swaps the single-image decoder and returns a restore
// function, so a test can stand in for a panicking x/image.
func SetDecoderForTest(f func(io.Reader) (image.Image, error)) (restore func()) {
	old := decodeImage
	decodeImage = f
	return func() { decodeImage = old }
}
