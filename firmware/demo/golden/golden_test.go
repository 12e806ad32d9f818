// Package golden_test checks the host-built firmware demo (pet_demo): for each
// role of the canonical pack, for the built-in fallback (no pack, and a
// rejected pack) and for the byte-order probe, the framebuffer it writes,
// turned into a PNG, must equal the golden picture in this directory. The role
// pictures are also recomposed here from runtime/pack, so the goldens are
// what the Go reader's view of the pack says they should be.
//
//	go test ./firmware/demo/golden          # compare
//	go test ./firmware/demo/golden -update  # rewrite the *.png
package golden_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/runtime/presentation"
	"github.com/agentpet/rules_pet/tools/assetpackc"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in this directory")

const (
	width, height = 240, 240
	background    = 0x2104
	fallback      = 0x5C75
	petArea       = 192
)

// demo returns the pet_demo binary: $PET_DEMO, the Bazel-built one in the
// runfiles, or one compiled here with $CC (cc by default) against the
// golden pack emitted by tools/assetpackc, as pet_pack_cc_library emits it.
func demo(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PET_DEMO"); p != "" {
		return p
	}
	if dir := os.Getenv("TEST_SRCDIR"); dir != "" {
		ws := os.Getenv("TEST_WORKSPACE")
		if ws == "" {
			ws = "rules_pet"
		}
		return filepath.Join(dir, ws, "firmware", "demo", "pet_demo")
	}
	tmp := t.TempDir()
	data, err := os.ReadFile("../../../tests/golden/pet.pack")
	if err != nil {
		t.Fatal(err)
	}
	h, c, err := assetpackc.Generate(data, "pet_asset_pack", "pack_cc.h")
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(tmp, "assets", "pet")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gen, "pack_cc.h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gen, "pack_cc.c"), c, 0o644); err != nil {
		t.Fatal(err)
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	out := filepath.Join(tmp, "pet_demo")
	args := []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-I../..", "-I..", "-I" + tmp,
		"../main.c", "../compose.c", "../../pet_pack.c", filepath.Join(gen, "pack_cc.c"), "-o", out}
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	return out
}

// run runs pet_demo with args and returns the framebuffer and what it said.
func run(t *testing.T, bin string, args ...string) ([]byte, string) {
	t.Helper()
	fb := filepath.Join(t.TempDir(), "fb.bin")
	out, err := exec.Command(bin, append([]string{"--out", fb}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("pet_demo %v: %v\n%s", args, err, out)
	}
	b, err := os.ReadFile(fb)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != width*height*2 {
		t.Fatalf("framebuffer is %d bytes, want %d", len(b), width*height*2)
	}
	return b, strings.TrimSpace(string(out))
}

// toPNG decodes a framebuffer as the panel does (RGB565, high byte first)
// and widens each channel to 8 bits by replicating its high bits.
func toPNG(fb []byte) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	for i := 0; i < width*height; i++ {
		v := uint16(fb[2*i])<<8 | uint16(fb[2*i+1])
		r, g, b := uint8(v>>11), uint8(v>>5&0x3f), uint8(v&0x1f)
		img.Pix[4*i] = r<<3 | r>>2
		img.Pix[4*i+1] = g<<2 | g>>4
		img.Pix[4*i+2] = b<<3 | b>>2
		img.Pix[4*i+3] = 0xff
	}
	return img
}

func pixel(fb []byte, x, y int) uint16 {
	return uint16(fb[2*(y*width+x)])<<8 | uint16(fb[2*(y*width+x)+1])
}

// golden compares fb's picture with testdata/NAME.png, or writes it.
func golden(t *testing.T, name string, fb []byte) {
	t.Helper()
	path := name + ".png"
	img := toPNG(fb)
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (write the goldens with go test ./firmware/demo/golden -update)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s is %v, the framebuffer %v", path, want.Bounds(), img.Bounds())
	}
	diff := 0
	first := ""
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			g := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			if g != img.NRGBAAt(x, y) {
				if diff == 0 {
					first = fmt.Sprintf("(%d,%d): got %v, golden %v", x, y, img.NRGBAAt(x, y), g)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%s: %d pixels differ, first at %s", path, diff, first)
	}
}

