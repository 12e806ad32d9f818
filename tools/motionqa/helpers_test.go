package motionqa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petpackbuild"
)

// sampleFrames is the sample pet's frame folder, read by its repository
// path (go test and Bazel both run in the package directory; the BUILD
// file lists //assets/petpack:frames as data).
const sampleFrames = "../../assets/petpack/frames"

// fixture is a pet under construction: the sample pet's decoded frames and
// per-state timing overrides, which a test changes before building.
type fixture struct {
	frames map[petpack.Action][]*image.NRGBA
	timing map[petpack.Action]string
	id     string
	// fullSource makes the package claim skill-full-source provenance
	// (with the visual source and preview_only false that claim needs).
	fullSource bool
}

func sampleFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{frames: map[petpack.Action][]*image.NRGBA{}, timing: map[petpack.Action]string{}, id: "pet_tabby"}
	for _, a := range petpack.Actions() {
		ents, err := os.ReadDir(filepath.Join(sampleFrames, string(a)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(sampleFrames, string(a), e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			f.frames[a] = append(f.frames[a], cloneNRGBA(ToNRGBA(img)))
		}
	}
	return f
}

func cloneNRGBA(img *image.NRGBA) *image.NRGBA {
	out := image.NewNRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	return out
}

// scaled returns the fixture with every frame enlarged k times by pixel
// replication, at the given tier (the high-tier benchmark pet).
func (f *fixture) scaled(k int) *fixture {
	g := &fixture{frames: map[petpack.Action][]*image.NRGBA{}, timing: f.timing, id: f.id}
	for a, list := range f.frames {
		for _, img := range list {
			w, h := img.Rect.Dx(), img.Rect.Dy()
			out := image.NewNRGBA(image.Rect(0, 0, w*k, h*k))
			for y := 0; y < h*k; y++ {
				for x := 0; x < w*k; x++ {
					copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x, y)+4], img.Pix[img.PixOffset(x/k, y/k):img.PixOffset(x/k, y/k)+4])
				}
			}
			g.frames[a] = append(g.frames[a], out)
		}
	}
	return g
}

func qualityOf(w int) string {
	switch w {
	case 192:
		return "low"
	case 384:
		return "standard"
	}
	return "high"
}

// build writes the fixture's frames and a package spec into a new
// directory and builds the archive with tools/petpackbuild; it returns the
// archive's path. The spec is the one place that knows the writer's
// metadata inputs.
func (f *fixture) build(t testing.TB) string {
	t.Helper()
	s, read, out := f.spec(t)
	if _, err := petpackbuild.BuildSpec(s, read, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// spec writes the fixture's inputs and returns the writer's spec, the
// reader of its inputs and the archive path to build.
func (f *fixture) spec(t testing.TB) (*petpackbuild.Spec, petpackbuild.ReadFunc, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	type specState struct {
		Name   string          `json:"name"`
		Frames []string        `json:"frames"`
		Timing json.RawMessage `json:"timing"`
	}
	var states []specState
	w := 0
	for _, a := range petpack.Actions() {
		st := specState{Name: string(a), Timing: json.RawMessage("null")}
		if tm, ok := f.timing[a]; ok {
			st.Timing = json.RawMessage(tm)
		}
		for i, img := range f.frames[a] {
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				t.Fatal(err)
			}
			st.Frames = append(st.Frames, write(fmt.Sprintf("art/%s/%04d.png", a, i), b.Bytes()))
			w = img.Rect.Dx()
		}
		states = append(states, st)
	}
	spec := map[string]interface{}{
		"id": f.id, "name": "Tabby", "style": "flat pixel art", "quality": qualityOf(w),
		"created_at": "2025-01-01T00:00:00Z", "states": states,
		"prompt": write("prompt.md", []byte("A small orange tabby cat.\n")),
		"producer": map[string]interface{}{
			"generator": "motionqa_test", "provenance": "deterministic", "description": "A small orange tabby cat.",
		},
	}
	if f.fullSource {
		spec["producer"] = map[string]interface{}{
			"generator": "motionqa_test", "provenance": "skill-full-source", "description": "A small orange tabby cat.",
			"visual_source": "image-generation", "preview_only": false,
		}
	}
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := petpackbuild.ParseSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, f.id+".petpack")
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))) }
	return s, read, out
}

// unpack extracts an archive into a new directory and returns it.
func unpack(t testing.TB, archive string) string {
	t.Helper()
	return petpacktest.Unpack(t, archive, t.TempDir())
}

// sampleNotes are real review notes for the sample pet's nine actions.
var sampleNotes = map[string]string{
	"idle":        "breathes slowly, blinks once, tail tip sways",
	"thinking":    "paw to chin while thought bubbles grow",
	"tool":        "types on a keyboard with both paws",
	"waiting":     "looks around, then settles with a flat tail",
	"done":        "smiles and bounces with sparkles around",
	"failed":      "startles, ears droop and a sweat drop falls",
	"acknowledge": "closes its eyes, smiles and returns to idle",
	"drag_left":   "dangles leaning left with paws tucked",
	"drag_right":  "dangles leaning right with paws tucked",
}

// qaAndReview runs QA of src into a new directory and approves it with the
// sample notes; it returns the report and review paths.
func qaAndReview(t testing.TB, src string, opt Options) (string, string) {
	t.Helper()
	qa := filepath.Join(t.TempDir(), "qa")
	if _, err := Run(src, qa, opt); err != nil {
		t.Fatal(err)
	}
	return qa, review(t, qa)
}

// review approves the report in qa with the sample notes and returns the
// review's path.
func review(t testing.TB, qa string) string {
	t.Helper()
	return reviewInto(t, qa, filepath.Join(t.TempDir(), "review.json"))
}

func reviewInto(t testing.TB, qa, p string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(qa, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	audited, err := auditedStates(doc)
	if err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{}
	for _, a := range audited {
		notes[a] = sampleNotes[a]
	}
	rv, err := BuildReview(qa, notes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, rv, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// failuresText joins failures for messages and substring checks.
func failuresText(fs []Failure) string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, f.String())
	}
	return strings.Join(lines, "\n")
}
