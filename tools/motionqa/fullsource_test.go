package motionqa

import (
	"image"
	"os"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/tools/petpackbuild"
)

// TestFullSourceRules runs the skill-full-source checks on packages that
// break them. The sample pet's provenance is deterministic, which the
// profile excludes (and the validator only warns there), so the checks are
// called directly on the opened package.
func TestFullSourceRules(t *testing.T) {
	cases := []struct {
		name, rule, want string
		change           func(f *fixture)
	}{
		{"adjacent identical frames", RuleFullSourceDuplicate, "state tool frame 2 (0002.png) decodes identically to frame 1", func(f *fixture) {
			f.frames["tool"][2] = f.frames["tool"][1]
		}},
		{"hidden colour does not make a frame distinct", RuleFullSourceDuplicate, "state thinking frame 1", func(f *fixture) {
			c := cloneNRGBA(f.frames["thinking"][0])
			for i := 3; i < len(c.Pix); i += 4 {
				if c.Pix[i] == 0 {
					c.Pix[i-1] = 0x77 // colour under alpha 0
				}
			}
			f.frames["thinking"][1] = c
		}},
		{"loop seam", RuleFullSourceLoopSeam, "loop state drag_left: last frame 0005.png", func(f *fixture) {
			l := f.frames["drag_left"]
			l[len(l)-1] = l[0]
		}},
		{"almost nothing visible", RuleFullSourceCoverage, "state done frame 3 (0003.png)", func(f *fixture) {
			img := image.NewNRGBA(f.frames["done"][3].Rect)
			for i := 0; i < 300; i++ {
				img.Pix[4*(i*50)+3] = 15 // under the visible threshold
			}
			for x := 20; x < 60; x++ {
				img.Pix[img.PixOffset(x, 100)+3] = 255
			}
			f.frames["done"][3] = img
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := sampleFixture(t)
			c.change(f)
			s, err := Open(f.build(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			v := &verifier{}
			v.fullSource(s)
			text := failuresText(v.fails)
			if !strings.Contains(text, c.rule) || !strings.Contains(text, c.want) {
				t.Errorf("failures:\n%s\nwant %s naming %q", text, c.rule, c.want)
			}
		})
	}
	src, _, _ := base(t)
	s, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := &verifier{}
	v.fullSource(s)
	if len(v.fails) != 0 {
		t.Errorf("the sample pet breaks the full-source rules:\n%s", failuresText(v.fails))
	}
	if p := s.Provenance(); p != "deterministic" {
		t.Errorf("the sample's provenance reads %q", p)
	}
}

// TestFullSourceFaintFrame: a skill-full-source frame with 2.6% of its
// pixels above alpha 0 but under 1% at alpha 16 or more is refused by the
// validator itself, which now measures visibility at the contract
// authors' threshold, the same one QA's full-source rule uses; so the
// writer refuses to build it, naming the frame and the rule, and no such
// package can reach verify-production.
func TestFullSourceFaintFrame(t *testing.T) {
	f := sampleFixture(t)
	f.fullSource = true
	img := image.NewNRGBA(f.frames["done"][3].Rect)
	for i := 0; i < 1000; i++ {
		img.Pix[4*(i*37)+3] = 10
	}
	for x := 20; x < 60; x++ {
		img.Pix[img.PixOffset(x, 100)+3] = 255
	}
	f.frames["done"][3] = img
	s, read, out := f.spec(t)
	_, err := petpackbuild.BuildSpec(s, read, out)
	if err == nil || !strings.Contains(err.Error(), "full_source_alpha_coverage_low") || !strings.Contains(err.Error(), "assets/frames/done/0003.png") {
		t.Fatalf("the faint frame is not refused by name: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("a refused build left %s behind", out)
	}
}
