package playback

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

func TestParseScriptErrors(t *testing.T) {
	end := `{"t_ms":9,"end":true}`
	cases := []struct {
		name, script, want string
	}{
		{"not json", "nope\n" + end, "script:1: not a script object"},
		{"unknown key", `{"t_ms":0,"jump":true}` + "\n" + end, `script:1: not a script object: json: unknown field "jump"`},
		{"no t_ms", `{"event":"tool"}` + "\n" + end, "script:1: no t_ms"},
		{"negative", `{"t_ms":-1,"event":"tool"}` + "\n" + end, "script:1: t_ms -1 is outside"},
		{"fraction", `{"t_ms":1.5,"event":"tool"}` + "\n" + end, "script:1: not a script object"},
		{"too late", `{"t_ms":604800001,"end":true}`, "script:1: t_ms 604800001 is outside"},
		{"decreasing", `{"t_ms":5,"event":"tool"}` + "\n\n" + `{"t_ms":4,"event":"done"}` + "\n" + end, "script:3: t_ms 4 is before the previous line's 5"},
		{"two kinds", `{"t_ms":0,"event":"tool","bubble":true}` + "\n" + end, "script:1: want t_ms and exactly one"},
		{"no kind", `{"t_ms":0}` + "\n" + end, "script:1: want t_ms and exactly one"},
		{"unknown event", `{"t_ms":0,"event":"review"}` + "\n" + end, `script:1: unknown agent event "review"`},
		{"unknown pointer", `{"t_ms":0,"pointer":"hover"}` + "\n" + end, `script:1: unknown pointer input "hover"`},
		{"bad bubble", `{"t_ms":0,"bubble":1}` + "\n" + end, "script:1: not a script object"},
		{"zero stall", `{"t_ms":0,"stall_ms":0}` + "\n" + end, "script:1: stall_ms 0 is outside"},
		{"end false", `{"t_ms":0,"end":false}`, `script:1: "end" must be true`},
		{"after end", end + "\n" + end, "script:2: a line after the end line"},
		{"no end", `{"t_ms":0,"event":"tool"}`, "script: no end line"},
		{"empty", "", "script: no end line"},
		{"two values", `{"t_ms":0,"event":"tool"} {"t_ms":1,"event":"done"}` + "\n" + end, "script:1: more than one JSON value"},
		{"array", `[1]` + "\n" + end, "script:1: not a script object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseScript([]byte(c.script))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want prefix %q", err, c.want)
			}
			if s != nil {
				t.Fatal("a rejected script returned steps")
			}
		})
	}
}

func TestParseScriptKinds(t *testing.T) {
	s, err := ParseScript([]byte(strings.Join([]string{
		`{"t_ms":0,"event":"thinking"}`,
		`  `,
		`{"t_ms":900,"pointer":"down"}`,
		`{"t_ms":950,"bubble":true}`,
		`{"t_ms":1000,"reduce_motion":true}`,
		`{"t_ms":1200,"stall_ms":4000}`,
		`{"t_ms":9000,"end":true}`,
	}, "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Line: 1, T: 0, Kind: StepEvent, Event: "thinking"},
		{Line: 3, T: 900, Kind: StepPointer, Pointer: PointerDown},
		{Line: 4, T: 950, Kind: StepBubble, On: true},
		{Line: 5, T: 1000, Kind: StepReduceMotion, On: true},
		{Line: 6, T: 1200, Kind: StepStall, StallMS: 4000},
		{Line: 7, T: 9000, Kind: StepEnd},
	}
	if len(s.Steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(s.Steps), len(want))
	}
	for i := range want {
		if s.Steps[i] != want[i] {
			t.Errorf("step %d: %+v, want %+v", i, s.Steps[i], want[i])
		}
	}
}

// TestLineJSON checks that AppendJSON writes what json.Marshal writes.
func TestLineJSON(t *testing.T) {
	for _, l := range []Line{
		{0, petpack.ActionIdle, 0, 1},
		{123456789, petpack.ActionDragRight, 5, PressScale},
	} {
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("AppendJSON %s, json.Marshal %s", got, want)
		}
	}
	if got := string(Line{0, petpack.ActionIdle, 0, 1}.AppendJSON(nil)); got != `{"t_ms":0,"action":"idle","frame":0,"scale":1}` {
		t.Errorf("the issue's example line: %s", got)
	}
}

// TestTraceDeterministic checks that one script and seed give the same
// lines, another seed other cooldowns, and that lines never repeat, never
// share an instant and never pass the end.
func TestTraceDeterministic(t *testing.T) {
	m := sampleManifest(t)
	sc := script(`{"t_ms":0,"event":"start"}`, `{"t_ms":30000,"event":"thinking"}`,
		`{"t_ms":31000,"pointer":"drag_left"}`, `{"t_ms":31500,"pointer":"drag_end"}`,
		`{"t_ms":40000,"pointer":"down"}`, `{"t_ms":40100,"pointer":"up"}`, `{"t_ms":40100,"pointer":"click"}`,
		`{"t_ms":60000,"end":true}`)
	a := trace(t, m, seeded(1), sc)
	b := trace(t, m, seeded(1), sc)
	c := trace(t, m, seeded(2), sc)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatal("seed 1 gave two traces")
	}
	if strings.Join(a, "\n") == strings.Join(c, "\n") {
		t.Fatal("seeds 1 and 2 gave the same trace")
	}
	for i := 1; i < len(a); i++ {
		var t0, t1 int64
		var r0, r1 string
		split(a[i-1], &t0, &r0)
		split(a[i], &t1, &r1)
		if t1 <= t0 || r0 == r1 || t1 > 60000 {
			t.Fatalf("lines %q then %q", a[i-1], a[i])
		}
	}
}

func split(l string, t *int64, rest *string) {
	i := strings.IndexByte(l, ' ')
	for _, c := range l[:i] {
		*t = *t*10 + int64(c-'0')
	}
	*rest = l[i+1:]
}
