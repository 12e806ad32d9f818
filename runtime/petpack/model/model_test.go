package model

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The model is the leaf every consumer may import without the validator:
// a module import here would pull one in again.
func TestImportsNothingOfTheModule(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		checked++
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/agentpet/rules_pet/") {
				t.Errorf("%s: imports %s; package model imports no other package of the module", fset.Position(imp.Pos()), path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source file found beside the test (under Bazel they are the test's data)")
	}
}

func TestActions(t *testing.T) {
	want := []struct {
		action Action
		mode   PlaybackMode
	}{
		{ActionIdle, ModePeriodic},
		{ActionThinking, ModeBurstThenIdle},
		{ActionTool, ModeBurstThenIdle},
		{ActionWaiting, ModeBurstThenSettle},
		{ActionDone, ModeBurstThenIdle},
		{ActionFailed, ModeBurstThenSettle},
		{ActionAcknowledge, ModeOnceThenReturn},
		{ActionDragLeft, ModeLoop},
		{ActionDragRight, ModeLoop},
	}
	got := Actions()
	if len(got) != len(want) {
		t.Fatalf("Actions() has %d actions, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i] != w.action {
			t.Errorf("Actions()[%d] = %s, want %s", i, got[i], w.action)
		}
		if m := w.action.Mode(); m != w.mode {
			t.Errorf("%s.Mode() = %s, want %s", w.action, m, w.mode)
		}
		if d := w.action.FramesDir(); d != "assets/frames/"+string(w.action) {
			t.Errorf("%s.FramesDir() = %s", w.action, d)
		}
	}
	modes := map[PlaybackMode]bool{}
	for _, m := range Modes() {
		modes[m] = true
	}
	for _, w := range want {
		if !modes[w.mode] {
			t.Errorf("Modes() lacks %s", w.mode)
		}
	}
	if len(modes) != 5 {
		t.Errorf("Modes() holds %d distinct modes, want 5", len(modes))
	}
	if m, d := Action("start").Mode(), Action("start").FramesDir(); m != "" || d != "" {
		t.Errorf("a removed action has mode %q and frames dir %q, want none", m, d)
	}
}

func TestDefaultStates(t *testing.T) {
	states := DefaultStates()
	m := &Manifest{States: states}
	for _, a := range Actions() {
		s := m.State(a)
		if s == nil {
			t.Fatalf("no default state for %s", a)
		}
		p := s.Playback
		if p.Mode != a.Mode() || s.FramesDir != a.FramesDir() {
			t.Errorf("%s: mode %s, frames_dir %s", a, p.Mode, s.FramesDir)
		}
		burst := p.Mode == ModeBurstThenIdle || p.Mode == ModeBurstThenSettle
		if (p.EntryRepeatCount != nil) != burst || (p.SettleFrameIndex != nil) != (p.Mode == ModeBurstThenSettle) || (p.CooldownMS != nil) != (p.Mode == ModePeriodic) {
			t.Errorf("%s: playback fields %s do not fit mode %s", a, mustJSON(t, p), p.Mode)
		}
		if s.ReducedMotionFrameIndex < 0 || s.ReducedMotionFrameIndex >= len(s.FrameDurationsMS) {
			t.Errorf("%s: reduced-motion index %d outside %d frames", a, s.ReducedMotionFrameIndex, len(s.FrameDurationsMS))
		}
	}
	states[0].FrameDurationsMS[0] = -1
	if DefaultStates()[0].FrameDurationsMS[0] == -1 {
		t.Error("DefaultStates shares its slices between calls")
	}
	counts := CountsOf(m)
	total := 0
	for _, s := range states {
		total += len(s.FrameDurationsMS)
		if counts.Of(s.Name) != len(s.FrameDurationsMS) {
			t.Errorf("CountsOf: %s has %d, want %d", s.Name, counts.Of(s.Name), len(s.FrameDurationsMS))
		}
	}
	if counts.Total() != total {
		t.Errorf("Total() = %d, want %d", counts.Total(), total)
	}
}

func TestHasExtension(t *testing.T) {
	for name, want := range map[string]bool{
		"a.petpack": true, "A.PetPack": true, ".petpack": true,
		"a.petpack.zip": false, "petpack": false, "": false,
	} {
		if got := HasExtension(name); got != want {
			t.Errorf("HasExtension(%q) = %v, want %v", name, got, want)
		}
	}
}

func mustJSON(t *testing.T, v interface{}) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
