package webp_test

import (
	"testing"

	"github.com/agentpet/rules_pet/internal/webp"
)

// FuzzParse runs the container parser and the VP8L pre-pass on arbitrary
// bytes. It decodes nothing, so the fuzzer hunts logic bugs in our code
// rather than memory blow-ups in x/image. Seeds live in
// testdata/fuzz/FuzzParse and also run as plain tests under Bazel.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := webp.Parse(data, webp.Budget{})
		if err != nil {
			if _, ok := err.(*webp.Error); !ok {
				t.Fatalf("error %T is not *webp.Error: %v", err, err)
			}
			return
		}
		if len(file.Frames) == 0 || len(file.Frames) > webp.DefaultMaxFrames {
			t.Fatalf("accepted %d frames", len(file.Frames))
		}
		for i, fr := range file.Frames {
			if fr.X+fr.Width > file.Width || fr.Y+fr.Height > file.Height {
				t.Fatalf("frame %d leaves the canvas", i)
			}
			if fr.HuffmanGroups > webp.DefaultMaxHuffmanGroups {
				t.Fatalf("frame %d has %d groups", i, fr.HuffmanGroups)
			}
		}
		// What the pre-pass let through is what the decoder is trusted
		// with: it may reject, but only with a rule, and every frame it
		// returns is the size the parser promised.
		err = webp.DecodeEach(data, webp.Budget{}, func(i int, fr webp.Frame) error {
			if got := fr.Image.Bounds().Size(); got.X != file.Frames[i].Width || got.Y != file.Frames[i].Height {
				t.Fatalf("frame %d decoded at %v, parsed as %dx%d", i, got, file.Frames[i].Width, file.Frames[i].Height)
			}
			return nil
		})
		if _, ok := err.(*webp.Error); err != nil && !ok {
			t.Fatalf("decode error %T is not *webp.Error: %v", err, err)
		}
	})
}
