package motionqa

import (
	"fmt"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// presenceActions are the actions the presence preview plays.
var presenceActions = []petpack.Action{petpack.ActionIdle, petpack.ActionThinking, petpack.ActionTool, petpack.ActionDone}

// PresencePlan is the presence preview's sequence before any pixel is
// read: idle once, thinking x repeat, a 700 ms idle rest, tool x repeat, a
// 700 ms rest, done x repeat, then a final rest of max(500, 10000 -
// elapsed). Every rest holds idle's reduced-motion frame.
type PresencePlan struct {
	// Segments are the sequence entries.
	Segments []PresenceSegment
	// DurationMS is the total; LateMotionMS the time the final rest starts.
	DurationMS, LateMotionMS int
}

// PresenceSegment is one entry of the presence sequence.
type PresenceSegment struct {
	// Rest marks an idle rest; otherwise the action State plays Repeat times.
	Rest       bool
	State      petpack.Action
	Repeat     int
	DurationMS int
}

// PlanPresence computes the presence sequence of a manifest.
func PlanPresence(m *petpack.Manifest) PresencePlan {
	var p PresencePlan
	add := func(seg PresenceSegment) {
		p.Segments = append(p.Segments, seg)
		p.DurationMS += seg.DurationMS
	}
	play := func(a petpack.Action, rep int) {
		add(PresenceSegment{State: a, Repeat: rep, DurationMS: sum(m.State(a).FrameDurationsMS) * rep})
	}
	rest := func(ms int) { add(PresenceSegment{Rest: true, State: petpack.ActionIdle, DurationMS: ms}) }
	play(petpack.ActionIdle, 1)
	play(petpack.ActionThinking, repeatCount(m.State(petpack.ActionThinking)))
	rest(PresenceRestMS)
	play(petpack.ActionTool, repeatCount(m.State(petpack.ActionTool)))
	rest(PresenceRestMS)
	play(petpack.ActionDone, repeatCount(m.State(petpack.ActionDone)))
	p.LateMotionMS = p.DurationMS
	final := PresenceTargetMS - p.DurationMS
	if final < PresenceFinalMin {
		final = PresenceFinalMin
	}
	rest(final)
	return p
}

// presencePreview encodes the presence preview and returns its report
// block. No decoded canvas outlives its encoding: each frame of the four
// played actions is encoded once and its bitstream reused however often
// the sequence repeats it; the nine motion digests are computed one state
// at a time.
func presencePreview(s *Source) (obj, []byte, error) {
	m := s.Manifest
	plan := PlanPresence(m)
	// Each played action's frames are decoded and encoded once, one at a
	// time; only the compressed frames are kept for the repeats and rests.
	encoded := map[petpack.Action][]vp8l{}
	for _, a := range presenceActions {
		for i := range s.FrameNames(a) {
			f, err := s.Frame(a, i)
			if err != nil {
				return nil, nil, err
			}
			e, err := encodeFrame(f)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: presence preview: %v", s.Path, err)
			}
			encoded[a] = append(encoded[a], e)
		}
	}
	idle := m.State(petpack.ActionIdle)
	rest := encoded[petpack.ActionIdle][idle.ReducedMotionFrameIndex]
	var frames []vp8l
	var durations []int
	var seq []obj
	rests := 0
	for _, seg := range plan.Segments {
		if seg.Rest {
			rests++
			frames = append(frames, rest)
			durations = append(durations, seg.DurationMS)
			seq = append(seq, obj{{"kind", "idle_rest"}, {"state", string(seg.State)}, {"duration_ms", seg.DurationMS}})
			continue
		}
		st := m.State(seg.State)
		for r := 0; r < seg.Repeat; r++ {
			frames = append(frames, encoded[seg.State]...)
			durations = append(durations, st.FrameDurationsMS...)
		}
		seq = append(seq, obj{{"kind", "action"}, {"state", string(seg.State)}, {"repeat_count", seg.Repeat}, {"duration_ms", seg.DurationMS}})
	}
	data, err := animation(m.RenderSize.Width, m.RenderSize.Height, frames, durations)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: presence preview: %v", s.Path, err)
	}
	all, err := AllMotionDigests(s)
	if err != nil {
		return nil, nil, err
	}
	block := obj{
		{"path", PresenceWebP},
		{"duration_ms", plan.DurationMS},
		{"minimum_duration_ms", PresenceMinMS},
		{"maximum_duration_ms", PresenceMaxMS},
		{"late_motion_boundary_ms", plan.LateMotionMS},
		{"rest_phase_count", rests},
		{"frame_set_digest", FrameSetDigest(all)},
		{"sequence", seq},
	}
	return block, data, nil
}

// StateMotionDigest decodes a state's frames one at a time and returns its
// motion_digest.
func StateMotionDigest(s *Source, a petpack.Action) (string, error) {
	names := s.FrameNames(a)
	nd := make([]NamedDigest, len(names))
	for i := range names {
		f, err := s.Frame(a, i)
		if err != nil {
			return "", err
		}
		nd[i] = NamedDigest{names[i], FrameDigest(f)}
	}
	return MotionDigest(a, nd), nil
}

// AllMotionDigests is StateMotionDigest of all nine actions.
func AllMotionDigests(s *Source) (map[petpack.Action]string, error) {
	out := map[petpack.Action]string{}
	for _, a := range petpack.Actions() {
		d, err := StateMotionDigest(s, a)
		if err != nil {
			return nil, err
		}
		out[a] = d
	}
	return out, nil
}
