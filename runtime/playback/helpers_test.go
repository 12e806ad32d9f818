package playback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// goldenPath is the sample pet, read by path (its bytes are not asserted).
const goldenPath = "../../assets/petpack/pet_tabby.petpack.golden"

var (
	sampleOnce sync.Once
	sample     *petpack.Manifest
	sampleErr  error
)

// sampleManifest is the sample pet's validated manifest.
func sampleManifest(t testing.TB) *petpack.Manifest {
	t.Helper()
	sampleOnce.Do(func() {
		// Read the bytes: under Bazel the path is a runfiles symlink, which
		// ValidatePath rightly refuses.
		data, err := os.ReadFile(goldenPath)
		if err != nil {
			sampleErr = err
			return
		}
		v := petpack.Validate(bytes.NewReader(data), int64(len(data)))
		if err := v.Err(); err != nil {
			sampleErr = err
			return
		}
		sample = v.Manifest
	})
	if sampleErr != nil {
		t.Fatalf("%s: %v", goldenPath, sampleErr)
	}
	return sample
}

// manifestOf is a validated manifest of the states (hand-made timing).
func manifestOf(t testing.TB, states []petpack.State) *petpack.Manifest {
	t.Helper()
	m := petpack.Manifest{
		SchemaVersion: petpack.SchemaVersion,
		ID:            "pet_test01",
		Name:          "Test Cat",
		Style:         "flat",
		Quality:       petpack.QualityLow,
		RenderSize:    petpack.Size{Width: 192, Height: 208},
		States:        states,
		CreatedAt:     "2025-01-02T03:04:05Z",
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	v := petpack.ValidateManifest(b)
	if err := v.Err(); err != nil {
		t.Fatalf("hand-made manifest rejected: %v", err)
	}
	return v.Manifest
}

// edited is the default states with edit applied to the named state.
func edited(a petpack.Action, edit func(s *petpack.State)) []petpack.State {
	states := petpack.DefaultStates()
	for i := range states {
		if states[i].Name == a {
			edit(&states[i])
		}
	}
	return states
}

func intp(n int) *int { return &n }

// constRand always draws v (clamped into range), so cooldowns are known.
type constRand int64

func (c constRand) Int63n(n int64) int64 {
	if int64(c) >= n {
		return n - 1
	}
	return int64(c)
}

// trace runs script (JSON lines, "\n"-separated) and returns its lines in
// the short form "T action frame" (plus " xSCALE" when not 1).
func trace(t testing.TB, m *petpack.Manifest, r Rand, script string) []string {
	t.Helper()
	s, err := ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(m, r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	err = Trace(p, s, func(l Line) error {
		out = append(out, short(l))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func short(l Line) string {
	s := fmt.Sprintf("%d %s %d", l.T, l.Action, l.Frame)
	if l.Scale != 1 {
		s += fmt.Sprintf(" x%g", l.Scale)
	}
	return s
}

// seq is the lines of passes of an action's authored durations from start,
// frame after frame: the independent model of "each frame for exactly its
// authored duration".
func seq(start int64, a petpack.Action, durations []int, passes int) ([]string, int64) {
	var out []string
	t := start
	for p := 0; p < passes; p++ {
		for i, d := range durations {
			out = append(out, fmt.Sprintf("%d %s %d", t, a, i))
			t += int64(d)
		}
	}
	return out, t
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func lines(s ...string) []string { return s }

func script(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func durations(m *petpack.Manifest, a petpack.Action) []int {
	return m.State(a).FrameDurationsMS
}

func checkLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		n := len(got)
		if len(want) < n {
			n = len(want)
		}
		for i := 0; i < n; i++ {
			if got[i] != want[i] {
				t.Fatalf("line %d: got %q, want %q\ngot:  %q\nwant: %q", i, got[i], want[i], got, want)
			}
		}
		t.Fatalf("got %d lines, want %d\ngot:  %q\nwant: %q", len(got), len(want), got, want)
	}
}

func seeded(seed int64) Rand { return rand.New(rand.NewSource(seed)) }
