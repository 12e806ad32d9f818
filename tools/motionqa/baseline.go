package motionqa

import (
	"bytes"
	"fmt"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Change is what a revision changed against its baseline.
type Change struct {
	// Changed are the states whose decoded frames differ, in the fixed
	// order.
	Changed []petpack.Action
}

// ChangeError is a revision that may not be audited against its baseline.
type ChangeError struct {
	// Rule is RuleRevisionUnchanged, RuleTimingWithoutFrames or
	// RuleBaselineMismatch.
	Rule string
	// Msg says why.
	Msg string
}

func (e *ChangeError) Error() string { return e.Rule + ": " + e.Msg }

// ChangedStates compares s with the baseline package at path: a state
// changed when its list of decoded per-frame digests (DecodedFrameDigest)
// differs. A timing change of a state whose frames did not change, a
// revision with no change, and a baseline of another pet are errors.
func ChangedStates(s *Source, path string) (*Change, error) {
	b, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	if b.Manifest.ID != s.Manifest.ID {
		return nil, &ChangeError{RuleBaselineMismatch, fmt.Sprintf("the baseline is pet %s, the source pet %s", b.Manifest.ID, s.Manifest.ID)}
	}
	var ch Change
	for _, a := range petpack.Actions() {
		cur, err := decodedDigests(s, a)
		if err != nil {
			return nil, err
		}
		old, err := decodedDigests(b, a)
		if err != nil {
			return nil, err
		}
		framesChanged := len(cur) != len(old)
		for i := 0; !framesChanged && i < len(cur); i++ {
			framesChanged = cur[i] != old[i]
		}
		timingChanged := !bytes.Equal(TimingJSON([]petpack.State{*s.Manifest.State(a)}), TimingJSON([]petpack.State{*b.Manifest.State(a)}))
		if timingChanged && !framesChanged {
			return nil, &ChangeError{RuleTimingWithoutFrames, fmt.Sprintf("state %s changed its timing but not its frames; a timing change needs a regenerated sequence", a)}
		}
		if framesChanged {
			ch.Changed = append(ch.Changed, a)
		}
	}
	if len(ch.Changed) == 0 {
		return nil, &ChangeError{RuleRevisionUnchanged, "the revision changes no state's frames against the baseline"}
	}
	return &ch, nil
}

func decodedDigests(s *Source, a petpack.Action) ([]string, error) {
	names := s.FrameNames(a)
	out := make([]string, len(names))
	for i := range names {
		f, err := s.Frame(a, i)
		if err != nil {
			return nil, err
		}
		out[i] = DecodedFrameDigest(f)
	}
	return out, nil
}
