package assetpackbuild

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/manifest/manifesttest"
	"github.com/agentpet/rules_pet/runtime/pack"
)

var update = flag.Bool("update", false, "rewrite tests/golden/pet.pack from assets/pet")

const (
	canonicalManifestPath = "../../assets/pet/manifest.petasset"
	goldenPath            = "../../tests/golden/pet.pack"
	regenerate            = "go test ./tools/assetpackbuild -run TestGolden -update"
)

// ignorePaths compares manifests apart from Image.Path, which a pack does
// not carry.
var ignorePaths = cmpopts.IgnoreFields(manifest.Image{}, "Path")

// sprite is a deterministic w by h RGBA image with some transparent and
// half-transparent pixels.
func sprite(w, h, seed int) *image.NRGBA {
	return nrgba(w, h, func(x, y int) color.NRGBA {
		return color.NRGBA{byte(x*13 + seed), byte(y*29 + seed*7), byte((x ^ y) * 11), byte((x*y + seed) * 37)}
	})
}

// writeAssetSet writes text as manifest.petasset in dir and a PNG at each
// image path of the parsed manifest, returning the manifest path.
func writeAssetSet(t testing.TB, dir string, text []byte, pngs func(i int, path string) []byte) string {
	t.Helper()
	m, err := manifest.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	for i, im := range m.Images {
		p := filepath.Join(dir, filepath.FromSlash(im.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, pngs(i, im.Path), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mp := filepath.Join(dir, "manifest.petasset")
	if err := os.WriteFile(mp, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return mp
}

func canonicalText(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(canonicalManifestPath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// syntheticCanonical is the canonical manifest over generated 64 by 64
// sprites, so the build tests do not depend on the real art.
func syntheticCanonical(t testing.TB, dir string) string {
	return writeAssetSet(t, dir, canonicalText(t), func(i int, _ string) []byte {
		return encodePNG(t, sprite(64, 64, i))
	})
}

// limitsText is the text of a manifest at every limit (manifesttest.Limits),
// with image identifiers short enough for the 384-byte line limit.
func limitsText() []byte { return manifest.Format(manifesttest.Limits(6)) }

func limitsSet(t testing.TB, dir string) string {
	dims := [...][2]int{{1, 1}, {1024, 1}, {1, 1024}, {9, 2}, {64, 64}}
	return writeAssetSet(t, dir, limitsText(), func(i int, _ string) []byte {
		d := dims[i%len(dims)]
		return encodePNG(t, sprite(d[0], d[1], i))
	})
}

// TestRoundTrip: parse, build, read back, materialise: the manifest is the
// parse, apart from paths, and every payload is the image's reduction.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		set  func(testing.TB, string) string
	}{
		{"canonical manifest, synthetic sprites", syntheticCanonical},
		{"canonical asset set", func(t testing.TB, _ string) string { return canonicalManifestPath }},
		{"every limit", limitsSet},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp := tt.set(t, t.TempDir())
			text, err := os.ReadFile(mp)
			if err != nil {
				t.Fatal(err)
			}
			want, err := manifest.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			b, err := BuildFile(mp)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pack.Read(b)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Manifest()
			if diff := cmp.Diff(want, &got, ignorePaths); diff != "" {
				t.Fatalf("materialised manifest differs (-parse +pack):\n%s", diff)
			}
			for i, im := range want.Images {
				data, err := os.ReadFile(filepath.Join(filepath.Dir(mp), im.Path))
				if err != nil {
					t.Fatal(err)
				}
				red, err := ConvertPNG(data)
				if err != nil {
					t.Fatal(err)
				}
				e := p.Entries[i]
				if int(e.Width) != red.Width || int(e.Height) != red.Height || !bytes.Equal(e.Colour, red.Colour) || !bytes.Equal(e.Mask, red.Mask) {
					t.Errorf("image %s: entry does not carry its reduced pixels", im.ID)
				}
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	text := []byte("manifest pet 1\n[images]\nsprite_idle sprites/idle.png\n[animations]\na sprite_idle 10\n[roles]\nr a\n[fallback]\nr\n")
	tests := []struct {
		name  string
		png   func(t *testing.T) []byte // nil: no file at all
		setup func(t *testing.T, dir string)
		want  string
		is    error
	}{
		{name: "palette", png: func(t *testing.T) []byte {
			return encodePNG(t, image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black}))
		}, want: "image sprite_idle (sprites/idle.png): png_palette: palette images are not accepted; save as 8-bit RGBA"},
		{name: "not a png", png: func(t *testing.T) []byte { return []byte("GIF89a") }, want: "image sprite_idle (sprites/idle.png): png_not_png: "},
		{name: "missing file", want: "image sprite_idle (sprites/idle.png): open ", is: os.ErrNotExist},
		{name: "directory", setup: func(t *testing.T, dir string) {
			if err := os.MkdirAll(filepath.Join(dir, "sprites", "idle.png"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: "is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mp := filepath.Join(dir, "manifest.petasset")
			if err := os.WriteFile(mp, text, 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.png != nil {
				os.MkdirAll(filepath.Join(dir, "sprites"), 0o755)
				if err := os.WriteFile(filepath.Join(dir, "sprites", "idle.png"), tt.png(t), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			_, err := BuildFile(mp)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("BuildFile = %v, want it to contain %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error does not wrap %v", tt.is)
			}
		})
	}
}

// TestBuildFileManifestError: a grammar rejection reads FILE:LINE: RULE:
// message and still unwraps to the *manifest.Error.
func TestBuildFileManifestError(t *testing.T) {
	mp := filepath.Join(t.TempDir(), "manifest.petasset")
	if err := os.WriteFile(mp, []byte("manifest pet 1\n[images]\nImg sprites/a.png\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := BuildFile(mp)
	want := mp + ":3: invalid_identifier: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("BuildFile = %v, want prefix %q", err, want)
	}
	var me *manifest.Error
	if !errors.As(err, &me) || me.Line != 3 || me.Rule != manifest.RuleInvalidIdentifier {
		t.Errorf("error does not unwrap to the manifest rejection: %#v", me)
	}
	if _, err := BuildFile(filepath.Join(t.TempDir(), "absent.petasset")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing manifest: %v", err)
	}
}

// TestWriteFileFailureLeavesNoOutput: a failed build writes nothing, leaves
// no temporary file, and removes a pack an earlier run left behind.
func TestWriteFileFailureLeavesNoOutput(t *testing.T) {
	for _, stale := range []bool{false, true} {
		dir := t.TempDir()
		mp := writeAssetSet(t, dir, canonicalText(t), func(i int, _ string) []byte {
			if i == 3 {
				return encodePNG(t, image.NewGray(image.Rect(0, 0, 64, 64)))
			}
			return encodePNG(t, sprite(64, 64, i))
		})
		outDir := t.TempDir()
		out := filepath.Join(outDir, "pet.pack")
		if stale {
			if err := os.WriteFile(out, []byte("old pack"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := WriteFile(mp, out)
		if err == nil || !strings.Contains(err.Error(), "image sprite_attentive (sprites/attentive.png): png_grayscale") {
			t.Fatalf("WriteFile = %v", err)
		}
		if names, _ := os.ReadDir(outDir); len(names) != 0 {
			t.Errorf("stale=%v: output directory holds %v", stale, names)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	mp := syntheticCanonical(t, dir)
	out := filepath.Join(t.TempDir(), "pet.pack")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(mp, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := BuildFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("written pack differs from the built one")
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

// copyTree copies a directory with every file given its own mtime.
func copyTree(t testing.TB, src, dst string, mtime func(i int) time.Time) {
	t.Helper()
	i := 0
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o600); err != nil {
			return err
		}
		i++
		return os.Chtimes(target, mtime(i), mtime(i))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeterministic: the same inputs give the same bytes twice, and a copy
// of the asset set somewhere else, with other modes and shuffled mtimes,
// gives them too.
func TestDeterministic(t *testing.T) {
	for name, src := range map[string]string{
		"synthetic": filepath.Dir(syntheticCanonical(t, t.TempDir())),
		"canonical": filepath.Dir(canonicalManifestPath),
	} {
		first, err := BuildFile(filepath.Join(src, "manifest.petasset"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := BuildFile(filepath.Join(src, "manifest.petasset"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("%s: two builds differ: %s", name, assetpackformat.FirstDifference(again, first))
		}
		dst := filepath.Join(t.TempDir(), "elsewhere", "deeper", "pet")
		copyTree(t, src, dst, func(i int) time.Time {
			return time.Date(1990+i*7%30, time.Month(1+i*5%12), 1+i*3%28, i, 0, 0, 0, time.UTC)
		})
		moved, err := BuildFile(filepath.Join(dst, "manifest.petasset"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, moved) {
			t.Fatalf("%s: build from a copy differs: %s", name, assetpackformat.FirstDifference(moved, first))
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	base := func() (*manifest.Manifest, []Image) {
		m := &manifest.Manifest{
			Images:     []manifest.Image{{ID: "img"}},
			Animations: []manifest.Animation{{ID: "anim", FirstFrame: 0, FrameCount: 1}},
			Frames:     []manifest.Frame{{Image: 0, DurationMS: 10}},
			Roles:      []manifest.Role{{ID: "role"}},
		}
		return m, []Image{{Width: 1, Height: 1, Colour: make([]byte, 2), Mask: make([]byte, 1)}}
	}
	big := Image{Width: 1024, Height: 1024, Colour: make([]byte, 1024*1024*2), Mask: make([]byte, 128*1024)}
	tests := []struct {
		name   string
		change func(m *manifest.Manifest, im []Image) []Image
		want   string
	}{
		{"image count", func(m *manifest.Manifest, im []Image) []Image { return nil }, "0 images for a manifest of 1"},
		{"width 0", func(m *manifest.Manifest, im []Image) []Image { im[0].Width = 0; return im }, "0x1 is outside"},
		{"height 1025", func(m *manifest.Manifest, im []Image) []Image { im[0].Height = 1025; return im }, "1x1025 is outside"},
		{"colour length", func(m *manifest.Manifest, im []Image) []Image { im[0].Colour = nil; return im }, "colour payload is 0 bytes"},
		{"mask length", func(m *manifest.Manifest, im []Image) []Image { im[0].Mask = make([]byte, 2); return im }, "mask payload is 2 bytes"},
		{"over 16 MiB", func(m *manifest.Manifest, im []Image) []Image {
			im = nil
			m.Images = nil
			for i := 0; i < 8; i++ {
				m.Images = append(m.Images, manifest.Image{ID: fmt.Sprint("i", i)})
				im = append(im, big)
			}
			return im
		}, "image 7 (i7) takes the pack past the 16777216-byte limit"},
		{"identifier 32 bytes", func(m *manifest.Manifest, im []Image) []Image { m.Roles[0].ID = strings.Repeat("r", 32); return im }, "is 32 bytes, more than 31"},
		{"identifier with NUL", func(m *manifest.Manifest, im []Image) []Image { m.Images[0].ID = "a\x00b"; return im }, "holds a zero byte"},
		{"fallback", func(m *manifest.Manifest, im []Image) []Image { m.Fallback = 1; return im }, "fallback role 1"},
		{"empty run", func(m *manifest.Manifest, im []Image) []Image { m.Animations[0].FrameCount = 0; return im }, "do not form a run"},
		{"frame image", func(m *manifest.Manifest, im []Image) []Image { m.Frames[0].Image = 1; return im }, "frame 0: image 1"},
		{"duration", func(m *manifest.Manifest, im []Image) []Image { m.Frames[0].DurationMS = 60001; return im }, "duration 60001 ms"},
		{"role animation", func(m *manifest.Manifest, im []Image) []Image { m.Roles[0].Animation = -1; return im }, "role role: animation -1"},
		{"too many roles", func(m *manifest.Manifest, im []Image) []Image {
			for len(m.Roles) <= manifest.MaxRoles {
				m.Roles = append(m.Roles, manifest.Role{ID: "r"})
			}
			return im
		}, "65 roles, more than the limit of 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, im := base()
			if _, err := Encode(m, im); err != nil {
				t.Fatalf("base rejected: %v", err)
			}
			im = tt.change(m, im)
			b, err := Encode(m, im)
			if err == nil || !strings.Contains(err.Error(), tt.want) || b != nil {
				t.Fatalf("Encode = %d bytes, %v; want %q", len(b), err, tt.want)
			}
		})
	}
}

// TestGolden builds the canonical asset set and compares it byte for byte
// with tests/golden/pet.pack. Run with -update to rewrite the golden.
func TestGolden(t *testing.T) {
	if *update {
		if err := WriteFile(canonicalManifestPath, goldenPath); err != nil {
			t.Fatal(err)
		}
	}
	got, err := BuildFile(canonicalManifestPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v; create it with: %s", err, regenerate)
	}
	if d := assetpackformat.FirstDifference(got, want); d != "" {
		t.Fatalf("building assets/pet does not reproduce tests/golden/pet.pack: %s\nif the change is intended, regenerate it with: %s", d, regenerate)
	}
	if len(got) != 44232 {
		t.Errorf("pack is %d bytes, contract section 13 says 44232", len(got))
	}
	// Contract section 13, region by region.
	sizes := map[string]int{}
	for _, r := range assetpackformat.Regions(got) {
		key := r.Name
		if strings.HasSuffix(key, " payload") {
			key = "payloads"
		}
		sizes[key] += r.Length
	}
	want13 := map[string]int{
		"header": 28, "image table": 160, "animation table": 180, "frame table": 24,
		"role table": 216, "entry table": 100, "payloads": 43520, "check": 4,
	}
	if diff := cmp.Diff(want13, sizes); diff != "" {
		t.Errorf("region sizes differ from contract section 13 (-contract +pack):\n%s", diff)
	}
}

func BenchmarkBuildCanonical(b *testing.B) {
	var size int64
	for i := 0; i < b.N; i++ {
		p, err := BuildFile(canonicalManifestPath)
		if err != nil {
			b.Fatal(err)
		}
		size = int64(len(p))
	}
	b.SetBytes(size)
}
