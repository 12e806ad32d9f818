package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/dev/spritepng"
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
		nrgba, err := spritepng.Decode(data, Size, Size)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
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
			t.Errorf("committed sprite %s: %v; rerun `go run ./dev/cmd/petsprites -out assets/pet/sprites` from the repository root", file, err)
			continue
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("assets/pet/sprites/%s differs from the generator's output; rerun `go run ./dev/cmd/petsprites -out assets/pet/sprites` from the repository root", file)
		}
	}
}

// checkPixels checks the size, the crisp alpha, the clean transparent
// background and the opaque coverage of img.
func checkPixels(t *testing.T, file string, img *image.NRGBA) {
	t.Helper()
	opaque, err := spritepng.CheckPixels(img, Size, Size)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
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
