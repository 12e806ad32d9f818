package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sort"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petpackbuild"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

// highTierScale takes the sample pet's 192x208 frames to the high tier's
// 576x624.
const highTierScale = 3

// pet writes the suite's high-tier pet: the sample pet's frames (one
// folder per action under framesDir) enlarged highTierScale times by pixel
// replication, encoded with image/png at its default level, and spec.json,
// the `petasset petpack assemble` spec naming them by absolute path.
func pet(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("pet: want SAMPLE_FRAMES_DIR OUT_DIR")
	}
	framesDir, out := args[0], args[1]
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	spec := petpackbuild.Spec{
		ID: "pet_benchhigh", Name: "Bench Tabby", Style: "flat pixel art", Quality: petpack.QualityHigh,
		CreatedAt: "2026-01-01T00:00:00Z", Prompt: filepath.Join(out, "prompt.md"),
		Producer: petpackbuild.Producer{Generator: "petbench", Provenance: "deterministic", Description: "A small orange tabby cat."},
	}
	if err := writeFile(spec.Prompt, []byte("A small orange tabby cat.\n")); err != nil {
		return err
	}
	for _, a := range petpack.Actions() {
		names, err := filepath.Glob(filepath.Join(framesDir, string(a), "*.png"))
		if err != nil || len(names) == 0 {
			return fmt.Errorf("pet: no frames in %s: %v", filepath.Join(framesDir, string(a)), err)
		}
		sort.Strings(names)
		st := petpackbuild.SpecState{Name: a, Timing: json.RawMessage("null")}
		for i, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				return err
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", n, err)
			}
			var b bytes.Buffer
			if err := png.Encode(&b, enlarge(img, highTierScale)); err != nil {
				return err
			}
			p := filepath.Join(out, "frames", string(a), fmt.Sprintf("%04d.png", i))
			if err := writeFile(p, b.Bytes()); err != nil {
				return err
			}
			st.Frames = append(st.Frames, p)
		}
		spec.States = append(spec.States, st)
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(out, "spec.json")
	fmt.Println(p)
	return writeFile(p, append(data, '\n'))
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return durable.Write(p, data, 0o644)
}

// enlarge replicates every pixel of img k times in each direction.
func enlarge(img image.Image, k int) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := 0; y < b.Dy()*k; y++ {
		for x := 0; x < b.Dx()*k; x++ {
			out.Set(x, y, img.At(b.Min.X+x/k, b.Min.Y+y/k))
		}
	}
	return out
}

// preview is the high-tier line's baseline: the work a package writer
// cannot avoid, decoding every frame the spec names with image/png and
// encoding the animated preview (each frame's VP8L bitstream, then the
// container) with tools/webpenc, on one goroutine.
func preview(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("preview: want one SPEC")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	s, err := petpackbuild.ParseSpec(data)
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	var (
		bits      [][]byte
		durations []int
		alpha     bool
		size      image.Point
	)
	for _, st := range s.States {
		for _, p := range st.Frames {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			b, err := webpenc.EncodeVP8L(img)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if o, ok := img.(interface{ Opaque() bool }); ok && !o.Opaque() {
				alpha = true
			}
			size = img.Bounds().Size()
			bits = append(bits, b)
			durations = append(durations, 100)
		}
	}
	webp, err := webpenc.AssembleAnimated(size.X, size.Y, alpha, bits, durations, 0)
	if err != nil {
		return err
	}
	fmt.Printf("%d frames, %d-byte preview\n", len(bits), len(webp))
	return nil
}
