package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentpet/rules_pet/internal/strictjson"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/playback"
)

// MaxLineBytes bounds one request line, its newline included: room for a
// bubble of MaxBubbleRunes characters even when every one is escaped as a
// JSON surrogate pair.
const MaxLineBytes = 2048

// MaxBubbleRunes bounds bubble text, in characters: a short line the
// bubble window shows whole.
const MaxBubbleRunes = 120

// Rule is the stable identifier of one reason a request is refused; a
// reply's error is "RULE: reason".
type Rule string

// The reasons a request or a connection is refused.
const (
	// RuleMalformed: the line is not exactly one JSON object (invalid
	// UTF-8, a key twice, an unknown key, a value of the wrong type).
	RuleMalformed Rule = "control_malformed"
	// RuleNotOneKind: the object has no message key, or more than one.
	RuleNotOneKind Rule = "control_not_one_kind"
	// RuleUnknownEvent: the event is not one of the seven Agent events.
	RuleUnknownEvent Rule = "control_unknown_event"
	// RuleInvalidRole: the role is not a manifest identifier (manifest
	// contract section 6).
	RuleInvalidRole Rule = "control_invalid_role"
	// RuleBubbleTooLong: bubble text over 120 characters (MaxBubbleRunes).
	RuleBubbleTooLong Rule = "control_bubble_too_long"
	// RuleBubbleInvalid: bubble text with a control character.
	RuleBubbleInvalid Rule = "control_bubble_invalid"
	// RuleLineTooLong: a line over 2048 bytes with its newline
	// (MaxLineBytes); the rest of it is skipped.
	RuleLineTooLong Rule = "control_line_too_long"
	// RuleIncompleteLine: the client closed, or stayed silent for 10 s
	// (IdleTimeout), before the line's newline.
	RuleIncompleteLine Rule = "control_incomplete_line"
	// RulePeerRefused: the client runs as another user (SO_PEERCRED), or
	// its user cannot be checked.
	RulePeerRefused Rule = "control_peer_refused"
	// RuleBusy: 8 clients (MaxConns) are connected already, or the pet is
	// closing.
	RuleBusy Rule = "control_busy"
)

// Rules returns every Rule, in the order above.
func Rules() []Rule {
	return []Rule{RuleMalformed, RuleNotOneKind, RuleUnknownEvent, RuleInvalidRole, RuleBubbleTooLong,
		RuleBubbleInvalid, RuleLineTooLong, RuleIncompleteLine, RulePeerRefused, RuleBusy}
}

// Error is a refused request: the rule it breaks and why.
type Error struct {
	// Rule is the stable identifier.
	Rule Rule
	// Reason says what is wrong, for a person.
	Reason string
}

// Error formats the error as "RULE: reason", the reply's error text.
func (e *Error) Error() string { return string(e.Rule) + ": " + e.Reason }

