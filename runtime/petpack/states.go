package petpack

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/internal/jsonschema"
)

// The manifest walk of stage 4: each object's fields in schema order, every
// value bounded as sections 4 and 5 require.

var topFields = []string{"schema_version", "id", "name", "style", "quality", "render_size", "states", "created_at"}

// manifest walks the top-level object.
func (d *manifestDecoder) manifest(top map[string]json.RawMessage) *Manifest {
	m := &Manifest{SchemaVersion: SchemaVersion}
	d.closed(top, "", topFields, nil)
	if id, ok := d.str(top, "id", "/id"); ok {
		m.ID = id
		checkID(d, id)
	}
	if name, ok := d.str(top, "name", "/name"); ok {
		m.Name = name
		if strings.TrimSpace(name) == "" {
			d.fail(RuleNameBlank, "/name", "the display name is blank")
		}
	}
	if style, ok := d.str(top, "style", "/style"); ok {
		m.Style = style
		if strings.TrimSpace(style) == "" {
			d.fail(RuleStyleBlank, "/style", "the style is blank")
		}
	}
	size, sizeOK := d.renderSize(top)
	m.RenderSize = size
	if q, ok := d.str(top, "quality", "/quality"); ok {
		m.Quality = Quality(q)
		want, known := m.Quality.RenderSize()
		switch {
		case !known:
			d.fail(RuleQualityUnknown, "/quality", "quality %s is not low, standard or high (ultra and original are not V3 qualities)", strconv.Quote(truncate(q, 64)))
		case sizeOK && size != want:
			d.fail(RuleRenderSizeMismatch, "/render_size", "render_size %dx%d is not the %s canvas %dx%d", size.Width, size.Height, q, want.Width, want.Height)
		}
	}
	if raw, ok := top["states"]; ok {
		m.States = d.states(raw)
	}
	if at, ok := d.str(top, "created_at", "/created_at"); ok {
		m.CreatedAt = at
		if !jsonschema.ValidDateTime(at) {
			d.fail(RuleCreatedAtInvalid, "/created_at", "%s is not an RFC 3339 timestamp", strconv.Quote(truncate(at, 64)))
		}
	}
	return m
}

// checkID applies the two conditions of the id contract as two rules.
func checkID(d *manifestDecoder, id string) {
	valid := strings.HasPrefix(id, "pet_") && len(id) > len("pet_")
	for i := len("pet_"); valid && i < len(id); i++ {
		c := id[i]
		valid = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
	}
	if !valid {
		d.fail(RuleIDInvalid, "/id", "id %s does not match ^pet_[a-z0-9]+$", strconv.Quote(truncate(id, 64)))
	}
	if len(id) > 128 {
		d.fail(RuleIDTooLong, "/id", "id is %d characters, over 128", len(id))
	}
}

// renderSize reads render_size as {"width": W, "height": H}; ok is false
// when either dimension did not decode.
func (d *manifestDecoder) renderSize(top map[string]json.RawMessage) (Size, bool) {
	raw, ok := top["render_size"]
	if !ok {
		return Size{}, false
	}
	o := d.object(raw, "/render_size", []string{"width", "height"}, nil)
	if o == nil {
		return Size{}, false
	}
	w, wok := d.intField(o, "width", "/render_size/width")
	h, hok := d.intField(o, "height", "/render_size/height")
	return Size{Width: w, Height: h}, wok && hok
}

// states reads the states array and then reports each fixed action that
// no state named.
func (d *manifestDecoder) states(raw json.RawMessage) []State {
	elems, ok := d.array(raw, "/states")
	if !ok {
		return nil
	}
	states := make([]State, 0, len(elems))
	seen := map[Action]int{}
	for i, e := range elems {
		ptr := "/states/" + strconv.Itoa(i)
		s := d.state(e, ptr, seen, i)
		states = append(states, s)
	}
	for _, a := range Actions() {
		if _, ok := seen[a]; !ok {
			d.fail(RuleStateMissing, "/states", "the fixed action %s has no state", a)
		}
	}
	return states
}

// removedActions are V2 state names that V3 neither migrates nor aliases.
var removedActions = []string{"start", "review"}

// modeFields is the closed field set of each mode: required fields must be
// present, every other optional field is forbidden.
var modeFields = map[PlaybackMode][]string{
	ModeLoop:            nil,
	ModePeriodic:        {fieldCooldown},
	ModeBurstThenSettle: {fieldRepeat, fieldSettle},
	ModeBurstThenIdle:   {fieldRepeat},
	ModeOnceThenReturn:  nil,
}

