package model

// SchemaVersion is the only manifest schema_version this package reads or
// writes (sections 4 and 10).
const SchemaVersion = "apc.petpack.v3"

// Manifest is a decoded manifest.json (section 4). Its JSON tags are the
// wire names, so json.Marshal of a Manifest writes a manifest that
// ValidateManifest accepts when the values are valid.
type Manifest struct {
	// SchemaVersion is always SchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// ID is the stable logical identity, ^pet_[a-z0-9]+$, at most 128 bytes.
	ID string `json:"id"`
	// Name is the non-blank display name; it is not unique.
	Name string `json:"name"`
	// Style is the non-blank visual or production style.
	Style string `json:"style"`
	// Quality selects the canvas tier.
	Quality Quality `json:"quality"`
	// RenderSize is the exact canvas of Quality.
	RenderSize Size `json:"render_size"`
	// States holds the nine actions in file order; array order is not
	// semantic (use State to look one up).
	States []State `json:"states"`
	// CreatedAt is the RFC 3339 timestamp as written, kept verbatim so a
	// re-encoded manifest keeps its bytes.
	CreatedAt string `json:"created_at"`
}

// State returns the state of action a, or nil when the manifest has none.
func (m *Manifest) State(a Action) *State {
	for i := range m.States {
		if m.States[i].Name == a {
			return &m.States[i]
		}
	}
	return nil
}

// Size is a canvas in pixels.
type Size struct {
	// Width is the canvas width in pixels.
	Width int `json:"width"`
	// Height is the canvas height in pixels.
	Height int `json:"height"`
}

// Quality is a canvas tier (section 4).
type Quality string

// The three tiers; ultra and original are not V3 qualities.
const (
	QualityLow      Quality = "low"
	QualityStandard Quality = "standard"
	QualityHigh     Quality = "high"
)

// RenderSize returns the exact runtime canvas of q, and false for a string
// that is not a tier.
func (q Quality) RenderSize() (Size, bool) {
	switch q {
	case QualityLow:
		return Size{192, 208}, true
	case QualityStandard:
		return Size{384, 416}, true
	case QualityHigh:
		return Size{576, 624}, true
	}
	return Size{}, false
}

// Action is one of the nine fixed actions (section 4).
type Action string

// The nine actions, in the order writers use.
const (
	ActionIdle        Action = "idle"
	ActionThinking    Action = "thinking"
	ActionTool        Action = "tool"
	ActionWaiting     Action = "waiting"
	ActionDone        Action = "done"
	ActionFailed      Action = "failed"
	ActionAcknowledge Action = "acknowledge"
	ActionDragLeft    Action = "drag_left"
	ActionDragRight   Action = "drag_right"
)

// Actions returns the nine actions in writer order.
func Actions() []Action {
	out := make([]Action, len(actionTable))
	for i, a := range actionTable {
		out[i] = a.action
	}
	return out
}

// FramesDir returns the fixed frames directory of a, or "" for a string
// that is not an action.
func (a Action) FramesDir() string {
	if t := lookupAction(a); t != nil {
		return "assets/frames/" + string(a)
	}
	return ""
}

// Mode returns the playback mode section 4 requires for a, or "" for a
// string that is not an action.
func (a Action) Mode() PlaybackMode {
	if t := lookupAction(a); t != nil {
		return t.mode
	}
	return ""
}

// PlaybackMode says how an action's sequence plays (section 5).
type PlaybackMode string

// The five modes.
const (
	// ModeLoop repeats the sequence continuously.
	ModeLoop PlaybackMode = "loop"
	// ModePeriodic plays once, waits a bounded random cooldown, repeats.
	ModePeriodic PlaybackMode = "periodic"
	// ModeBurstThenSettle repeats the burst, then holds the settle frame.
	ModeBurstThenSettle PlaybackMode = "burst_then_settle"
	// ModeBurstThenIdle repeats the burst, then presents idle.
	ModeBurstThenIdle PlaybackMode = "burst_then_idle"
	// ModeOnceThenReturn plays once, then returns to the semantic state.
	ModeOnceThenReturn PlaybackMode = "once_then_return"
)

