package webp_test

import (
	"encoding/binary"
	"image"
	"image/color"
	"testing"

	"github.com/agentpet/rules_pet/tools/webpenc"
)

type ck struct {
	id      string
	payload []byte
	noPad   bool
	pad     byte
}

// riff builds a RIFF WEBP file from chunks, padding odd ones unless told
// not to, with a RIFF size that matches.
func riff(chunks ...ck) []byte {
	var body []byte
	for _, c := range chunks {
		body = append(body, chunkBytes(c)...)
	}
	out := []byte("RIFF\x00\x00\x00\x00WEBP")
	binary.LittleEndian.PutUint32(out[4:], uint32(4+len(body)))
	return append(out, body...)
}

func chunkBytes(c ck) []byte {
	out := append([]byte(c.id), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(c.payload)))
	out = append(out, c.payload...)
	if len(c.payload)%2 == 1 && !c.noPad {
		out = append(out, c.pad)
	}
	return out
}

func vp8x(flags byte, w, h int) ck {
	p := make([]byte, 10)
	p[0] = flags
	put24(p[4:], w-1)
	put24(p[7:], h-1)
	return ck{id: "VP8X", payload: p}
}

func anim(loop int) ck {
	p := make([]byte, 6)
	binary.LittleEndian.PutUint16(p[4:], uint16(loop))
	return ck{id: "ANIM", payload: p}
}

func anmf(x, y, w, h, dur int, flags byte, subs ...ck) ck {
	p := make([]byte, 16)
	put24(p[0:], x/2)
	put24(p[3:], y/2)
	put24(p[6:], w-1)
	put24(p[9:], h-1)
	put24(p[12:], dur)
	p[15] = flags
	for _, s := range subs {
		p = append(p, chunkBytes(s)...)
	}
	return ck{id: "ANMF", payload: p}
}

func put24(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }

func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 7), uint8(y * 5), uint8(x ^ y), uint8(x + y)})
		}
	}
	return img
}

func vp8lOf(t testing.TB, img image.Image) []byte {
	t.Helper()
	b, err := webpenc.EncodeVP8L(img)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
