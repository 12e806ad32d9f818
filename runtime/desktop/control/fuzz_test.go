package control

import (
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/fuzzseed"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzParseLine")

// seeds are FuzzParseLine's checked-in corpus: one line of each kind,
// and the refusals a client can provoke.
var seeds = map[string][]byte{
	"event":           []byte(`{"event":"thinking"}`),
	"role":            []byte(`{"role":"activity_curious"}`),
	"bubble":          []byte(`{"bubble":"Build green \u00e9"}`),
	"bubble_clear":    []byte(`{"bubble":""}`),
	"reduce_motion":   []byte(`{"reduce_motion":true}`),
	"unknown_event":   []byte(`{"event":"dance"}`),
	"two_kinds":       []byte(`{"event":"done","role":"activity_idle"}`),
	"duplicate_key":   []byte(`{"event":"done","event":"failed"}`),
	"unknown_key":     []byte(`{"colour":"red"}`),
	"not_json":        []byte("\x00\xff garbage"),
	"truncated":       []byte(`{"event":"fail`),
	"bubble_control":  []byte(`{"bubble":"a\u0007b"}`),
	"bubble_too_long": []byte(`{"bubble":"` + strings.Repeat("x", MaxBubbleRunes+1) + `"}`),
}

// TestFuzzSeeds writes the corpus with -update-seeds and otherwise checks
// that it is there and current, so the plain test run exercises every seed.
func TestFuzzSeeds(t *testing.T) {
	fuzzseed.Sync(t, "testdata/fuzz/FuzzParseLine", seeds, *updateSeeds,
		"go test ./runtime/desktop/control -run TestFuzzSeeds -update-seeds")
}

// FuzzParseLine: no line panics the parser; a refusal is an *Error with
// one of the Rules; an accepted message is exactly one kind, and its own
// encoding parses back to the same message.
func FuzzParseLine(f *testing.F) {
	rules := map[Rule]bool{}
	for _, r := range Rules() {
		rules[r] = true
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := ParseLine(line)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || !rules[e.Rule] {
				t.Fatalf("ParseLine(%q) = %v, not an *Error with a known rule", line, err)
			}
			return
		}
		if m.Kind() == "" {
			t.Fatalf("ParseLine(%q) accepted %+v, which is not one kind", line, m)
		}
		enc, err := m.MarshalLine()
		if err != nil {
			t.Fatalf("MarshalLine(%+v): %v", m, err)
		}
		back, err := ParseLine(enc[:len(enc)-1])
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, m, enc, back, err)
		}
	})
}
