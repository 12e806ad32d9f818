package petpacktest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petpackbuild"
)

// HighTierWidth and HighTierHeight are the high tier's render size.
const (
	HighTierWidth  = 576
	HighTierHeight = 624
)

// HighTierStates is the high-tier pet's nine states: the contract's default
// playback, 100 ms frames, 40 in idle and thinking, 23 in the next six and
// 22 in the last, 240 in all (pet-validation.schema.json's frame_count
// cap), as runtime/petpack's validation benchmark lays its package out.
func HighTierStates() []petpack.State {
	states := petpack.DefaultStates()
	for i := range states {
		n := 23
		switch {
		case i < 2:
			n = petpack.MaxFramesPerState
		case i == len(states)-1:
			n = 22
		}
		d := make([]int, n)
		for j := range d {
			d[j] = 100
		}
		states[i].FrameDurationsMS = d
		if states[i].ReducedMotionFrameIndex >= n {
			states[i].ReducedMotionFrameIndex = 0
		}
	}
	return states
}

// HighTierFrame is frame i of action a of the high-tier pet: a 576x624
// transparent canvas holding a textured ellipse whose colour is the
// action's and whose place is the frame's, with a soft (partly
// transparent) rim, so every frame differs from every other and its PNG
// compresses about as much as drawn art does rather than as a flat block.
func HighTierFrame(a petpack.Action, i int) []byte {
	k := 0
	for j, s := range petpack.DefaultStates() {
		if s.Name == a {
			k = j
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, HighTierWidth, HighTierHeight))
	cx, cy := 288+3*(i%20)-30, 340+2*k
	const rx, ry = 200, 240
	for y := 0; y < HighTierHeight; y++ {
		for x := 0; x < HighTierWidth; x++ {
			dx, dy := float64(x-cx)/rx, float64(y-cy)/ry
			d := dx*dx + dy*dy
			if d > 1 {
				continue
			}
			// A deterministic texture: a small hash of the position.
			h := uint32(x*73856093^y*19349663^i*83492791) >> 27
			c := color.NRGBA{R: uint8(60 + 20*k + int(h)), G: uint8(200 - 15*k + int(h)), B: uint8(90 + 4*i), A: 255}
			if d > 0.9 {
				c.A = uint8(255 * (1 - d) * 10)
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// HighTierPet writes the high-tier pet's archive to out through the package
// writer, which makes its cover and animated preview as it does for any
// pet, and returns its validated manifest. Encoding it takes seconds.
func HighTierPet(t testing.TB, out string) *petpack.Manifest {
	t.Helper()
	spec := &petpackbuild.Spec{
		ID: "pet_hightier", Name: "High Tier", Style: "textured ellipses",
		Quality: petpack.QualityHigh, CreatedAt: "2026-01-02T03:04:05Z",
		Producer: petpackbuild.Producer{Generator: "petpacktest", Provenance: "deterministic"},
	}
	prompt := []byte("A textured ellipse per action, at the high tier's size.\n")
	return writePet(t, out, spec, HighTierStates(), prompt, nil, HighTierFrame)
}
