package petpackbuild

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

func pngBytes(t *testing.T, w, h, seed int) []byte {
	t.Helper()
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := h / 4; y < 3*h/4; y++ {
		for x := w/4 + seed%8; x < 3*w/4; x++ {
			im.SetNRGBA(x, y, color.NRGBA{uint8(40 + seed*3), 120, 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writePackage writes a package source directory at the creation defaults
// of the contract's section 4, with metadata from Metadata and neither
// previews nor build/validation.json: the writer makes those.
func writePackage(t *testing.T, dir string) { writeTierPackage(t, dir, petpack.QualityLow) }

// writeTierPackage is writePackage at another quality tier.
func writeTierPackage(t *testing.T, dir string, q petpack.Quality) {
	t.Helper()
	size, _ := q.RenderSize()
	m := petpack.Manifest{
		SchemaVersion: petpack.SchemaVersion,
		ID:            "pet_build01",
		Name:          "Build Cat",
		Style:         "flat pixel art",
		Quality:       q,
		RenderSize:    size,
		States:        petpack.DefaultStates(),
		CreatedAt:     "2026-01-02T03:04:05Z",
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := Metadata(&m, Producer{Generator: "petpackbuild_test", Provenance: "deterministic", Description: "A small cat."}, nil).Files()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"manifest.json":    mj,
		"source/prompt.md": []byte("A small cat.\n"),
	}
	for _, f := range meta {
		// The writer makes build/validation.json; a source's own is
		// replaced, which TestBuildReplacesValidation shows.
		if f.Path != validationPath {
			files[f.Path] = f.Data
		}
	}
	seed := 0
	for _, s := range m.States {
		for i := range s.FrameDurationsMS {
			files[fmt.Sprintf("%s/%04d.png", s.FramesDir, i)] = pngBytes(t, size.Width, size.Height, seed)
			seed++
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "source", "references"), 0o700); err != nil {
		t.Fatal(err)
	}
}

func TestBuildDeterministic(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "elsewhere", "b")
	writePackage(t, a)
	writePackage(t, b)
	// Different modes and times in the second tree must not reach the bytes.
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	filepath.Walk(b, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			os.Chtimes(p, old, old)
			os.Chmod(p, 0o640)
		}
		return nil
	})
	outDir := t.TempDir()
	var got [][]byte
	for i, src := range []string{a, b} {
		out := filepath.Join(outDir, fmt.Sprintf("%d.petpack", i))
		if _, err := Build(src, out, Options{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, data)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatal("two builds of equal packages differ")
	}
	if v := petpack.Validate(bytes.NewReader(got[0]), int64(len(got[0]))); !v.OK() {
		t.Fatalf("archive does not validate: %v", v.Err())
	}
	zr, err := zip.NewReader(bytes.NewReader(got[0]), int64(len(got[0])))
	if err != nil {
		t.Fatal(err)
	}
	prev := ""
	sawRefs := false
	for _, f := range zr.File {
		if f.Name <= prev {
			t.Errorf("entries not sorted: %q after %q", f.Name, prev)
		}
		prev = f.Name
		want := os.FileMode(0o644)
		if strings.HasSuffix(f.Name, "/") {
			want = os.ModeDir | 0o755
		}
		if f.Mode() != want || f.Method != zip.Store || f.ModifiedDate != zipEpochDate || f.ModifiedTime != 0 || len(f.Extra) != 0 || f.Flags&0x8 != 0 {
			t.Errorf("%s: mode %v method %d date %d time %d extra %d flags %#x", f.Name, f.Mode(), f.Method, f.ModifiedDate, f.ModifiedTime, len(f.Extra), f.Flags)
		}
		sawRefs = sawRefs || f.Name == "source/references/"
	}
	if !sawRefs {
		t.Error("the empty source/references/ directory is missing")
	}
}

func TestBuildRejects(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pkg")
	writePackage(t, src)
	if _, err := Build(src, filepath.Join(src, "build", "out.petpack"), Options{}); err == nil || !strings.Contains(err.Error(), "inside the package directory") {
		t.Errorf("output inside the input tree: %v", err)
	}
	if err := os.Remove(filepath.Join(src, "brief.json")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "pet.petpack")
	// A previous build's output must not survive a rejected one.
	if err := os.WriteFile(out, []byte("previous archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Build(src, out, Options{})
	if err == nil || res == nil || res.Verdict.OK() || !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid package built: %v", err)
	}
	if !strings.Contains(err.Error(), "brief.json") {
		t.Errorf("the error does not name the missing file: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a rejected package left %s", out)
	}
}

func TestArchiveRejectsBadPaths(t *testing.T) {
	for _, files := range [][]File{{{Path: ""}}, {{Path: "/abs"}}, {{Path: "a"}, {Path: "a"}}} {
		if _, err := Archive(files); err == nil {
			t.Errorf("Archive(%v) accepted", files)
		}
	}
}
