package playback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// MaxTimeMS bounds every script time, one week: far beyond any cooldown
// (at most 86,400,000 ms), and small enough that a trace stays finite.
const MaxTimeMS = 7 * 24 * 3600 * 1000

// MaxScriptBytes bounds a script.
const MaxScriptBytes = 16 << 20

// StepKind says what a script line does.
type StepKind int

// The six kinds of script line.
const (
	// StepEvent is an Agent event ("event").
	StepEvent StepKind = iota + 1
	// StepPointer is a pointer input ("pointer").
	StepPointer
	// StepBubble shows or hides bubble content ("bubble").
	StepBubble
	// StepReduceMotion turns Reduce Motion on or off ("reduce_motion").
	StepReduceMotion
	// StepStall stops the renderer for StallMS ("stall_ms").
	StepStall
	// StepEnd ends the trace ("end"); it is the last line.
	StepEnd
)

// Step is one parsed script line.
type Step struct {
	// Line is the 1-based line number in the script.
	Line int
	// T is the time in milliseconds.
	T int64
	// Kind selects which of the fields below is meaningful.
	Kind StepKind
	// Event is the Agent event of a StepEvent.
	Event string
	// Pointer is the input of a StepPointer.
	Pointer Pointer
	// On is the value of a StepBubble or StepReduceMotion.
	On bool
	// StallMS is the stall length of a StepStall, at least 1.
	StallMS int64
}

// Script is a parsed playback script: steps in non-decreasing time, the
// last one a StepEnd.
type Script struct {
	// Steps holds every line, in order.
	Steps []Step
}

// scriptLine is the wire form: t_ms and exactly one other key.
type scriptLine struct {
	T            *int64  `json:"t_ms"`
	Event        *string `json:"event"`
	Pointer      *string `json:"pointer"`
	Bubble       *bool   `json:"bubble"`
	ReduceMotion *bool   `json:"reduce_motion"`
	StallMS      *int64  `json:"stall_ms"`
	End          *bool   `json:"end"`
}

// ScriptError is a rejected script: the 1-based line it names (0 when the
// script as a whole is wrong) and what is wrong.
type ScriptError struct {
	// Line is the offending line, 0 for the whole script.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as "script:LINE: message" ("script: message"
// for the whole script).
func (e *ScriptError) Error() string {
	if e.Line == 0 {
		return "script: " + e.Msg
	}
	return fmt.Sprintf("script:%d: %s", e.Line, e.Msg)
}

// ParseScript parses a JSON-lines script. Blank lines are skipped; every
// other line is one object with t_ms and exactly one of event, pointer,
// bubble, reduce_motion, stall_ms and end. An error names the first bad
// line (a *ScriptError), and no partial script is returned.
func ParseScript(data []byte) (*Script, error) {
	if len(data) > MaxScriptBytes {
		return nil, &ScriptError{Msg: fmt.Sprintf("%d bytes is over the %d-byte bound", len(data), MaxScriptBytes)}
	}
	s := &Script{}
	last := int64(0)
	ended := false
	for n, line := range bytes.Split(data, []byte("\n")) {
		num := n + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		fail := func(format string, args ...interface{}) (*Script, error) {
			return nil, &ScriptError{Line: num, Msg: fmt.Sprintf(format, args...)}
		}
		if ended {
			return fail("a line after the end line")
		}
		var w scriptLine
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&w); err != nil {
			return fail("not a script object: %v", err)
		}
		if dec.More() || len(bytes.TrimSpace(line[dec.InputOffset():])) != 0 {
			return fail("more than one JSON value on the line")
		}
		if w.T == nil {
			return fail("no t_ms")
		}
		if *w.T < 0 || *w.T > MaxTimeMS {
			return fail("t_ms %d is outside 0 to %d", *w.T, MaxTimeMS)
		}
		if *w.T < last {
			return fail("t_ms %d is before the previous line's %d", *w.T, last)
		}
		last = *w.T
		st := Step{Line: num, T: *w.T}
		kinds := 0
		if w.Event != nil {
			kinds++
			if _, err := EventAction(*w.Event); err != nil {
				return fail("%v", err)
			}
			st.Kind, st.Event = StepEvent, *w.Event
		}
		if w.Pointer != nil {
			kinds++
			st.Kind, st.Pointer = StepPointer, Pointer(*w.Pointer)
			if !knownPointer(st.Pointer) {
				return fail("unknown pointer input %q (want one of down, up, click, drag_left, drag_right, drag_end)", *w.Pointer)
			}
		}
		if w.Bubble != nil {
			kinds++
			st.Kind, st.On = StepBubble, *w.Bubble
		}
		if w.ReduceMotion != nil {
			kinds++
			st.Kind, st.On = StepReduceMotion, *w.ReduceMotion
		}
		if w.StallMS != nil {
			kinds++
			if *w.StallMS < 1 || *w.StallMS > MaxTimeMS {
				return fail("stall_ms %d is outside 1 to %d", *w.StallMS, MaxTimeMS)
			}
			st.Kind, st.StallMS = StepStall, *w.StallMS
		}
		if w.End != nil {
			kinds++
			if !*w.End {
				return fail(`"end" must be true`)
			}
			st.Kind = StepEnd
			ended = true
		}
		if kinds != 1 {
			return fail("want t_ms and exactly one of event, pointer, bubble, reduce_motion, stall_ms, end; found %d", kinds)
		}
		s.Steps = append(s.Steps, st)
	}
	if !ended {
		return nil, &ScriptError{Msg: `no end line (the last line must be {"t_ms":N,"end":true})`}
	}
	return s, nil
}

