package playback

import (
	"math/rand"
	"sort"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// stepsOf turns fuzz bytes into a script: three bytes a step (what, and a
// time increment), at most 300 steps, ended 5 s after the last.
func stepsOf(data []byte) *Script {
	s := &Script{}
	t := int64(0)
	for i := 0; i+2 < len(data) && len(s.Steps) < 300; i += 3 {
		op, a, b := data[i], int64(data[i+1]), int64(data[i+2])
		t += a * (b%16 + 1)
		st := Step{Line: len(s.Steps) + 1, T: t}
		switch k := op % 16; {
		case k < 7:
			st.Kind, st.Event = StepEvent, Events()[k]
		case k < 13:
			st.Kind, st.Pointer = StepPointer, Pointers()[k-7]
		case k == 13:
			st.Kind, st.On = StepBubble, op&0x80 != 0
		case k == 14:
			st.Kind, st.On = StepReduceMotion, op&0x80 != 0
		default:
			st.Kind, st.StallMS = StepStall, 1+a*b
		}
		s.Steps = append(s.Steps, st)
	}
	s.Steps = append(s.Steps, Step{Line: len(s.Steps) + 1, T: t + 5000, Kind: StepEnd})
	return s
}

// withoutStalls is the script with its stall lines left out.
func withoutStalls(s *Script) *Script {
	out := &Script{}
	for _, st := range s.Steps {
		if st.Kind != StepStall {
			out.Steps = append(out.Steps, st)
		}
	}
	return out
}

// checkInvariants runs the script and checks what must hold whatever the
// inputs: every shown frame exists; priorities hold (a drag shows its
// direction, acknowledge never under Reduce Motion, a
// semantic frame is the semantic action's); no frame is cut short except by
// an input; and the trace with stalls is exactly the trace without them,
// minus the lines inside stalls, plus the state due at each stall's end when
// it differs from the last line shown.
func checkInvariants(t *testing.T, m *petpack.Manifest, seed int64, s *Script) {
	frames := map[petpack.Action][]int{}
	for _, st := range m.States {
		frames[st.Name] = st.FrameDurationsMS
	}
	inputAt := map[int64]bool{}
	var inputs []int64 // sorted, as the script is
	var stalls [][2]int64
	for _, st := range s.Steps {
		if st.Kind == StepStall {
			stalls = append(stalls, [2]int64{st.T, st.T + st.StallMS})
		} else if st.Kind != StepEnd {
			inputAt[st.T] = true
			inputs = append(inputs, st.T)
		}
	}
	run := func(sc *Script, check bool) []Line {
		p, err := New(m, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		var out []Line
		err = Trace(p, sc, func(l Line) error {
			d, ok := frames[l.Action]
			if !ok || l.Frame < 0 || l.Frame >= len(d) {
				t.Fatalf("%d: frame %s %d does not exist", l.T, l.Action, l.Frame)
			}
			if check {
				drag := p.Dragging()
				switch {
				case drag != "" && l.Action != drag:
					t.Fatalf("%d: dragging %s but %s shows", l.T, drag, l.Action)
				case l.Action == petpack.ActionAcknowledge && p.ReduceMotion():
					t.Fatalf("%d: acknowledge under reduce motion", l.T)
				case drag == "" && l.Action != petpack.ActionAcknowledge && l.Action != petpack.ActionIdle && l.Action != p.Semantic():
					t.Fatalf("%d: %s shows in semantic state %s", l.T, l.Action, p.Semantic())
				case p.ReduceMotion() && l.Scale != 1:
					t.Fatalf("%d: press-scale under reduce motion", l.T)
				}
			}
			out = append(out, l)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	plain := run(withoutStalls(s), true)
	// No frame cut short: a frame that starts without an input lasts at
	// least its authored duration unless an input comes first (both pets'
	// cooldowns are at least as long as any idle frame).
	for i := 0; i+1 < len(plain); i++ {
		l, n := plain[i], plain[i+1]
		started := i == 0 || plain[i-1].Action != l.Action || plain[i-1].Frame != l.Frame
		// An acknowledge ending uncovers a running burst mid-frame.
		revealed := i > 0 && plain[i-1].Action == petpack.ActionAcknowledge && l.Action != petpack.ActionAcknowledge
		if !started || revealed || inputAt[l.T] || (n.Action == l.Action && n.Frame == l.Frame) {
			continue
		}
		// The first input after l.T comes at or before n.T.
		k := sort.Search(len(inputs), func(j int) bool { return inputs[j] > l.T })
		cut := k < len(inputs) && inputs[k] <= n.T
		if d := int64(frames[l.Action][l.Frame]); !cut && n.T-l.T < d {
			t.Fatalf("%s %d shown %d ms at %d, authored %d ms", l.Action, l.Frame, n.T-l.T, l.T, d)
		}
	}
	// Stalls.
	inStall := func(x int64) bool {
		for _, w := range stalls {
			if x >= w[0] && x < w[1] {
				return true
			}
		}
		return false
	}
	due := func(x int64) Line {
		k := sort.Search(len(plain), func(j int) bool { return plain[j].T > x })
		got := plain[k-1] // plain[0] is at t=0
		got.T = x
		return got
	}
	var want []Line
	times := map[int64]bool{}
	for _, l := range plain {
		times[l.T] = true
	}
	end := s.Steps[len(s.Steps)-1].T
	for _, w := range stalls {
		if w[1] <= end {
			times[w[1]] = true
		}
	}
	var order []int64
	for x := range times {
		order = append(order, x)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	for _, x := range order {
		if inStall(x) {
			continue
		}
		l := due(x)
		if len(want) > 0 {
			p := want[len(want)-1]
			if p.Action == l.Action && p.Frame == l.Frame && p.Scale == l.Scale {
				continue
			}
		}
		want = append(want, l)
	}
	got := run(s, false)
	if len(got) != len(want) {
		t.Fatalf("with stalls %d lines, want %d\ngot  %v\nwant %v", len(got), len(want), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("line %d with stalls: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// smallManifest is a hand-made pet whose every action is two or three
// short frames, with one or two passes and a cooldown of 100 to 200 ms (at
// least as long as any frame, which the cut-short check relies on): its
// transitions come ten times as often as the sample pet's.
func smallManifest(t testing.TB) *petpack.Manifest {
	states := petpack.DefaultStates()
	for i := range states {
		s := &states[i]
		s.FrameDurationsMS = []int{50 + 10*i, 90, 60}[:2+i%2]
		s.ReducedMotionFrameIndex = 1
		if s.Playback.EntryRepeatCount != nil {
			s.Playback.EntryRepeatCount = intp(1 + i%2)
		}
		if s.Playback.SettleFrameIndex != nil {
			s.Playback.SettleFrameIndex = intp(0)
		}
		if s.Playback.CooldownMS != nil {
			s.Playback.CooldownMS = &[2]int{100, 200}
		}
	}
	return manifestOf(t, states)
}

// FuzzPlayer drives random input sequences through the player, on the
// sample pet or (first byte odd) the small hand-made one, and checks the
// invariants of checkInvariants.
func FuzzPlayer(f *testing.F) {
	f.Add([]byte{1, 10, 3, 9, 20, 5, 12, 40, 1, 15, 30, 2, 8, 50, 7})
	f.Add([]byte{14 | 0x80, 0, 0, 3, 100, 2, 11, 10, 1, 12, 200, 3, 14, 10, 1})
	f.Add([]byte{9, 1, 3, 9, 2, 5, 12, 4, 1, 15, 3, 2, 8, 5, 7, 11, 2, 2})
	m := []*petpack.Manifest{sampleManifest(f), smallManifest(f)}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		checkInvariants(t, m[data[0]%2], 1, stepsOf(data[1:]))
	})
}

// FuzzParseScript feeds arbitrary bytes to ParseScript: it must not panic,
// and what it accepts must trace.
func FuzzParseScript(f *testing.F) {
	f.Add([]byte(`{"t_ms":0,"event":"thinking"}` + "\n" + `{"t_ms":900,"pointer":"down"}` + "\n" + `{"t_ms":1200,"stall_ms":400}` + "\n" + `{"t_ms":2000,"end":true}`))
	f.Add([]byte(`{"t_ms":0,"end":true}`))
	f.Add([]byte(`{"t_ms":1e3,"end":true}`))
	m := sampleManifest(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseScript(data)
		if err != nil {
			return
		}
		if s.Steps[len(s.Steps)-1].T > 600000 {
			return // long traces are valid, but too slow to fuzz
		}
		p, err := New(m, rand.New(rand.NewSource(1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := Trace(p, s, func(Line) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})
}

// TestInvariantsRandom runs the fuzz invariants over fixed pseudo-random
// sequences, so every `go test` exercises them beyond the seed corpus.
func TestInvariantsRandom(t *testing.T) {
	for _, m := range []*petpack.Manifest{sampleManifest(t), smallManifest(t)} {
		r := rand.New(rand.NewSource(42))
		for i := 0; i < 300; i++ {
			data := make([]byte, 3*(1+r.Intn(60)))
			r.Read(data)
			checkInvariants(t, m, int64(i), stepsOf(data))
		}
	}
}
