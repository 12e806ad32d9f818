package motionqa

import (
	"image"
	"path/filepath"
	"strings"
	"testing"
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

// TestFullSourceThroughVerify runs a skill-full-source pet through
// verify-production: a frame the validator accepts (2.6% of its pixels
// have alpha above 0) but under 1% visible at QA's threshold (alpha >= 16)
// fails. (A package breaking the validator's own full-source rules cannot
// be built: the writer refuses it.)
func TestFullSourceThroughVerify(t *testing.T) {
	faint := func(f *fixture) {
		img := image.NewNRGBA(f.frames["done"][3].Rect)
		for i := 0; i < 1000; i++ {
			img.Pix[4*(i*37)+3] = 10
		}
		for x := 20; x < 60; x++ {
			img.Pix[img.PixOffset(x, 100)+3] = 255
		}
		f.frames["done"][3] = img
	}
	for _, c := range []struct {
		name, rule, want string
		change           func(f *fixture)
	}{
		{"faint frame", RuleFullSourceCoverage, "state done frame 3 (0003.png): 40 of 39936 pixels visible", faint},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := sampleFixture(t)
			f.fullSource = true
			c.change(f)
			src := f.build(t)
			_, qa, rv := base(t)
			ver, fails := VerifyProduction(VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv})
			text := failuresText(fails)
			if ver.OK || !strings.Contains(text, c.rule) || !strings.Contains(text, c.want) {
				t.Errorf("ok %v, failures:\n%s\nwant %s naming %q", ver.OK, text, c.rule, c.want)
			}
			if ver.RuntimeOK {
				t.Error("runtime_ok is true")
			}
		})
	}
}
