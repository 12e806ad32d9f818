package petpackbuild

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// specFixture writes frame, prompt and reference files into a directory
// and returns a Spec naming them, at the creation defaults.
func specFixture(t *testing.T) (*Spec, ReadFunc) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	s := &Spec{
		ID: "pet_spec01", Name: "Spec Cat", Style: "flat", Quality: petpack.QualityLow,
		CreatedAt: "2026-01-02T03:04:05Z",
		Producer:  Producer{Generator: "spec_test", Provenance: "deterministic", Description: "A cat."},
		Prompt:    write("prompt.md", []byte("A cat.\n")),
	}
	seed := 0
	for _, st := range petpack.DefaultStates() {
		ss := SpecState{Name: st.Name}
		for i := range st.FrameDurationsMS {
			ss.Frames = append(ss.Frames, write(fmt.Sprintf("art/%s-%d.png", st.Name, i), pngBytes(t, 192, 208, seed)))
			seed++
		}
		s.States = append(s.States, ss)
	}
	s.References = []string{write("refs/sketch.txt", []byte("a sketch"))}
	return s, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
}

func TestAssemble(t *testing.T) {
	s, read := specFixture(t)
	// Reversed state order and a custom timing for thinking.
	for i, j := 0, len(s.States)-1; i < j; i, j = i+1, j-1 {
		s.States[i], s.States[j] = s.States[j], s.States[i]
	}
	for i := range s.States {
		if s.States[i].Name == petpack.ActionThinking {
			s.States[i].Timing = json.RawMessage(`{"frame_durations_ms":[100,200,300,400],"playback":{"mode":"burst_then_idle","entry_repeat_count":2},"reduced_motion_frame_index":3}`)
		}
	}
	files, opt, err := Assemble(s, read)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Pack(files, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Verdict.Manifest
	for i, a := range petpack.Actions() {
		if m.States[i].Name != a {
			t.Fatalf("state %d is %s, want %s", i, m.States[i].Name, a)
		}
	}
	th := m.State(petpack.ActionThinking)
	if fmt.Sprint(th.FrameDurationsMS) != "[100 200 300 400]" || *th.Playback.EntryRepeatCount != 2 || th.ReducedMotionFrameIndex != 3 {
		t.Errorf("thinking timing %+v", th)
	}
	if got := m.State(petpack.ActionIdle).FrameDurationsMS; fmt.Sprint(got) != "[260 220 240 260 380 640]" {
		t.Errorf("idle kept no default timing: %v", got)
	}
	var src petpack.Source
	for _, f := range res.Files {
		if f.Path == "assets/frames/tool/0002.png" && f.From != "art/tool-2.png" {
			t.Errorf("%s records its input as %q", f.Path, f.From)
		}
		if f.Path == "source/source.json" {
			if err := json.Unmarshal(f.Data, &src); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fmt.Sprint(src.ReferenceFiles) != "[sketch.txt]" || src.ManifestID != "pet_spec01" || src.StateFrameCounts == nil || src.StateFrameCounts.Total() != 50 {
		t.Errorf("source.json %+v", src)
	}
}

func TestAssembleRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(s *Spec)
		want string
	}{
		{"unknown action", func(s *Spec) { s.States[0].Name = "idel" }, `action "idel": not one of the nine fixed actions`},
		{"action twice", func(s *Spec) { s.States[1].Name = s.States[0].Name }, "action idle: given twice"},
		{"action missing", func(s *Spec) { s.States = s.States[1:] }, "action idle: no frames"},
		{"timing typo", func(s *Spec) { s.States[0].Timing = json.RawMessage(`{"frame_duration_ms":[100]}`) }, `action idle timing: json: unknown field "frame_duration_ms"`},
		{"unreadable frame", func(s *Spec) { s.States[2].Frames[1] = "nope.png" }, "action tool frame 1: "},
		{"no prompt", func(s *Spec) { s.Prompt = "" }, "the prompt file is required"},
		{"quality", func(s *Spec) { s.Quality = "ultra" }, `quality "ultra"`},
		{"cover frame syntax", func(s *Spec) { s.CoverFrame = "idle" }, `cover frame "idle": want ACTION/INDEX`},
		{"cover frame and cover", func(s *Spec) { s.CoverFrame, s.Cover = "idle/1", "prompt.md" }, "choose one"},
		{"duration out of range", func(s *Spec) {
			s.States[0].Timing = json.RawMessage(`{"frame_durations_ms":[100,10,3000],"playback":{"mode":"loop"},"reduced_motion_frame_index":0}`)
		}, `state_frame_duration_out_of_range: petpack_archive timing["idle"] frame_durations_ms[1]: 10 ms is outside 50 to 2000 ms`},
		{"frame count, default timing", func(s *Spec) { s.States[0].Frames = s.States[0].Frames[:5] },
			fmt.Sprintf("frame_count_mismatch: 5 frames in art/ for the %d durations of the contract's default timing of idle", len(petpack.DefaultStates()[0].FrameDurationsMS))},
		{"frame count, timing", func(s *Spec) {
			s.States[0].Timing = json.RawMessage(`{"frame_durations_ms":[100,100],"playback":{"mode":"loop"},"reduced_motion_frame_index":0}`)
		}, fmt.Sprintf(`frame_count_mismatch: %d frames in art/ for the 2 durations of petpack_archive timing["idle"]`, len(petpack.DefaultStates()[0].FrameDurationsMS))},
		{"reference names collide", func(s *Spec) { s.References = append(s.References, "refs/../refs/sketch.txt") }, "another reference is also named sketch.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, read := specFixture(t)
			tc.edit(s)
			_, _, err := Assemble(s, read)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is more than one line: %q", err)
			}
		})
	}
}

func TestParseSpecStrict(t *testing.T) {
	if _, err := ParseSpec([]byte(`{"id":"pet_a","colour":"red"}`)); err == nil || !strings.Contains(err.Error(), `unknown field "colour"`) {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := ParseSpec([]byte(`{"id":"pet_a"} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

// TestTimingWarningsRecorded: a package whose timing warns is still
// written, its timing warnings land in build/validation.json's
// timing_warnings (not warnings), and the recorded lines pass the privacy
// check the archive is validated with (a pointer's leading slash would read
// as an absolute path).
func TestTimingWarningsRecorded(t *testing.T) {
	s, read := specFixture(t)
	for i := range s.States {
		if s.States[i].Name == petpack.ActionThinking {
			s.States[i].Timing = json.RawMessage(`{"frame_durations_ms":[1200,1200,1200,1200],"playback":{"mode":"burst_then_idle","entry_repeat_count":3},"reduced_motion_frame_index":2}`)
		}
	}
	files, opt, err := Assemble(s, read)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Pack(files, opt)
	if err != nil {
		t.Fatalf("a package whose timing only warns is refused: %v", err)
	}
	var report petpack.ValidationReport
	for _, f := range res.Files {
		if f.Path == validationPath {
			if err := json.Unmarshal(f.Data, &report); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(report.TimingWarnings) == 0 || !strings.Contains(report.TimingWarnings[0], string(petpack.RuleActionDurationLong)) {
		t.Fatalf("timing_warnings %q", report.TimingWarnings)
	}
	for _, w := range report.Warnings {
		if strings.Contains(w, string(petpack.RuleActionDurationLong)) {
			t.Errorf("a timing warning in warnings: %q", w)
		}
	}
	if strings.Contains(report.TimingWarnings[0], " /") {
		t.Errorf("a pointer with its leading slash: %q", report.TimingWarnings[0])
	}
}
