package spritepng

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sprite(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.SetNRGBA(1, 1, color.NRGBA{200, 100, 50, 255})
	return img
}

func TestWriteIsDeterministicAndChecked(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	if err := Write(a, sprite(6, 5)); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, sprite(6, 5)); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) || len(da) == 0 {
		t.Fatal("two writes of one image differ")
	}
	if err := CheckHeader(da, 6, 5); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("%d files in the directory, want the two PNGs and no temporary file", len(entries))
	}
}

func TestCheckHeaderRejects(t *testing.T) {
	var grey bytes.Buffer
	png.Encode(&grey, image.NewGray(image.Rect(0, 0, 6, 5)))
	good := func() []byte {
		var b bytes.Buffer
		png.Encode(&b, sprite(6, 5))
		return b.Bytes()
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a PNG"},
		{"signature", append([]byte("\x89PNX"), good()[4:]...), "not a PNG"},
		{"size", good(), "IHDR size 6x5, want 6x6"},
		{"grey", grey.Bytes(), "colour type 0"},
	} {
		h := 5
		if tc.name == "size" {
			h = 6
		}
		if err := CheckHeader(tc.data, 6, h); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