// The optional playback fields, in the order they are checked.
const (
	fieldRepeat   = "entry_repeat_count"
	fieldSettle   = "settle_frame_index"
	fieldCooldown = "cooldown_ms"
)

var stateFields = []string{"name", "frames_dir", "frame_durations_ms", "playback", "reduced_motion_frame_index"}

// state reads one state; seen maps each action met so far to its index.
func (d *manifestDecoder) state(raw json.RawMessage, ptr string, seen map[Action]int, index int) State {
	var s State
	o := d.object(raw, ptr, stateFields, nil)
	if o == nil {
		return s
	}
	fixed := false // whether the name is one of the nine actions
	if name, ok := d.str(o, "name", ptr+"/name"); ok {
		s.Name = Action(name)
		fixed = s.Name.Mode() != ""
		switch {
		case !fixed && isRemovedAction(name):
			d.fail(RuleStateUnknown, ptr+"/name", "%s is a removed state name and is not migrated: recreate the pet with the nine V3 actions", strconv.Quote(name))
		case !fixed:
			d.fail(RuleStateUnknown, ptr+"/name", "%s is not one of the nine fixed actions", strconv.Quote(truncate(name, 64)))
		default:
			if first, dup := seen[s.Name]; dup {
				d.fail(RuleStateDuplicate, ptr+"/name", "action %s already has a state at /states/%d", name, first)
			} else {
				seen[s.Name] = index
			}
		}
	}
	if dir, ok := d.str(o, "frames_dir", ptr+"/frames_dir"); ok {
		s.FramesDir = dir
		if fixed && dir != s.Name.FramesDir() {
			d.fail(RuleStateFramesDirMismatch, ptr+"/frames_dir", "frames_dir %s is not the fixed %s", strconv.Quote(truncate(dir, 64)), s.Name.FramesDir())
		}
	}
	frames := -1 // the length of the frame sequence, once known
	if raw, ok := o["frame_durations_ms"]; ok {
		s.FrameDurationsMS, frames = d.durations(raw, ptr+"/frame_durations_ms")
	}
	if raw, ok := o["playback"]; ok {
		s.Playback = d.playback(raw, ptr+"/playback", s.Name, frames)
	}
	if n, ok := d.intField(o, "reduced_motion_frame_index", ptr+"/reduced_motion_frame_index"); ok {
		s.ReducedMotionFrameIndex = n
		if frames >= 0 && (n < 0 || n >= frames) {
			d.fail(RuleReducedMotionOutOfRange, ptr+"/reduced_motion_frame_index", "index %d is outside the %d frames (0 to %d)", n, frames, frames-1)
		}
	}
	return s
}

func isRemovedAction(name string) bool {
	for _, r := range removedActions {
		if name == r {
			return true
		}
	}
	return false
}

// durations decodes and bounds frame_durations_ms; frames is the sequence
// length when every entry decoded as an integer, -1 otherwise.
func (d *manifestDecoder) durations(raw json.RawMessage, ptr string) ([]int, int) {
	elems, ok := d.array(raw, ptr)
	if !ok {
		return nil, -1
	}
	out := make([]int, 0, len(elems))
	all := true
	total := 0
	for i, e := range elems {
		n, ok := d.integer(e, ptr+"/"+strconv.Itoa(i))
		if !ok {
			all = false
			continue
		}
		out = append(out, n)
		if n < MinFrameDurationMS || n > MaxFrameDurationMS {
			d.fail(RuleFrameDurationOutOfRange, ptr+"/"+strconv.Itoa(i), "%d ms is outside %d to %d ms", n, MinFrameDurationMS, MaxFrameDurationMS)
		}
		total = addMS(total, n)
	}
	if len(elems) < 2 || len(elems) > MaxFramesPerState {
		d.fail(RuleFrameDurationsCount, ptr, "%d durations; a state has 2 to %d", len(elems), MaxFramesPerState)
	}
	if all && total > 5000 {
		d.fail(RuleStateDurationTooLong, ptr, "the durations add up to %s, over 5000 ms", msText(total))
	}
	if !all {
		return out, -1
	}
	return out, len(out)
}