// Modes returns the five modes in the contract's order.
func Modes() []PlaybackMode {
	return []PlaybackMode{ModeLoop, ModePeriodic, ModeBurstThenSettle, ModeBurstThenIdle, ModeOnceThenReturn}
}

// State is one action's complete authored timing (section 5).
type State struct {
	// Name is the action.
	Name Action `json:"name"`
	// FramesDir is always Name.FramesDir().
	FramesDir string `json:"frames_dir"`
	// FrameDurationsMS holds one duration per frame, in frame order.
	FrameDurationsMS []int `json:"frame_durations_ms"`
	// Playback is the mode and its fields.
	Playback Playback `json:"playback"`
	// ReducedMotionFrameIndex is the representative frame under Reduce
	// Motion, an index into FrameDurationsMS.
	ReducedMotionFrameIndex int `json:"reduced_motion_frame_index"`
}

// Playback is a state's playback object; which optional fields are set is
// fixed by Mode.
type Playback struct {
	// Mode is the action's required mode.
	Mode PlaybackMode `json:"mode"`
	// EntryRepeatCount (1 to 8) is set for the burst modes only.
	EntryRepeatCount *int `json:"entry_repeat_count,omitempty"`
	// SettleFrameIndex is set for burst_then_settle only.
	SettleFrameIndex *int `json:"settle_frame_index,omitempty"`
	// CooldownMS is [minimum, maximum] and set for periodic only.
	CooldownMS *[2]int `json:"cooldown_ms,omitempty"`
}

type actionDefaults struct {
	action    Action
	mode      PlaybackMode
	durations []int
	repeat    int // 0: the mode has none
	settle    int // -1: the mode has none
	cooldown  [2]int
	reduced   int
}

// actionTable is the table of section 4: fixed names, modes and the
// creation defaults.
var actionTable = []actionDefaults{
	{ActionIdle, ModePeriodic, []int{260, 220, 240, 260, 380, 640}, 0, -1, [2]int{2500, 5000}, 2},
	{ActionThinking, ModeBurstThenIdle, []int{120, 140, 160, 180}, 3, -1, [2]int{}, 2},
	{ActionTool, ModeBurstThenIdle, []int{150, 150, 170, 330}, 3, -1, [2]int{}, 2},
	{ActionWaiting, ModeBurstThenSettle, []int{100, 100, 110, 110, 120, 130, 160, 230}, 3, 7, [2]int{}, 4},
	{ActionDone, ModeBurstThenIdle, []int{120, 140, 160, 230}, 3, -1, [2]int{}, 2},
	{ActionFailed, ModeBurstThenSettle, []int{80, 80, 90, 100, 110, 120, 190, 290}, 3, 7, [2]int{}, 2},
	{ActionAcknowledge, ModeOnceThenReturn, []int{180, 140, 180, 300}, 0, -1, [2]int{}, 1},
	{ActionDragLeft, ModeLoop, []int{100, 90, 100, 110, 100, 200}, 0, -1, [2]int{}, 2},
	{ActionDragRight, ModeLoop, []int{100, 90, 100, 110, 100, 200}, 0, -1, [2]int{}, 2},
}

func lookupAction(a Action) *actionDefaults {
	for i := range actionTable {
		if actionTable[i].action == a {
			return &actionTable[i]
		}
	}
	return nil
}

// DefaultStates returns the creation defaults of section 4 for the nine
// actions, in writer order: a production starting point, not a conformance
// gate. Each call returns fresh values the caller may change.
func DefaultStates() []State {
	out := make([]State, len(actionTable))
	for i, t := range actionTable {
		s := State{
			Name:                    t.action,
			FramesDir:               t.action.FramesDir(),
			FrameDurationsMS:        append([]int(nil), t.durations...),
			Playback:                Playback{Mode: t.mode},
			ReducedMotionFrameIndex: t.reduced,
		}
		if t.repeat > 0 {
			n := t.repeat
			s.Playback.EntryRepeatCount = &n
		}
		if t.settle >= 0 {
			n := t.settle
			s.Playback.SettleFrameIndex = &n
		}
		if t.mode == ModePeriodic {
			c := t.cooldown
			s.Playback.CooldownMS = &c
		}
		out[i] = s
	}
	return out
}