func refuse(rule Rule, format string, args ...interface{}) *Error {
	return &Error{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// Message is one control message; exactly one field is set.
type Message struct {
	// Event is an Agent event (playback.Events).
	Event string `json:"event,omitempty"`
	// Role is a role name to present (pack and runtime-copy pets).
	Role string `json:"role,omitempty"`
	// Bubble is bubble text to show; a pointer to "" clears the bubble.
	Bubble *string `json:"bubble,omitempty"`
	// ReduceMotion turns Reduce Motion on or off.
	ReduceMotion *bool `json:"reduce_motion,omitempty"`
}

// EventMessage is a Message carrying an Agent event.
func EventMessage(event string) Message { return Message{Event: event} }

// RoleMessage is a Message presenting role.
func RoleMessage(role string) Message { return Message{Role: role} }

// BubbleMessage is a Message showing text in the bubble.
func BubbleMessage(text string) Message { return Message{Bubble: &text} }

// ClearBubble is a Message clearing the bubble.
func ClearBubble() Message { return BubbleMessage("") }

// ReduceMotionMessage is a Message turning Reduce Motion on or off.
func ReduceMotionMessage(on bool) Message { return Message{ReduceMotion: &on} }

// wire is a request as decoded: pointers tell a key that is absent from
// one that is present and empty.
type wire struct {
	Event        *string `json:"event"`
	Role         *string `json:"role"`
	Bubble       *string `json:"bubble"`
	ReduceMotion *bool   `json:"reduce_motion"`
}

// ParseLine parses one request line (without its newline; a trailing
// "\r" and surrounding spaces are allowed) and checks the message.
func ParseLine(line []byte) (Message, error) {
	if len(line) >= MaxLineBytes {
		return Message{}, refuse(RuleLineTooLong, "%d bytes is over the %d-byte line bound", len(line), MaxLineBytes)
	}
	if p := strictjson.CheckObject(line); len(p) > 0 {
		return Message{}, refuse(RuleMalformed, "not one JSON object: %s%s", pointerPrefix(p[0].Pointer), p[0].Msg)
	}
	var w wire
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Message{}, refuse(RuleMalformed, "%v", err)
	}
	n := 0
	for _, set := range []bool{w.Event != nil, w.Role != nil, w.Bubble != nil, w.ReduceMotion != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return Message{}, refuse(RuleNotOneKind, "want exactly one of event, role, bubble, reduce_motion; got %d", n)
	}
	m := Message{Bubble: w.Bubble, ReduceMotion: w.ReduceMotion}
	if w.Event != nil {
		m.Event = *w.Event
	}
	if w.Role != nil {
		m.Role = *w.Role
		if m.Role == "" {
			// Message leaves an empty role out of its JSON, so it cannot
			// mean anything; say so rather than "got 0 kinds" later.
			return Message{}, refuse(RuleInvalidRole, "empty role")
		}
	}
	if w.Event != nil && m.Event == "" {
		return Message{}, refuse(RuleUnknownEvent, "empty event (want one of %s)", strings.Join(playback.Events(), ", "))
	}
	return m, m.Check()
}

func pointerPrefix(p string) string {
	if p == "" {
		return ""
	}
	return p + ": "
}

// Check reports the first thing wrong with a message: not exactly one
// kind, an unknown event, a role that is not an identifier, bubble text too
// long or with a control character.
func (m Message) Check() error {
	n := 0
	for _, set := range []bool{m.Event != "", m.Role != "", m.Bubble != nil, m.ReduceMotion != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return refuse(RuleNotOneKind, "want exactly one of event, role, bubble, reduce_motion; got %d", n)
	}
	switch {
	case m.Event != "":
		if _, err := playback.EventAction(m.Event); err != nil {
			return refuse(RuleUnknownEvent, "%.40q is not an Agent event (want one of %s)", m.Event, strings.Join(playback.Events(), ", "))
		}
	case m.Role != "":
		if rule, msg := manifest.CheckIdentifier(m.Role); rule != "" {
			return refuse(RuleInvalidRole, "%s (%s)", msg, rule)
		}
	case m.Bubble != nil:
		text := *m.Bubble
		if !utf8.ValidString(text) {
			return refuse(RuleBubbleInvalid, "bubble text is not valid UTF-8")
		}
		if n := utf8.RuneCountInString(text); n > MaxBubbleRunes {
			return refuse(RuleBubbleTooLong, "bubble text is %d characters, more than %d", n, MaxBubbleRunes)
		}
		for _, r := range text {
			if unicode.IsControl(r) {
				return refuse(RuleBubbleInvalid, "bubble text has the control character %U", r)
			}
		}
	}
	return nil
}

// Kind names the message's kind: "event", "role", "bubble",
// "reduce_motion", or "" for a message that is not exactly one.
func (m Message) Kind() string {
	if m.Check() != nil {
		return ""
	}
	switch {
	case m.Event != "":
		return "event"
	case m.Role != "":
		return "role"
	case m.Bubble != nil:
		return "bubble"
	}
	return "reduce_motion"
}

// MarshalLine is the message's request line, newline included. It fails
// for a message Check refuses, so a client never sends what the pet would
// refuse for its form.
func (m Message) MarshalLine() ([]byte, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	var b []byte
	var err error
	if m.Bubble != nil && *m.Bubble == "" {
		// omitempty would drop the key that says "clear".
		b = []byte(`{"bubble":""}`)
	} else if b, err = json.Marshal(m); err != nil {
		return nil, fmt.Errorf("encoding a control message: %w", err)
	}
	return append(b, '\n'), nil
}

// EventRole is one row of the fixed event to role table.
type EventRole struct {
	// Event is the Agent event.
	Event string
	// Role is the manifest contract's recommended role name it presents.
	Role string
}

// The manifest contract's recommended role names (section 5.3).
const (
	RoleActivityIdle      = "activity_idle"
	RoleActivityCurious   = "activity_curious"
	RoleActivityAttentive = "activity_attentive"
	RoleExpressionNeutral = "expression_neutral"
	RoleExpressionHappy   = "expression_happy"
	RoleFallbackDefault   = "fallback_default"
)

// eventRoles is the table the package doc prints; TestEventRoles holds the
// two together and to playback.Events.
var eventRoles = []EventRole{
	{"start", RoleActivityIdle},
	{"thinking", RoleActivityCurious},
	{"plan", RoleActivityCurious},
	{"tool", RoleActivityAttentive},
	{"waiting", RoleActivityAttentive},
	{"done", RoleExpressionHappy},
	{"failed", RoleExpressionNeutral},
}

// EventRoles returns the fixed table mapping each Agent event, in
// playback.Events order, to the recommended role a pack or runtime-copy
// pet presents for it.
func EventRoles() []EventRole { return append([]EventRole(nil), eventRoles...) }

// RoleForEvent returns the role a pack or runtime-copy pet presents for an
// Agent event, and an error naming an unknown event. A manifest that does
// not map the role presents its fallback role (presentation.Select does).
func RoleForEvent(event string) (string, error) {
	for _, r := range eventRoles {
		if r.Event == event {
			return r.Role, nil
		}
	}
	return "", refuse(RuleUnknownEvent, "%.40q is not an Agent event (want one of %s)", event, strings.Join(playback.Events(), ", "))
}
