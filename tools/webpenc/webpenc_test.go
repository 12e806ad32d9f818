package webpenc_test

import (
	"bytes"
	"image"
	"image/color"
	"math/rand"
	"testing"

	rwebp "github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/tools/webpenc"
	xwebp "golang.org/x/image/webp"
)

func fill(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, f(x, y))
		}
	}
	return img
}

func noise(w, h int, seed int64) *image.NRGBA {
	r := rand.New(rand.NewSource(seed))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r.Read(img.Pix)
	return img
}

func testImages() map[string]*image.NRGBA {
	return map[string]*image.NRGBA{
		"1x1":           fill(1, 1, func(x, y int) color.NRGBA { return color.NRGBA{1, 2, 3, 4} }),
		"1x1-clear":     fill(1, 1, func(x, y int) color.NRGBA { return color.NRGBA{} }),
		"single-colour": fill(17, 9, func(x, y int) color.NRGBA { return color.NRGBA{200, 10, 99, 255} }),
		"two-colour": fill(13, 7, func(x, y int) color.NRGBA {
			if (x+y)%2 == 0 {
				return color.NRGBA{255, 255, 255, 255}
			}
			return color.NRGBA{0, 0, 0, 0}
		}),
		// Transparent pixels that still carry colour must keep it.
		"transparent-rgb": fill(5, 3, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 40), uint8(y * 80), 7, 0} }),
		"odd-gradient": fill(31, 17, func(x, y int) color.NRGBA {
			return color.NRGBA{uint8(x * 8), uint8(y * 15), uint8(x * y), uint8(255 - x)}
		}),
		// Runs longer than one copy can be (4096 pixels), repeated rows
		// (a copy from one row up), a period no neighbour matches (the
		// hash chain), and a sprite enlarged by pixel replication.
		"flat-384x416": fill(384, 416, func(x, y int) color.NRGBA { return color.NRGBA{0, 0, 0, 0} }),
		"rows-1x500":   fill(1, 500, func(x, y int) color.NRGBA { return color.NRGBA{uint8(y % 3), 0, 0, 255} }),
		"period-7": fill(61, 40, func(x, y int) color.NRGBA {
			return color.NRGBA{uint8((x + 3*y) % 7 * 30), uint8(y / 5), 1, 255}
		}),
		"replicated-2x": fill(384, 416, func(x, y int) color.NRGBA {
			dx, dy := x/2-96, y/2-104
			if dx*dx+dy*dy < 60*60 {
				return color.NRGBA{uint8(x / 2), uint8(y / 2), 128, 255}
			}
			return color.NRGBA{}
		}),
		"noise-1x33":    noise(1, 33, 1),
		"noise-192x208": noise(192, 208, 2),
		"sprite-192x208": fill(192, 208, func(x, y int) color.NRGBA {
			dx, dy := x-96, y-104
			if dx*dx+dy*dy < 60*60 {
				return color.NRGBA{uint8(x), uint8(y), 128, 255}
			}
			return color.NRGBA{}
		}),
	}
}

func TestEncodeStillRoundTrip(t *testing.T) {
	for name, img := range testImages() {
		t.Run(name, func(t *testing.T) {
			data, err := webpenc.EncodeStill(img)
			if err != nil {
				t.Fatal(err)
			}
			got, err := xwebp.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("x/image: %v", err)
			}
			sameNRGBA(t, "x/image", img, got)
			frames, err := rwebp.DecodeFrames(data, rwebp.DefaultBudget())
			if err != nil {
				t.Fatalf("internal/webp: %v", err)
			}
			if len(frames) != 1 {
				t.Fatalf("internal/webp: %d frames, want 1", len(frames))
			}
			sameNRGBA(t, "internal/webp", img, frames[0].Image)
			again, _ := webpenc.EncodeStill(img)
			if !bytes.Equal(data, again) {
				t.Fatal("two encodings differ")
			}
		})
	}
}

// TestBackwardReferencesShrink: what a sprite preview is made of costs a
// small part of its 4 bytes a pixel. Literals alone cost at least 4 bits a
// pixel for the 2x2 blocks of a replicated gradient; copies of the row
// above and of the left pixel take that under 2.5.
func TestBackwardReferencesShrink(t *testing.T) {
	imgs := testImages()
	for _, tc := range []struct {
		name string
		max  int
	}{
		{"flat-384x416", 200},
		{"replicated-2x", 384 * 416 * 5 / 16},
	} {
		data, err := webpenc.EncodeStill(imgs[tc.name])
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > tc.max {
			t.Errorf("%s: %d bytes, want at most %d", tc.name, len(data), tc.max)
		}
	}
}