// msCap is where addMS saturates: far above any bound checked, far below
// overflow however many entries a hostile array holds.
// MinFrameDurationMS and MaxFrameDurationMS bound every frame duration of
// a state (section 5); a writer checks its input against the same numbers.
const (
	MinFrameDurationMS = 50
	MaxFrameDurationMS = 2000
)

const msCap = 1 << 40

// addMS adds the positive part of n to total, saturating at msCap.
func addMS(total, n int) int {
	if n <= 0 {
		return total
	}
	if n >= msCap-total {
		return msCap
	}
	return total + n
}

func msText(total int) string {
	if total >= msCap {
		return "an overflowing total"
	}
	return strconv.Itoa(total) + " ms"
}

var playbackOptional = []string{fieldRepeat, fieldSettle, fieldCooldown}

// playback reads a playback object and closes its fields by mode; action
// is the state's name (its mode is checked only when it is one of the nine),
// frames the state's sequence length, or -1 when it is unknown.
func (d *manifestDecoder) playback(raw json.RawMessage, ptr string, action Action, frames int) Playback {
	var p Playback
	o := d.object(raw, ptr, []string{"mode"}, playbackOptional)
	if o == nil {
		return p
	}
	mode, ok := d.str(o, "mode", ptr+"/mode")
	closed := false // whether the field set can be checked against a mode
	if ok {
		p.Mode = PlaybackMode(mode)
		if _, known := modeFields[p.Mode]; !known {
			d.fail(RulePlaybackModeUnknown, ptr+"/mode", "%s is not loop, periodic, burst_then_settle, burst_then_idle or once_then_return", strconv.Quote(truncate(mode, 64)))
		} else {
			closed = true
			if want := action.Mode(); want != "" && want != p.Mode {
				d.fail(RulePlaybackModeMismatch, ptr+"/mode", "action %s plays %s, not %s", action, want, mode)
			}
		}
	}
	if closed {
		required := modeFields[p.Mode]
		for _, f := range playbackOptional {
			_, present := o[f]
			switch needed := contains(required, f); {
			case needed && !present:
				d.fail(RulePlaybackFieldMissing, ptr+"/"+f, "mode %s requires %s", p.Mode, f)
			case !needed && present:
				d.fail(RulePlaybackFieldForbidden, ptr+"/"+f, "mode %s does not allow %s", p.Mode, f)
			}
		}
	}
	if n, ok := d.intField(o, fieldRepeat, ptr+"/"+fieldRepeat); ok {
		p.EntryRepeatCount = &n
		if n < 1 || n > 8 {
			d.fail(RuleEntryRepeatCountOutOfRange, ptr+"/"+fieldRepeat, "%d is outside 1 to 8", n)
		}
	}
	if n, ok := d.intField(o, fieldSettle, ptr+"/"+fieldSettle); ok {
		p.SettleFrameIndex = &n
		if frames >= 0 && (n < 0 || n >= frames) {
			d.fail(RuleSettleIndexOutOfRange, ptr+"/"+fieldSettle, "index %d is outside the %d frames (0 to %d)", n, frames, frames-1)
		}
	}
	if raw, ok := o[fieldCooldown]; ok {
		p.CooldownMS = d.cooldown(raw, ptr+"/"+fieldCooldown)
	}
	return p
}

// maxCooldownMS is one day (section 5).
const maxCooldownMS = 86400000

// cooldown reads [minimum_ms, maximum_ms].
func (d *manifestDecoder) cooldown(raw json.RawMessage, ptr string) *[2]int {
	elems, ok := d.array(raw, ptr)
	if !ok {
		return nil
	}
	if len(elems) != 2 {
		d.fail(RuleCooldownMalformed, ptr, "%d entries; a cooldown is [minimum_ms, maximum_ms]", len(elems))
		return nil
	}
	var c [2]int
	valid := true
	for i, e := range elems {
		n, ok := d.integer(e, ptr+"/"+strconv.Itoa(i))
		if !ok {
			valid = false
			continue
		}
		c[i] = n
		if n < 0 || n > maxCooldownMS {
			d.fail(RuleCooldownOutOfRange, ptr+"/"+strconv.Itoa(i), "%d ms is outside 0 to %d ms", n, maxCooldownMS)
		}
	}
	if !valid {
		return nil
	}
	if c[0] > c[1] {
		d.fail(RuleCooldownInverted, ptr, "minimum %d ms is greater than maximum %d ms", c[0], c[1])
	}
	return &c
}
