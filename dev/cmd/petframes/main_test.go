package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentpet/rules_pet/dev/spritepng"
	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// committedDir holds the checked-in frames, relative to this package.
const committedDir = "../../../assets/petpack/frames"

const regenerate = "rerun `go run ./dev/cmd/petframes -out assets/petpack/frames` from the repository root (and update the golden: bazel run //assets/petpack:golden.update)"

func TestActionsMatchDefaultTiming(t *testing.T) {
	want := model.DefaultStates()
	if len(Actions) != len(want) {
		t.Fatalf("%d actions, want the nine of the contract", len(Actions))
	}
	total := 0
	for i, a := range Actions {
		if a.Name != string(want[i].Name) {
			t.Errorf("action %d is %q, want %q", i, a.Name, want[i].Name)
		}
		if a.Frames != len(want[i].FrameDurationsMS) {
			t.Errorf("%s: %d frames, want the default timing's %d", a.Name, a.Frames, len(want[i].FrameDurationsMS))
		}
		frames, err := Render(a.Name)
		if err != nil {
			t.Fatalf("Render(%q): %v", a.Name, err)
		}
		if len(frames) != a.Frames {
			t.Errorf("Render(%q) drew %d frames, want %d", a.Name, len(frames), a.Frames)
		}
		total += len(frames)
	}
	if total != 50 {
		t.Errorf("%d frames in all, want 50", total)
	}
}

// TestGenerate regenerates every frame into a temporary directory, checks
// each one and compares the files with the checked-in ones byte for byte.
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	// A stale frame from a longer sequence must disappear.
	if err := os.MkdirAll(filepath.Join(dir, "idle"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "idle", "0099.png"), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Generate(dir); err != nil {
		t.Fatalf("Generate: %v", err)
	}

	all := make(map[string]string) // pixels -> action/file
	for _, a := range Actions {
		names := pngNames(t, filepath.Join(dir, a.Name))
		var want []string
		for i := 0; i < a.Frames; i++ {
			want = append(want, FrameName(i))
		}
		if !equalStrings(names, want) {
			t.Fatalf("%s: Generate wrote %v, want %v", a.Name, names, want)
		}

		var frames []*image.NRGBA
		for _, name := range names {
			file := a.Name + "/" + name
			data, err := os.ReadFile(filepath.Join(dir, a.Name, name))
			if err != nil {
				t.Fatal(err)
			}
			nrgba, err := spritepng.Decode(data, Width, Height)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			checkPixels(t, file, nrgba)
			if other, dup := all[string(nrgba.Pix)]; dup {
				t.Errorf("%s has the same pixels as %s; every frame must be drawn, not repeated", file, other)
			}
			all[string(nrgba.Pix)] = file
			frames = append(frames, nrgba)
		}

		// Adjacent frames, and the last and the first (every mode repeats or
		// returns through them), must differ visibly.
		for i := range frames {
			j := (i + 1) % len(frames)
			n := changed(frames[i], frames[j])
			if n*1000 < Width*Height*2 {
				t.Errorf("%s: frames %s and %s differ in %d pixels, want at least 0.2%% of the canvas", a.Name, FrameName(i), FrameName(j), n)
			}
			t.Logf("%s: %s -> %s: %d pixels change", a.Name, FrameName(i), FrameName(j), n)
		}
	}

	for _, a := range Actions {
		names := pngNames(t, filepath.Join(committedDir, a.Name))
		fresh := pngNames(t, filepath.Join(dir, a.Name))
		if !equalStrings(names, fresh) {
			t.Errorf("assets/petpack/frames/%s holds %v, the generator writes %v; %s", a.Name, names, fresh, regenerate)
			continue
		}
		for _, name := range names {
			got, err := os.ReadFile(filepath.Join(dir, a.Name, name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(committedDir, a.Name, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("assets/petpack/frames/%s/%s differs from the generator's output; %s", a.Name, name, regenerate)
			}
		}
	}
}

// pngNames lists the .png files of dir, sorted.
func pngNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v; %s", err, regenerate)
	}
	var names []string
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".png" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// changed counts the pixels that differ between a and b.
func changed(a, b *image.NRGBA) int {
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if !bytes.Equal(a.Pix[i:i+4], b.Pix[i:i+4]) {
			n++
		}
	}
	return n
}

// checkPixels checks the size, the crisp alpha, the clean transparent
// background, the coverage (well inside the contract's 1% visible and 1%
// transparent) and that nothing visible touches the edge of the canvas
// (a clipped pose).
func checkPixels(t *testing.T, file string, img *image.NRGBA) {
	t.Helper()
	opaque, err := spritepng.CheckPixels(img, Width, Height)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if img.NRGBAAt(x, y).A != 0 && (x < 2 || y < 2 || x >= Width-2 || y >= Height-2) {
				t.Errorf("%s: visible pixel (%d,%d) within 2 pixels of the edge; the pose would look clipped", file, x, y)
				return
			}
		}
	}
	total := Width * Height
	if opaque*100 < total*15 || opaque*100 > total*85 {
		t.Errorf("%s: %d of %d pixels visible (%.1f%%), want between 15%% and 85%%", file, opaque, total, 100*float64(opaque)/float64(total))
	}
}

func TestRenderUnknown(t *testing.T) {
	if _, err := Render("start"); err == nil {
		t.Fatal("Render of an action that is not one of the nine succeeded")
	}
}