func TestEncodeAnimatedRoundTrip(t *testing.T) {
	var frames []image.Image
	var want []*image.NRGBA
	var durations []int
	for i := 0; i < 6; i++ {
		var img *image.NRGBA
		switch i % 3 {
		case 0:
			img = noise(192, 208, int64(i))
		case 1:
			img = fill(192, 208, func(x, y int) color.NRGBA { return color.NRGBA{9, 8, 7, 0} })
		default:
			img = fill(192, 208, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x + i), uint8(y), 0, uint8(x ^ y)} })
		}
		frames = append(frames, img)
		want = append(want, img)
		durations = append(durations, 50+i*97)
	}
	data, err := webpenc.EncodeAnimated(frames, durations, 3)
	if err != nil {
		t.Fatal(err)
	}
	f, err := rwebp.Parse(data, rwebp.DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	if !f.Animated || f.LoopCount != 3 || f.Width != 192 || f.Height != 208 || len(f.Frames) != 6 {
		t.Fatalf("parsed %+v", f)
	}
	got, err := rwebp.DecodeFrames(data, rwebp.DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	for i, fr := range got {
		if fr.Duration != durations[i] || fr.X != 0 || fr.Y != 0 {
			t.Errorf("frame %d: duration %d at (%d,%d), want %d at (0,0)", i, fr.Duration, fr.X, fr.Y, durations[i])
		}
		sameNRGBA(t, "internal/webp", want[i], fr.Image)
		// Decode the frame's own bitstream with x/image as a still file.
		still := wrapVP8L(f.Frames[i].Bitstream)
		xi, err := xwebp.Decode(bytes.NewReader(still))
		if err != nil {
			t.Fatalf("x/image frame %d: %v", i, err)
		}
		sameNRGBA(t, "x/image", want[i], xi)
	}
	again, _ := webpenc.EncodeAnimated(frames, durations, 3)
	if !bytes.Equal(data, again) {
		t.Fatal("two encodings differ")
	}
}

func TestEncodeAnimatedErrors(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	b := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	tests := []struct {
		name      string
		frames    []image.Image
		durations []int
		loop      int
	}{
		{"no frames", nil, nil, 0},
		{"durations mismatch", []image.Image{a}, []int{1, 2}, 0},
		{"sizes differ", []image.Image{a, b}, []int{1, 2}, 0},
		{"negative duration", []image.Image{a}, []int{-1}, 0},
		{"duration too long", []image.Image{a}, []int{1 << 24}, 0},
		{"loop too large", []image.Image{a}, []int{1}, 70000},
	}
	for _, tc := range tests {
		if _, err := webpenc.EncodeAnimated(tc.frames, tc.durations, tc.loop); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := webpenc.EncodeStill(image.NewNRGBA(image.Rect(0, 0, 0, 5))); err == nil {
		t.Error("empty image: no error")
	}
}

func wrapVP8L(b []byte) []byte {
	n := len(b) + len(b)%2
	out := append([]byte("RIFF"), byte(4+8+n), byte((4+8+n)>>8), byte((4+8+n)>>16), byte((4+8+n)>>24))
	out = append(out, "WEBPVP8L"...)
	out = append(out, byte(len(b)), byte(len(b)>>8), byte(len(b)>>16), byte(len(b)>>24))
	out = append(out, b...)
	if len(b)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

func sameNRGBA(t *testing.T, who string, want *image.NRGBA, got image.Image) {
	t.Helper()
	g, ok := got.(*image.NRGBA)
	if !ok {
		t.Fatalf("%s: decoded %T, want *image.NRGBA", who, got)
	}
	if g.Rect.Dx() != want.Rect.Dx() || g.Rect.Dy() != want.Rect.Dy() {
		t.Fatalf("%s: size %v, want %v", who, g.Rect, want.Rect)
	}
	for y := 0; y < want.Rect.Dy(); y++ {
		for x := 0; x < want.Rect.Dx(); x++ {
			if a, b := g.NRGBAAt(g.Rect.Min.X+x, g.Rect.Min.Y+y), want.NRGBAAt(x, y); a != b {
				t.Fatalf("%s: pixel (%d,%d) = %v, want %v", who, x, y, a, b)
			}
		}
	}
}

// TestAssembleAnimatedMatchesEncodeAnimated: assembling separately encoded
// frames, a repeated one passed twice, gives EncodeAnimated's bytes.
func TestAssembleAnimatedMatchesEncodeAnimated(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	b := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	for i := range a.Pix {
		a.Pix[i] = byte(i * 7)
		b.Pix[i] = byte(255 - i)
	}
	want, err := webpenc.EncodeAnimated([]image.Image{a, b, a}, []int{100, 250, 100}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := webpenc.EncodeVP8L(a)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := webpenc.EncodeVP8L(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := webpenc.AssembleAnimated(5, 3, true, [][]byte{ba, bb, ba}, []int{100, 250, 100}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("AssembleAnimated differs from EncodeAnimated")
	}
	if _, err := webpenc.AssembleAnimated(0, 3, true, [][]byte{ba}, []int{1}, 0); err == nil {
		t.Error("a zero width was accepted")
	}
}
