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

func TestCheckPixels(t *testing.T) {
	for _, tc := range []struct {
		name       string
		img        *image.NRGBA
		w, h       int
		wantOpaque int
		wantErr    string
	}{
		{"one opaque pixel", sprite(6, 5), 6, 5, 1, ""},
		{"wrong size", sprite(6, 5), 5, 6, 0, "bounds"},
		{"off the origin", image.NewNRGBA(image.Rect(1, 1, 7, 6)), 6, 5, 0, "from the origin"},
		{"half alpha", func() *image.NRGBA {
			img := sprite(6, 5)
			img.SetNRGBA(2, 3, color.NRGBA{10, 20, 30, 128})
			return img
		}(), 6, 5, 0, "pixel (2,3) has alpha 128"},
		{"dirty background", func() *image.NRGBA {
			img := sprite(6, 5)
			img.SetNRGBA(4, 0, color.NRGBA{1, 0, 0, 0})
			return img
		}(), 6, 5, 0, "transparent pixel (4,0) has RGB 1,0,0"},
	} {
		opaque, err := CheckPixels(tc.img, tc.w, tc.h)
		if tc.wantErr == "" {
			if err != nil || opaque != tc.wantOpaque {
				t.Errorf("%s: %d opaque, %v; want %d, no error", tc.name, opaque, err, tc.wantOpaque)
			}
		} else if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestDecode(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, sprite(6, 5)); err != nil {
		t.Fatal(err)
	}
	img, err := Decode(b.Bytes(), 6, 5)
	if err != nil || img.NRGBAAt(1, 1) != (color.NRGBA{200, 100, 50, 255}) {
		t.Fatalf("Decode: %v, pixel (1,1) %v", err, img.NRGBAAt(1, 1))
	}
	if _, err := Decode(b.Bytes(), 5, 5); err == nil || !strings.Contains(err.Error(), "IHDR size") {
		t.Errorf("Decode at the wrong size: %v", err)
	}
	broken := append([]byte(nil), b.Bytes()[:40]...)
	if _, err := Decode(broken, 6, 5); err == nil || !strings.Contains(err.Error(), "decode") {
		t.Errorf("Decode of a cut file: %v", err)
	}
}
