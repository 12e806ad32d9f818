package desktop

import (
	"image"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

func TestRenderScale(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(img.Pix, []byte{1, 2, 3, 255, 4, 5, 6, 0})
	got := Render(img, 1, 2)
	want := []byte{
		1, 2, 3, 255, 1, 2, 3, 255, 4, 5, 6, 0, 4, 5, 6, 0,
		1, 2, 3, 255, 1, 2, 3, 255, 4, 5, 6, 0, 4, 5, 6, 0,
	}
	if got.Rect.Dx() != 4 || got.Rect.Dy() != 2 || !reflect.DeepEqual(got.Pix, want) {
		t.Fatalf("Render x2 = %dx%d %v", got.Rect.Dx(), got.Rect.Dy(), got.Pix)
	}
}

// TestRenderPress: a 100x100 frame pressed to 0.97 is 97x97, flush with the
// bottom, left edge at 1; its last row is the source's last row.
func TestRenderPress(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 100, 100))
	for y := 0; y < 100; y++ {
		for x := 0; x < 100; x++ {
			o := y*img.Stride + 4*x
			img.Pix[o], img.Pix[o+1], img.Pix[o+3] = uint8(x), uint8(y), 255
		}
	}
	got := Render(img, 0.97, 1)
	for _, tc := range []struct {
		x, y  int
		shown bool
		r, g  uint8
	}{
		{0, 99, false, 0, 0},   // left of the picture
		{1, 2, false, 0, 0},    // above it
		{1, 3, true, 0, 0},     // its top-left: source (0, 0)
		{97, 99, true, 98, 98}, // its bottom-right: source (96*100/97, 96*100/97)
		{98, 99, false, 0, 0},  // right of it
	} {
		o := tc.y*got.Stride + 4*tc.x
		shown := got.Pix[o+3] >= 128
		if shown != tc.shown || shown && (got.Pix[o] != tc.r || got.Pix[o+1] != tc.g) {
			t.Errorf("(%d, %d): shown=%v rgb=%v, want shown=%v r=%d g=%d", tc.x, tc.y, shown, got.Pix[o:o+3], tc.shown, tc.r, tc.g)
		}
	}
}

func TestHeld(t *testing.T) {
	m := &manifest.Manifest{
		Animations: []manifest.Animation{{FirstFrame: 0, FrameCount: 2}, {FirstFrame: 2, FrameCount: 2}, {FirstFrame: 4, FrameCount: 1}},
		Frames:     []manifest.Frame{{Image: 0}, {Image: 0}, {Image: 0}, {Image: 1}, {Image: 2}},
	}
	for a, want := range []bool{true, false, true} {
		if got := Held(m, a); got != want {
			t.Errorf("Held(animation %d) = %v, want %v", a, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Build ok", []string{"Build ok"}},
		{"Build green", []string{"Build", "green"}},
		{"", []string{""}},
		{"one two three four five six", []string{"one two", "three four", "five six"}},
		{"abcdefghijklmnop", []string{"abcdefghij", "klmnop"}},
	} {
		if got := wrap(tc.text, 10); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("wrap(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	// RenderBubble's size follows the wrapped lines: 7x13 glyphs, padding
	// and border.
	img := RenderBubble(strings.Repeat("x", 30))
	if img.Rect.Dx() != 28*7+2*bubblePad+2 || img.Rect.Dy() != 2*13+2*bubblePad+2 {
		t.Fatalf("bubble of 30 characters is %v", img.Rect)
	}
}
