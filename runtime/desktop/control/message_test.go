package control

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/playback"
)

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

func TestParseLine(t *testing.T) {
	long := strings.Repeat("x", MaxBubbleRunes)
	cases := []struct {
		line string
		want Message
		rule Rule
	}{
		{`{"event":"thinking"}`, Message{Event: "thinking"}, ""},
		{` {"event":"failed"} `, Message{Event: "failed"}, ""},
		{`{"role":"activity_curious"}`, Message{Role: "activity_curious"}, ""},
		{`{"bubble":"Build green"}`, Message{Bubble: strp("Build green")}, ""},
		{`{"bubble":""}`, Message{Bubble: strp("")}, ""},
		{`{"bubble":"` + long + `"}`, Message{Bubble: strp(long)}, ""},
		{`{"bubble":"` + strings.Repeat("é", MaxBubbleRunes) + `"}`, Message{Bubble: strp(strings.Repeat("é", MaxBubbleRunes))}, ""},
		{`{"reduce_motion":true}`, Message{ReduceMotion: boolp(true)}, ""},
		{`{"reduce_motion":false}`, Message{ReduceMotion: boolp(false)}, ""},
		{`{"event":"dance"}`, Message{}, RuleUnknownEvent},
		{`{"event":""}`, Message{}, RuleUnknownEvent},
		{`{"event":"Thinking"}`, Message{}, RuleUnknownEvent},
		{`{"role":"Activity"}`, Message{}, RuleInvalidRole},
		{`{"role":"images"}`, Message{}, RuleInvalidRole},
		{`{"role":""}`, Message{}, RuleInvalidRole},
		{`{"role":"` + strings.Repeat("a", 32) + `"}`, Message{}, RuleInvalidRole},
		{`{"bubble":"` + long + `x"}`, Message{}, RuleBubbleTooLong},
		{`{"bubble":"a\nb"}`, Message{}, RuleBubbleInvalid},
		{`{"bubble":"\u0007"}`, Message{}, RuleBubbleInvalid},
		{`{}`, Message{}, RuleNotOneKind},
		{`{"event":"done","role":"activity_idle"}`, Message{}, RuleNotOneKind},
		{`{"bubble":null}`, Message{}, RuleNotOneKind},
		{`{"event":"done","event":"failed"}`, Message{}, RuleMalformed},
		{`{"event":"done","colour":"red"}`, Message{}, RuleMalformed},
		{`{"reduce_motion":"on"}`, Message{}, RuleMalformed},
		{`{"event":5}`, Message{}, RuleMalformed},
		{`thinking`, Message{}, RuleMalformed},
		{`["event","thinking"]`, Message{}, RuleMalformed},
		{`{"event":"done"}{"event":"done"}`, Message{}, RuleMalformed},
		{`{"event":"done"`, Message{}, RuleMalformed},
		{"{\"bubble\":\"\xff\"}", Message{}, RuleMalformed},
		{`{"bubble":"` + strings.Repeat("x", MaxLineBytes) + `"}`, Message{}, RuleLineTooLong},
	}
	for _, c := range cases {
		got, err := ParseLine([]byte(c.line))
		if c.rule == "" {
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseLine(%.60q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Rule != c.rule {
			t.Errorf("ParseLine(%.60q) error = %v; want rule %s", c.line, err, c.rule)
		}
	}
}

// TestRuleDocs holds the numbers the rules' doc comments (and so
// docs/rule-ids.md) print to the constants.
func TestRuleDocs(t *testing.T) {
	src, err := os.ReadFile("message.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("over %d characters (MaxBubbleRunes)", MaxBubbleRunes),
		fmt.Sprintf("over %d bytes with its newline", MaxLineBytes),
		fmt.Sprintf("silent for %d s", int(IdleTimeout.Seconds())),
		fmt.Sprintf("// RuleBusy: %d clients (MaxConns)", MaxConns),
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(src)), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("message.go's rule docs lack %q", want)
		}
	}
}

// TestMarshalLine: every kind of message encodes to a line ParseLine reads
// back as the same message, and Check's refusals are MarshalLine's.
func TestMarshalLine(t *testing.T) {
	for _, m := range []Message{
		EventMessage("plan"), RoleMessage("expression_happy"), BubbleMessage("héllo \"pet\""),
		ClearBubble(), ReduceMotionMessage(true), ReduceMotionMessage(false),
	} {
		line, err := m.MarshalLine()
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		if !strings.HasSuffix(string(line), "\n") || strings.Count(string(line), "\n") != 1 {
			t.Errorf("%+v: line %q is not one line", m, line)
		}
		got, err := ParseLine(line[:len(line)-1])
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%+v: round trip gave %+v, %v", m, got, err)
		}
		if m.Kind() == "" {
			t.Errorf("%+v has no kind", m)
		}
	}
	for _, m := range []Message{{}, {Event: "done", Role: "activity_idle"}, EventMessage("nap")} {
		if _, err := m.MarshalLine(); err == nil {
			t.Errorf("MarshalLine(%+v) succeeded", m)
		}
		if m.Kind() != "" {
			t.Errorf("Kind(%+v) = %q", m, m.Kind())
		}
	}
}

// TestEventRoles holds the table to playback's events (every one, in its
// order), to the contract's recommended role names, and to the copies the
// package doc and docs/desktop.md print.
func TestEventRoles(t *testing.T) {
	rows := EventRoles()
	events := playback.Events()
	if len(rows) != len(events) {
		t.Fatalf("%d rows for %d events", len(rows), len(events))
	}
	recommended := map[string]bool{RoleActivityIdle: true, RoleActivityCurious: true, RoleActivityAttentive: true,
		RoleExpressionNeutral: true, RoleExpressionHappy: true, RoleFallbackDefault: true}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// The repository's docs, from this package's directory (the same in
	// Bazel's runfiles tree, which holds the page as data).
	page, err := os.ReadFile("../../../docs/desktop.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r.Event != events[i] {
			t.Errorf("row %d is %q, want %q", i, r.Event, events[i])
		}
		if !recommended[r.Role] || r.Role == RoleFallbackDefault {
			t.Errorf("%s maps to %q, not a recommended non-fallback role", r.Event, r.Role)
		}
		if got, err := RoleForEvent(r.Event); err != nil || got != r.Role {
			t.Errorf("RoleForEvent(%q) = %q, %v", r.Event, got, err)
		}
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^//\t%s +%s\b`, r.Event, r.Role)).Match(doc) {
			t.Errorf("doc.go's table lacks the row %s -> %s", r.Event, r.Role)
		}
		if row := fmt.Sprintf("| `%s` | `%s` |\n", r.Event, r.Role); !strings.Contains(string(page), row) {
			t.Errorf("docs/desktop.md's table lacks the row %q", row)
		}
	}
	if _, err := RoleForEvent("nap"); err == nil || !strings.Contains(err.Error(), string(RuleUnknownEvent)) {
		t.Errorf("RoleForEvent(nap) error = %v", err)
	}
	rows[0].Role = "changed"
	if EventRoles()[0].Role == "changed" {
		t.Error("EventRoles returns the table itself, not a copy")
	}
}
