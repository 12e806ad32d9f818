package playback

import (
	"fmt"

	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// Rand is the random source the caller seeds; *math/rand.Rand is one. Only
// periodic cooldowns draw from it, one draw per idle play, so the same seed
// and the same inputs give the same presentation.
type Rand interface {
	// Int63n returns a uniform value in [0, n); n > 0.
	Int63n(n int64) int64
}

// Frame is what the pet presents: one authored frame and the press-scale
// factor. Frames compare with ==.
type Frame struct {
	// Action is the action whose frame shows.
	Action model.Action
	// Index is the frame's index in the action's frame sequence.
	Index int
	// Scale is the press-scale factor: PressScale while pressed, 1 otherwise.
	Scale float64
}

// Pointer is one pointer input (reading 11).
type Pointer string

// The six pointer inputs.
const (
	// PointerDown is a primary pointer-down (press-scale, reading 7).
	PointerDown Pointer = "down"
	// PointerUp is a pointer-up; the press-scale eases out over PressMS.
	PointerUp Pointer = "up"
	// PointerClick is one complete primary click; it implies no down or up.
	PointerClick Pointer = "click"
	// PointerDragLeft starts or continues a drag to the left.
	PointerDragLeft Pointer = "drag_left"
	// PointerDragRight starts or continues a drag to the right.
	PointerDragRight Pointer = "drag_right"
	// PointerDragEnd ends a drag.
	PointerDragEnd Pointer = "drag_end"
)

// Pointers returns the six pointer inputs.
func Pointers() []Pointer {
	return []Pointer{PointerDown, PointerUp, PointerClick, PointerDragLeft, PointerDragRight, PointerDragEnd}
}

// Events returns the seven normalized Agent events, in the contract's order.
func Events() []string {
	return []string{"start", "thinking", "plan", "tool", "waiting", "done", "failed"}
}

// EventAction returns the semantic action an Agent event selects (start
// renders idle; thinking and plan select thinking; the others their
// namesake), and an error naming an event the contract does not define.
func EventAction(event string) (model.Action, error) {
	switch event {
	case "start":
		return model.ActionIdle, nil
	case "thinking", "plan":
		return model.ActionThinking, nil
	case "tool", "waiting", "done", "failed":
		return model.Action(event), nil
	}
	return "", fmt.Errorf("unknown agent event %q (want one of start, thinking, plan, tool, waiting, done, failed)", event)
}

// PressScale is the press-scale factor (reading 7: low amplitude, within
// 0.75 to 1.25 and never 1; the authors' runtime uses 0.97).
const PressScale = 0.97

// PressMS is how long the press-scale response eases back after pointer-up.
const PressMS = 160

// The actions by index; the tracks array follows model.Actions' order.
const (
	aIdle = iota
	aThinking
	aTool
	aWaiting
	aDone
	aFailed
	aAcknowledge
	aDragLeft
	aDragRight
	nActions
	aNone = -1
)

// track is one action's authored timing, prepared for lookups.
type track struct {
	name   model.Action
	mode   model.PlaybackMode
	ends   []int64 // ends[i]: end of frame i from the sequence start
	total  int64   // the sequence's duration
	rep    int     // reduced_motion_frame_index
	settle int     // settle_frame_index (burst_then_settle)
	repeat int64   // entry_repeat_count (burst modes)
	cdMin  int64   // cooldown_ms (periodic)
	cdMax  int64
}

// at returns the frame index at elapsed ms into one pass and the end of
// that frame; elapsed must be in [0, total).
func (k *track) at(elapsed int64) (int, int64) {
	for i, e := range k.ends {
		if elapsed < e {
			return i, e
		}
	}
	// Unreachable for elapsed < total; the last frame is the safe answer.
	return len(k.ends) - 1, k.total
}

// burst is the active duration of a burst mode: repeat passes.
func (k *track) burst() int64 { return k.repeat * k.total }

// pressState is the press-scale response.
type pressState int

const (
	pressNone      pressState = iota
	pressDown                 // held while the pointer stays down
	pressReleasing            // eases out until releaseEnd
)

// Player is one pet's presentation state. It is driven by the caller's
// clock: every method takes the time in milliseconds since the pet appeared
// (t=0); a time earlier than one already seen is taken as that one, so time
// never runs backwards. It is not safe for concurrent use.
type Player struct {
	tracks [nActions]track
	rng    Rand
	now    int64

	reduceMotion bool
	bubble       bool

	sem      int   // the semantic action
	semStart int64 // when it was selected

	// The idle cycle, running while idle is the visible semantic
	// presentation (reading 3). A cycle is one play of idle from cycleStart,
	// then cooldown ms resting on idle's representative frame.
	idleOn     bool
	cycleStart int64
	cooldown   int64
	scan       bool // a NextChange copy: never draws, cooldowns never end

	drag      int // aDragLeft, aDragRight or aNone
	dragStart int64
	ack       bool
	ackStart  int64

	press      pressState
	releaseEnd int64
}

// New returns the player of a validated manifest at t=0: semantic state
// idle, idle playing from frame 0 (reading 1). It checks what it relies on,
// so an unvalidated manifest is rejected rather than misplayed: all nine
// actions, each with its required mode and fields, at least one frame of a
// positive duration, and indices inside the sequence.
func New(m *model.Manifest, r Rand) (*Player, error) {
	if m == nil || r == nil {
		return nil, fmt.Errorf("playback: nil manifest or random source")
	}
	p := &Player{rng: r, drag: aNone}
	for i, a := range model.Actions() {
		st := m.State(a)
		if st == nil {
			return nil, fmt.Errorf("playback: manifest has no %s state", a)
		}
		k, err := newTrack(st)
		if err != nil {
			return nil, err
		}
		p.tracks[i] = k
	}
	p.startIdle(0)
	return p, nil
}

func newTrack(st *model.State) (track, error) {
	k := track{name: st.Name, mode: st.Playback.Mode, rep: st.ReducedMotionFrameIndex}
	bad := func(format string, args ...interface{}) (track, error) {
		return track{}, fmt.Errorf("playback: %s: %s", st.Name, fmt.Sprintf(format, args...))
	}
	if k.mode != st.Name.Mode() {
		return bad("mode %q, the contract requires %q", k.mode, st.Name.Mode())
	}
	if len(st.FrameDurationsMS) == 0 {
		return bad("no frames")
	}
	k.ends = make([]int64, len(st.FrameDurationsMS))
	for i, d := range st.FrameDurationsMS {
		if d <= 0 {
			return bad("frame %d lasts %d ms", i, d)
		}
		k.total += int64(d)
		k.ends[i] = k.total
	}
	n := len(k.ends)
	if k.rep < 0 || k.rep >= n {
		return bad("reduced_motion_frame_index %d is outside %d frames", k.rep, n)
	}
	pb := st.Playback
	switch k.mode {
	case model.ModeBurstThenSettle, model.ModeBurstThenIdle:
		if pb.EntryRepeatCount == nil || *pb.EntryRepeatCount < 1 {
			return bad("no positive entry_repeat_count")
		}
		k.repeat = int64(*pb.EntryRepeatCount)
		if k.mode == model.ModeBurstThenSettle {
			if pb.SettleFrameIndex == nil || *pb.SettleFrameIndex < 0 || *pb.SettleFrameIndex >= n {
				return bad("settle_frame_index missing or outside %d frames", n)
			}
			k.settle = *pb.SettleFrameIndex
		}
	case model.ModePeriodic:
		if pb.CooldownMS == nil || pb.CooldownMS[0] < 0 || pb.CooldownMS[0] > pb.CooldownMS[1] {
			return bad("cooldown_ms missing or not [minimum, maximum]")
		}
		k.cdMin, k.cdMax = int64(pb.CooldownMS[0]), int64(pb.CooldownMS[1])
	}
	return k, nil
}

// Now returns the latest time the player has seen.
func (p *Player) Now() int64 { return p.now }

// Semantic returns the semantic action, which only Agent events change.
func (p *Player) Semantic() model.Action { return p.tracks[p.sem].name }

// Dragging returns the drag action showing, or "" when there is no drag.
func (p *Player) Dragging() model.Action {
	if p.drag == aNone {
		return ""
	}
	return p.tracks[p.drag].name
}

// ReduceMotion reports whether Reduce Motion is on.
func (p *Player) ReduceMotion() bool { return p.reduceMotion }

// clamp makes t the current time, never earlier than one already seen.
func (p *Player) clamp(t int64) int64 {
	if t < p.now {
		return p.now
	}
	return t
}

// Advance runs the player's own transitions (bursts ending, acknowledge
// ending, the press-scale easing out, idle plays and cooldowns) up to and
// including t, in time order, so the state does not depend on how often
// the caller looks.
func (p *Player) Advance(t int64) {
	t = p.clamp(t)
	for {
		b, ok := p.nextTransition()
		if !ok || b > t {
			break
		}
		p.transition(b)
	}
	p.now = t
}

// overlay reports whether drag or acknowledge covers the semantic
// presentation.
func (p *Player) overlay() bool { return p.drag != aNone || p.ack }

// idlePhase reports whether the semantic presentation at t is idle: the
// semantic state idle, or a burst_then_idle action whose burst is over.
func (p *Player) idlePhase(t int64) bool {
	k := &p.tracks[p.sem]
	switch k.mode {
	case model.ModePeriodic:
		return true
	case model.ModeBurstThenIdle:
		return t >= p.semStart+k.burst()
	}
	return false
}

// startIdle starts a fresh idle cycle at t with a play from frame 0, and
// draws the cooldown that follows it (reading 10).
func (p *Player) startIdle(t int64) {
	p.idleOn = true
	p.cycleStart = t
	k := &p.tracks[aIdle]
	if p.scan {
		p.cooldown = 1 << 62
		return
	}
	p.cooldown = k.cdMin + p.rng.Int63n(k.cdMax-k.cdMin+1)
}

// nextTransition returns the earliest pending internal transition.
func (p *Player) nextTransition() (int64, bool) {
	best, ok := int64(0), false
	take := func(t int64) {
		if !ok || t < best {
			best, ok = t, true
		}
	}
	if p.ack {
		take(p.ackStart + p.tracks[aAcknowledge].total)
	}
	if p.press == pressReleasing {
		take(p.releaseEnd)
	}
	if !p.overlay() && !p.idleOn && p.tracks[p.sem].mode == model.ModeBurstThenIdle {
		take(p.semStart + p.tracks[p.sem].burst())
	}
	if p.idleOn && p.cooldown < 1<<62 {
		take(p.cycleStart + p.tracks[aIdle].total + p.cooldown)
	}
	return best, ok
}

// transition applies every internal transition due at b.
func (p *Player) transition(b int64) {
	if p.ack && p.ackStart+p.tracks[aAcknowledge].total <= b {
		p.ack = false
		p.overlayEnded(b)
	}
	if p.press == pressReleasing && p.releaseEnd <= b {
		p.press = pressNone
	}
	if !p.overlay() && !p.idleOn && p.idlePhase(b) {
		p.startIdle(b)
	}
	if p.idleOn && p.cycleStart+p.tracks[aIdle].total+p.cooldown <= b {
		p.startIdle(b)
	}
}

// overlayEnded shows the semantic presentation again at t: over idle, a
// fresh idle cycle (reading 5).
func (p *Player) overlayEnded(t int64) {
	if !p.overlay() && p.idlePhase(t) {
		p.startIdle(t)
	}
}

// Event applies an Agent event at t. A change of semantic action starts the
// new action at frame 0 (idle: a fresh cycle); the action already selected
// changes nothing (reading 2). An unknown event is an error naming it and
// changes nothing.
func (p *Player) Event(t int64, event string) error {
	a, err := EventAction(event)
	if err != nil {
		return err
	}
	p.Advance(t)
	i := p.index(a)
	if i == p.sem {
		return nil
	}
	p.sem, p.semStart = i, p.now
	p.idleOn = false
	if !p.overlay() && p.idlePhase(p.now) {
		p.startIdle(p.now)
	}
	return nil
}

// Pointer applies a pointer input at t (readings 6, 7 and 11). Interactions
// never change the semantic state. An unknown input is an error.
func (p *Player) Pointer(t int64, in Pointer) error {
	p.Advance(t)
	t = p.now
	switch in {
	case PointerDown:
		if !p.reduceMotion && !p.bubble && p.drag == aNone {
			p.press = pressDown
		}
	case PointerUp:
		if p.press == pressDown {
			p.press, p.releaseEnd = pressReleasing, t+PressMS
		}
	case PointerClick:
		if !p.reduceMotion && p.sem == aIdle && !p.overlay() {
			p.ack, p.ackStart = true, t
			p.idleOn = false
		}
	case PointerDragLeft, PointerDragRight:
		d := aDragLeft
		if in == PointerDragRight {
			d = aDragRight
		}
		if p.drag == d {
			return nil
		}
		p.drag, p.dragStart = d, t
		p.ack = false
		p.idleOn = false
		p.press = pressNone
	case PointerDragEnd:
		if p.drag == aNone {
			return nil
		}
		p.drag = aNone
		p.overlayEnded(t)
	default:
		return fmt.Errorf("unknown pointer input %q (want one of down, up, click, drag_left, drag_right, drag_end)", in)
	}
	return nil
}

// SetBubble says at t whether bubble content is shown; while it is, a
// pointer-down gives no press-scale response.
func (p *Player) SetBubble(t int64, shown bool) {
	p.Advance(t)
	p.bubble = shown
}

// SetReduceMotion turns Reduce Motion on or off at t. Turning it on ends a
// running acknowledge and press-scale at once (neither appears under
// Reduce Motion, and neither resumes); everything else keeps its timeline,
// so either switch shows at once what its rules make due at that elapsed
// time (reading 11).
func (p *Player) SetReduceMotion(t int64, on bool) {
	p.Advance(t)
	p.reduceMotion = on
	if on {
		p.press = pressNone
		if p.ack {
			p.ack = false
			p.overlayEnded(p.now)
		}
	}
}

// Show advances to t and returns what is presented then.
func (p *Player) Show(t int64) Frame {
	p.Advance(t)
	f, _ := p.frame(p.now)
	return f
}

// frame returns what shows at t (the player advanced to t) and when the
// visible layer's current authored frame ends, or -1 when it is held.
func (p *Player) frame(t int64) (Frame, int64) {
	f := Frame{Scale: 1}
	if p.press != pressNone {
		f.Scale = PressScale
	}
	show := func(a, i int, end int64) (Frame, int64) {
		f.Action, f.Index = p.tracks[a].name, i
		return f, end
	}
	if p.drag != aNone {
		k := &p.tracks[p.drag]
		if p.reduceMotion {
			return show(p.drag, k.rep, -1)
		}
		e := t - p.dragStart
		pass := e - e%k.total
		i, end := k.at(e - pass)
		return show(p.drag, i, p.dragStart+pass+end)
	}
	if p.ack {
		i, end := p.tracks[aAcknowledge].at(t - p.ackStart)
		return show(aAcknowledge, i, p.ackStart+end)
	}
	if p.idleOn {
		k := &p.tracks[aIdle]
		e := t - p.cycleStart
		if p.reduceMotion || e >= k.total {
			return show(aIdle, k.rep, -1)
		}
		i, end := k.at(e)
		return show(aIdle, i, p.cycleStart+end)
	}
	k := &p.tracks[p.sem]
	e := t - p.semStart
	if p.reduceMotion {
		return show(p.sem, k.rep, -1)
	}
	if k.mode == model.ModeBurstThenSettle && e >= k.burst() {
		return show(p.sem, k.settle, -1)
	}
	pass := e - e%k.total
	i, end := k.at(e - pass)
	return show(p.sem, i, p.semStart+pass+end)
}

// NextChange returns the next instant after the current time at which what
// is presented changes if no input arrives, and false when nothing will
// change (a held settle pose, a reduced-motion frame): a frontend sleeps
// until then instead of polling.
func (p *Player) NextChange() (int64, bool) {
	q := *p
	q.scan = true
	cur, _ := q.frame(q.now)
	t := q.now
	for i := 0; i < 8; i++ {
		_, end := q.frame(t)
		b, ok := q.nextTransition()
		if end > t && (!ok || end < b) {
			b, ok = end, true
		}
		if !ok {
			return 0, false
		}
		q.Advance(b)
		t = b
		if f, _ := q.frame(t); f != cur {
			return t, true
		}
	}
	// Only reachable through transitions that change nothing visible in a
	// row; waking then is early, never late.
	return t, true
}

// index returns the track of a, without allocating.
func (p *Player) index(a model.Action) int {
	for i := range p.tracks {
		if p.tracks[i].name == a {
			return i
		}
	}
	return aNone
}