// recompose draws what pet_demo should draw for role at ms, from the Go
// reader's view of the golden pack.
func recompose(t *testing.T, role string, ms uint64) []byte {
	t.Helper()
	data, err := os.ReadFile(goldenPack(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pack.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Manifest()
	s := presentation.Select(&m, role, ms)
	e := p.Entries[s.Image]
	w, h := int(e.Width), int(e.Height)
	scale := petArea / w
	if h > w {
		scale = petArea / h
	}
	x0, y0 := (width-w*scale)/2, (height-h*scale)/2
	fb := make([]byte, width*height*2)
	for i := 0; i < width*height; i++ {
		fb[2*i], fb[2*i+1] = background>>8, background&0xff
	}
	row := (w + 7) / 8
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if e.Mask[y*row+x/8]&(0x80>>(x%8)) == 0 {
				continue
			}
			for dy := 0; dy < scale; dy++ {
				for dx := 0; dx < scale; dx++ {
					o := 2 * ((y0+y*scale+dy)*width + x0 + x*scale + dx)
					copy(fb[o:o+2], e.Colour[2*(y*w+x):])
				}
			}
		}
	}
	return fb
}

func goldenPack(t *testing.T) string {
	if dir := os.Getenv("TEST_SRCDIR"); dir != "" {
		ws := os.Getenv("TEST_WORKSPACE")
		if ws == "" {
			ws = "rules_pet"
		}
		return filepath.Join(dir, ws, "tests", "golden", "pet.pack")
	}
	return "../../../tests/golden/pet.pack"
}

func TestRolePictures(t *testing.T) {
	bin := demo(t)
	for _, c := range []struct {
		name, role string
		ms         uint64
		said       string
	}{
		{"activity_idle", "activity_idle", 0, "image 1 (sprite_idle"},
		{"activity_curious", "activity_curious", 0, "image 2 (sprite_curious"},
		{"activity_attentive", "activity_attentive", 0, "image 3 (sprite_attentive"},
		{"expression_neutral", "expression_neutral", 0, "image 1 (sprite_idle"},
		{"expression_happy", "expression_happy", 0, "image 4 (sprite_happy"},
		{"expression_happy_300ms", "expression_happy", 300, "frame 5, image 1 (sprite_idle"},
		{"fallback_default", "fallback_default", 0, "image 0 (sprite_fallback"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fb, said := run(t, bin, "--role", c.role, "--time", fmt.Sprint(c.ms))
			if !strings.Contains(said, c.said) {
				t.Errorf("pet_demo said %q, want it to name %q", said, c.said)
			}
			if want := recompose(t, c.role, c.ms); !bytes.Equal(fb, want) {
				t.Errorf("the C demo's framebuffer differs from the one recomposed from runtime/pack")
			}
			golden(t, c.name, fb)
		})
	}
	// A role the pack does not map plays the pack's fallback role.
	fb, said := run(t, bin, "--role", "no_such_role")
	if !strings.Contains(said, "(the fallback role)") || !bytes.Equal(fb, recompose(t, "fallback_default", 0)) {
		t.Errorf("an unmapped role: %q, want the fallback_default picture", said)
	}
}

func TestBuiltinFallback(t *testing.T) {
	bin := demo(t)
	noPack, said := run(t, bin, "--no-pack")
	if said != "built-in fallback: no pack" {
		t.Errorf("--no-pack said %q", said)
	}
	rejected, said := run(t, bin, "--corrupt", "--role", "expression_happy")
	if said != "built-in fallback: check_mismatch" {
		t.Errorf("--corrupt said %q", said)
	}
	if !bytes.Equal(noPack, rejected) {
		t.Error("the fallback for a rejected pack differs from the one for no pack")
	}
	// Only the background and the calm colour, the latter over the pet's area.
	lo, hi := (width-petArea)/2, (width+petArea)/2
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			want := uint16(background)
			if x >= lo && x < hi && y >= lo && y < hi {
				want = fallback
			}
			if got := pixel(noPack, x, y); got != want {
				t.Fatalf("fallback pixel (%d,%d) is %#04x, want %#04x", x, y, got, want)
			}
		}
	}
	golden(t, "fallback", noPack)
}

func TestByteOrderProbe(t *testing.T) {
	bin := demo(t)
	probe, _ := run(t, bin, "--probe")
	swapped, _ := run(t, bin, "--probe", "--swap")
	// Bars of 60 columns: pure red, green, blue, white; swapped, the first
	// three turn blue, dark red and green and white stays white.
	for i, c := range []struct{ want, swapped uint16 }{
		{0xF800, 0x00F8}, {0x07E0, 0xE007}, {0x001F, 0x1F00}, {0xFFFF, 0xFFFF},
	} {
		for _, y := range []int{0, 120, 239} {
			x := i*60 + 30
			if got := pixel(probe, x, y); got != c.want {
				t.Errorf("probe bar %d at (%d,%d) is %#04x, want %#04x", i, x, y, got, c.want)
			}
			if got := pixel(swapped, x, y); got != c.swapped {
				t.Errorf("swapped probe bar %d at (%d,%d) is %#04x, want %#04x", i, x, y, got, c.swapped)
			}
		}
	}
	golden(t, "probe", probe)
	golden(t, "probe_swapped", swapped)
}
