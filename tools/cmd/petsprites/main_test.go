package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/tools/internal/spritepng"
)

// committedDir holds the checked-in sprites, relative to this package.
const committedDir = "../../../assets/pet/sprites"

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir); err != nil {
		t.Fatalf("Generate: %v", err)
	}

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(Sprites) || len(Sprites) != 5 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("Generate wrote %d files %v, want the 5 sprites %v", len(entries), names, Sprites)
	}

	pixels := make(map[string][]byte)
	for _, name := range Sprites {
		file := name + ".png"
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := spritepng.CheckHeader(data, Size, Size); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: decode: %v", file, err)
		}
		nrgba, ok := img.(*image.NRGBA)
		if !ok {
			t.Fatalf("%s: decoded as %T, want *image.NRGBA", file, img)
		}
		checkPixels(t, file, nrgba)
		pixels[name] = nrgba.Pix
	}

	for i, a := range Sprites {
		for _, b := range Sprites[i+1:] {
			if bytes.Equal(pixels[a], pixels[b]) {
				t.Errorf("%s.png and %s.png have identical pixels; every pose must look different", a, b)
			}
		}
	}

	for _, name := range Sprites {
		file := name + ".png"
		fresh, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join(committedDir, file))
		if err != nil {
			t.Errorf("committed sprite %s: %v; rerun `go run ./tools/cmd/petsprites -out assets/pet/sprites` from the repository root", file, err)
			continue
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("assets/pet/sprites/%s differs from the generator's output; rerun `go run ./tools/cmd/petsprites -out assets/pet/sprites` from the repository root", file)
		}
	}
}

// checkPixels checks the size, the crisp alpha, the clean transparent
// background and the opaque coverage of img.
func checkPixels(t *testing.T, file string, img *image.NRGBA) {
	t.Helper()
	b := img.Bounds()
	if b.Min != (image.Point{}) || b.Dx() != Size || b.Dy() != Size {
		t.Fatalf("%s: bounds %v, want %dx%d from the origin", file, b, Size, Size)
	}
	opaque := 0
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			c := img.NRGBAAt(x, y)
			switch c.A {
			case 255:
				opaque++
			case 0:
				if c.R != 0 || c.G != 0 || c.B != 0 {
					t.Fatalf("%s: transparent pixel (%d,%d) has RGB %d,%d,%d, want 0,0,0", file, x, y, c.R, c.G, c.B)
				}
			default:
				t.Fatalf("%s: pixel (%d,%d) has alpha %d, want 0 or 255", file, x, y, c.A)
			}
		}
	}
	total := Size * Size
	if opaque*100 < total*15 || opaque*100 > total*85 {
		t.Errorf("%s: %d of %d pixels opaque (%.1f%%), want between 15%% and 85%%", file, opaque, total, 100*float64(opaque)/float64(total))
	}
	t.Logf("%s: %.1f%% opaque", file, 100*float64(opaque)/float64(total))
}

func TestRenderUnknown(t *testing.T) {
	if _, err := Render("nope"); err == nil {
		t.Fatal("Render of an unknown sprite succeeded")
	}
}
