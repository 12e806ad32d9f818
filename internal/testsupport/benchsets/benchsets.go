// Package benchsets writes the benchmark suite's sprite sets: asset sets
// of n square PNGs, the same bytes on every run, drawn to compress like
// sprite art (a transparent margin, soft edges, shading and some grain)
// rather than like noise or flat colour.
package benchsets

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/dev/spritepng"
	"github.com/agentpet/rules_pet/internal/durable"
)

// Set is n images of side by side pixels.
type Set struct {
	// Name is the set's directory name, like "8x512".
	Name string
	// Count is the number of images.
	Count int
	// Side is each image's width and height.
	Side int
}

// Sets are the suite's sets: the three the speed goal covers, the small
// one that mostly measures process start-up, and one whose pack would be
// past the 16 MiB limit.
var Sets = []Set{
	{"5x64", 5, 64},
	{"8x512", 8, 512},
	{"7x1024", 7, 1024},
	{"32x496", 32, 496},
	{"32x1024", 32, 1024},
}

// Lookup returns the set called name.
func Lookup(name string) (Set, error) {
	for _, s := range Sets {
		if s.Name == name {
			return s, nil
		}
	}
	return Set{}, fmt.Errorf("no benchmark set %q", name)
}

// Sprite is image seed of a set: an opaque-centred blob on a transparent
// field with a half-transparent rim.
func Sprite(side, seed int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	c := float64(side) / 2
	r2 := c * c * 0.8
	state := uint32(seed)*2654435761 + 1
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			dx, dy := float64(x)-c, float64(y)-c
			d := (dx*dx + dy*dy) / r2
			if d >= 1 {
				continue // transparent, colour zero
			}
			state = state*1664525 + 1013904223
			grain := byte(state >> 29) // 0 to 7
			a := byte(255)
			if d > 0.85 {
				a = byte(255 * (1 - d) / 0.15)
			}
			shade := byte(255 * (1 - d*0.6))
			img.SetNRGBA(x, y, color.NRGBA{
				R: shade/2 + byte(seed*37) + grain,
				G: shade/3 + byte(x*96/side) + grain,
				B: shade/4 + byte(y*96/side),
				A: a,
			})
		}
	}
	return img
}

// Write writes s below dir as dir/NAME/manifest.petasset and
// dir/NAME/sprites/NNN.png, one animation of up to 16 frames per 16
// images, and returns the manifest's path.
func Write(dir string, s Set) (string, error) {
	root := filepath.Join(dir, s.Name)
	if err := os.MkdirAll(filepath.Join(root, "sprites"), 0o755); err != nil {
		return "", err
	}
	var m strings.Builder
	m.WriteString("manifest pet 1\n[images]\n")
	for i := 0; i < s.Count; i++ {
		fmt.Fprintf(&m, "s%03d sprites/%03d.png\n", i, i)
		if err := spritepng.Write(filepath.Join(root, "sprites", fmt.Sprintf("%03d.png", i)), Sprite(s.Side, i)); err != nil {
			return "", err
		}
	}
	m.WriteString("[animations]")
	for i := 0; i < s.Count; i++ {
		if i%16 == 0 {
			fmt.Fprintf(&m, "\na%d", i/16)
		}
		fmt.Fprintf(&m, " s%03d 100", i)
	}
	m.WriteString("\n[roles]\nidle a0\n[fallback]\nidle\n")
	mp := filepath.Join(root, "manifest.petasset")
	if err := durable.Write(mp, []byte(m.String()), 0o644); err != nil {
		return "", err
	}
	return mp, nil
}