func knownPointer(in Pointer) bool {
	for _, p := range Pointers() {
		if in == p {
			return true
		}
	}
	return false
}

// Line is one trace line: what becomes visible at T.
type Line struct {
	// T is the time in milliseconds.
	T int64 `json:"t_ms"`
	// Action is the action whose frame shows.
	Action model.Action `json:"action"`
	// Frame is the frame index.
	Frame int `json:"frame"`
	// Scale is the press-scale factor, 1 when none.
	Scale float64 `json:"scale"`
}

// AppendJSON appends the line as one JSON object without a newline, the
// same bytes json.Marshal writes, without allocating.
func (l Line) AppendJSON(b []byte) []byte {
	b = append(b, `{"t_ms":`...)
	b = strconv.AppendInt(b, l.T, 10)
	b = append(b, `,"action":`...)
	b = strconv.AppendQuote(b, string(l.Action))
	b = append(b, `,"frame":`...)
	b = strconv.AppendInt(b, int64(l.Frame), 10)
	b = append(b, `,"scale":`...)
	b = strconv.AppendFloat(b, l.Scale, 'g', -1, 64)
	return append(b, '}')
}

// apply runs one script step on the player, returning the stall length of
// a StepStall.
func (p *Player) apply(st *Step) (int64, error) {
	switch st.Kind {
	case StepEvent:
		return 0, p.Event(st.T, st.Event)
	case StepPointer:
		return 0, p.Pointer(st.T, st.Pointer)
	case StepBubble:
		p.SetBubble(st.T, st.On)
	case StepReduceMotion:
		p.SetReduceMotion(st.T, st.On)
	case StepStall:
		p.Advance(st.T)
		return st.StallMS, nil
	case StepEnd:
		p.Advance(st.T)
	}
	return 0, nil
}

// Trace runs a script on a fresh player and calls emit once per visible
// change: at t=0, then whenever what is presented differs from the last
// line, at most once per instant (after every step due then), never inside
// a stall (reading 8: the renderer is stopped, time and steps are not; at
// the stall's end what is due then shows once, if it differs), and nothing
// after the end line's time. It stops at emit's first error.
func Trace(p *Player, s *Script, emit func(Line) error) error {
	var last Frame
	shown := false
	stallUntil := int64(-1)
	steps := s.Steps
	i := 0
	t := int64(0)
	for {
		done := false
		for i < len(steps) && steps[i].T <= t {
			st := &steps[i]
			i++
			stall, err := p.apply(st)
			if err != nil {
				return fmt.Errorf("script:%d: %v", st.Line, err)
			}
			if st.T+stall > stallUntil && stall > 0 {
				stallUntil = st.T + stall
			}
			if st.Kind == StepEnd {
				done = true
			}
		}
		stalled := t < stallUntil
		if stalled {
			p.Advance(t)
		} else if f := p.Show(t); !shown || f != last {
			shown, last = true, f
			if err := emit(Line{T: t, Action: f.Action, Frame: f.Index, Scale: f.Scale}); err != nil {
				return err
			}
		}
		if done || i >= len(steps) {
			return nil
		}
		next := steps[i].T
		if stalled {
			if stallUntil < next {
				next = stallUntil
			}
		} else if c, ok := p.NextChange(); ok && c < next {
			next = c
		}
		t = next
	}
}
