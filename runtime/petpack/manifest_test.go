package petpack

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type jmap = map[string]interface{}

func defaultManifest() jmap { return manifestValue(DefaultStates()) }

func manifestWith(edit func(m jmap)) []byte {
	m := defaultManifest()
	edit(m)
	return encodeJSON(m)
}

func setState(a Action, key string, v interface{}) func(jmap) {
	return func(m jmap) { stateOf(m, a)[key] = v }
}

func setPlayback(a Action, key string, v interface{}) func(jmap) {
	return func(m jmap) {
		p := stateOf(m, a)["playback"].(jmap)
		if v == nil {
			delete(p, key)
		} else {
			p[key] = v
		}
	}
}

func states(m jmap) []interface{} { return m["states"].([]interface{}) }

func TestValidManifest(t *testing.T) {
	v := ValidateManifest(encodeJSON(defaultManifest()))
	if !v.OK() || len(v.Warnings) != 0 {
		t.Fatalf("the creation defaults:\n%s", describeVerdict(v))
	}
	m := v.Manifest
	if m.ID != "pet_test01" || m.Quality != QualityLow || m.RenderSize != (Size{Width: 192, Height: 208}) || len(m.States) != 9 {
		t.Fatalf("decoded %+v", m)
	}
	if !reflect.DeepEqual(m.States, DefaultStates()) {
		t.Fatalf("states %+v", m.States)
	}
	if s := m.State(ActionWaiting); s == nil || *s.Playback.SettleFrameIndex != 7 || *s.Playback.EntryRepeatCount != 3 {
		t.Fatalf("waiting %+v", s)
	}
	// Encoding the decoded manifest gives a manifest that decodes the same.
	again, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if v2 := ValidateManifest(again); !v2.OK() || !reflect.DeepEqual(v2.Manifest, m) {
		t.Fatalf("round trip:\n%s", describeVerdict(v2))
	}
	// Every quality with its own canvas.
	for _, q := range []Quality{QualityLow, QualityStandard, QualityHigh} {
		size, _ := q.RenderSize()
		b := manifestWith(func(m jmap) {
			m["quality"] = string(q)
			m["render_size"] = jmap{"width": size.Width, "height": size.Height}
		})
		if v := ValidateManifest(b); !v.OK() {
			t.Errorf("%s:\n%s", q, describeVerdict(v))
		}
	}
}

// TestManifestRules: each manifest breaks exactly one rule of stages 3
// and 4 (sections 4, 5 and 10).
func TestManifestRules(t *testing.T) {
	cases := []struct {
		name     string
		manifest []byte
		want     Rule
	}{
		{"not JSON", []byte("schema_version: apc.petpack.v3"), RuleManifestMalformed},
		{"empty", nil, RuleManifestMalformed},
		{"an array", []byte(`[{"schema_version":"apc.petpack.v3"}]`), RuleManifestMalformed},
		{"two objects", append(encodeJSON(defaultManifest()), "{}"...), RuleManifestMalformed},
		{"unterminated", encodeJSON(defaultManifest())[:100], RuleManifestMalformed},
		{"invalid UTF-8", []byte(strings.Replace(string(encodeJSON(defaultManifest())), "Test Cat", "Test \xffCat", 1)), RuleManifestMalformed},
		{"nested past encoding/json's depth", []byte(`{"schema_version":"apc.petpack.v3","x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`), RuleManifestMalformed},
		{"byte order mark", append([]byte("\xef\xbb\xbf"), encodeJSON(defaultManifest())...), RuleManifestMalformed},
		{"duplicate schema_version", []byte(`{"schema_version":"apc.petpack.v2","schema_version":"apc.petpack.v3"}`), RuleManifestDuplicateKey},
		{"duplicate after unescaping", []byte(strings.Replace(string(encodeJSON(defaultManifest())), `"name": "Test Cat"`, `"name": "Test Cat", "n\u0061me": "Other"`, 1)), RuleManifestDuplicateKey},
		{"duplicate in a state", []byte(strings.Replace(string(encodeJSON(defaultManifest())), `"name": "idle"`, `"name": "idle", "name": "tool"`, 1)), RuleManifestDuplicateKey},
		{"no schema_version", manifestWith(func(m jmap) { delete(m, "schema_version") }), RuleSchemaVersionMissing},
		{"numeric schema_version", manifestWith(func(m jmap) { m["schema_version"] = 3 }), RuleSchemaVersionMissing},
		{"V1", []byte(`{"schema_version":"apc.petpack.v1","fps":12,"frames":["a.png"]}`), RuleSchemaVersionLegacy},
		{"V2", manifestWith(func(m jmap) {
			m["schema_version"] = "apc.petpack.v2"
			m["playback_profile"] = "smooth"
			delete(m, "states")
		}), RuleSchemaVersionLegacy},
		{"V4", manifestWith(func(m jmap) { m["schema_version"] = "apc.petpack.v4" }), RuleSchemaVersionUnknown},
		{"upper case", manifestWith(func(m jmap) { m["schema_version"] = "APC.PETPACK.V3" }), RuleSchemaVersionUnknown},
		{"package-wide fps", manifestWith(func(m jmap) { m["fps"] = 12 }), RuleManifestUnknownField},
		{"field in another case", manifestWith(func(m jmap) { m["ID"] = "pet_x" }), RuleManifestUnknownField},
		{"legacy loop field in a state", manifestWith(setState(ActionIdle, "loop", true)), RuleManifestUnknownField},
		{"unknown playback field", manifestWith(setPlayback(ActionIdle, "easing", "linear")), RuleManifestUnknownField},
		{"unknown render_size field", manifestWith(func(m jmap) { m["render_size"].(jmap)["depth"] = 8 }), RuleManifestUnknownField},
		{"numeric id", manifestWith(func(m jmap) { m["id"] = 5 }), RuleManifestFieldType},
		{"null name", manifestWith(func(m jmap) { m["name"] = nil }), RuleManifestFieldType},
		{"fractional duration", manifestWith(setState(ActionIdle, "frame_durations_ms", []interface{}{260, 220, 240.5, 260, 380, 640})), RuleManifestFieldType},
		{"exponent duration", []byte(strings.Replace(string(encodeJSON(defaultManifest())), "640", "6.4e2", 1)), RuleManifestFieldType},
		{"states an object", manifestWith(func(m jmap) { m["states"] = jmap{} }), RuleManifestFieldType},
		{"string index", manifestWith(setState(ActionIdle, "reduced_motion_frame_index", "2")), RuleManifestFieldType},
		{"playback a string", manifestWith(setState(ActionDragLeft, "playback", "loop")), RuleManifestFieldType},
		{"huge integer", []byte(strings.Replace(string(encodeJSON(defaultManifest())), `"reduced_motion_frame_index": 1`, `"reduced_motion_frame_index": 100000000000000000000`, 1)), RuleManifestFieldType},
		{"no style", manifestWith(func(m jmap) { delete(m, "style") }), RuleManifestFieldMissing},
		{"no created_at", manifestWith(func(m jmap) { delete(m, "created_at") }), RuleManifestFieldMissing},
		{"no render height", manifestWith(func(m jmap) { delete(m["render_size"].(jmap), "height") }), RuleManifestFieldMissing},
		{"state without playback", manifestWith(func(m jmap) { delete(stateOf(m, ActionTool), "playback") }), RuleManifestFieldMissing},
		{"playback without mode", manifestWith(func(m jmap) {
			p := stateOf(m, ActionDragLeft)["playback"].(jmap)
			delete(p, "mode")
		}), RuleManifestFieldMissing},
		{"id upper case", manifestWith(func(m jmap) { m["id"] = "pet_Cat" }), RuleIDInvalid},
		{"id without suffix", manifestWith(func(m jmap) { m["id"] = "pet_" }), RuleIDInvalid},
		{"id with hyphen", manifestWith(func(m jmap) { m["id"] = "pet_a-b" }), RuleIDInvalid},
		{"id without prefix", manifestWith(func(m jmap) { m["id"] = "cat_1" }), RuleIDInvalid},
		{"id of 129", manifestWith(func(m jmap) { m["id"] = "pet_" + strings.Repeat("a", 125) }), RuleIDTooLong},
		{"blank name", manifestWith(func(m jmap) { m["name"] = " \t " }), RuleNameBlank},
		{"empty style", manifestWith(func(m jmap) { m["style"] = "" }), RuleStyleBlank},
		{"ultra", manifestWith(func(m jmap) { m["quality"] = "ultra" }), RuleQualityUnknown},
		{"original", manifestWith(func(m jmap) { m["quality"] = "original" }), RuleQualityUnknown},
		{"low at standard size", manifestWith(func(m jmap) { m["render_size"] = jmap{"width": 384, "height": 416} }), RuleRenderSizeMismatch},
		{"high at 576x576", manifestWith(func(m jmap) { m["quality"] = "high"; m["render_size"] = jmap{"width": 576, "height": 576} }), RuleRenderSizeMismatch},
		{"created_at a date", manifestWith(func(m jmap) { m["created_at"] = "2025-01-02" }), RuleCreatedAtInvalid},
		{"created_at month 13", manifestWith(func(m jmap) { m["created_at"] = "2025-13-02T03:04:05Z" }), RuleCreatedAtInvalid},
		{"created_at no zone", manifestWith(func(m jmap) { m["created_at"] = "2025-01-02T03:04:05" }), RuleCreatedAtInvalid},
		{"removed start state", manifestWith(extraState("start")), RuleStateUnknown},
		{"removed review state", manifestWith(extraState("review")), RuleStateUnknown},
		{"gaze state", manifestWith(extraState("gaze_left")), RuleStateUnknown},
		{"duplicate idle", manifestWith(func(m jmap) { m["states"] = append(states(m), stateOf(m, ActionIdle)) }), RuleStateDuplicate},
		{"no drag_right", manifestWith(func(m jmap) { m["states"] = states(m)[:8] }), RuleStateMissing},
		{"no states", manifestWith(func(m jmap) { m["states"] = []interface{}{} }), RuleStateMissing},
		{"frames_dir case", manifestWith(setState(ActionIdle, "frames_dir", "assets/frames/Idle")), RuleStateFramesDirMismatch},
		{"frames_dir of another action", manifestWith(setState(ActionTool, "frames_dir", "assets/frames/idle")), RuleStateFramesDirMismatch},
		{"one duration", manifestWith(func(m jmap) {
			setState(ActionIdle, "frame_durations_ms", []interface{}{300})(m)
			setState(ActionIdle, "reduced_motion_frame_index", 0)(m)
		}), RuleFrameDurationsCount},
		{"41 durations", manifestWith(setState(ActionIdle, "frame_durations_ms", repeatInts(50, 41))), RuleFrameDurationsCount},
		{"49 ms", manifestWith(setState(ActionIdle, "frame_durations_ms", []interface{}{260, 220, 49, 260, 380, 640})), RuleFrameDurationOutOfRange},
		{"2001 ms", manifestWith(setState(ActionIdle, "frame_durations_ms", []interface{}{260, 220, 240, 260, 380, 2001})), RuleFrameDurationOutOfRange},
		{"negative ms", manifestWith(setState(ActionIdle, "frame_durations_ms", []interface{}{260, 220, -240, 260, 380, 640})), RuleFrameDurationOutOfRange},
		{"5001 ms in all", manifestWith(setState(ActionIdle, "frame_durations_ms", []interface{}{2000, 2000, 1001})), RuleStateDurationTooLong},
		{"unknown mode", manifestWith(setPlayback(ActionIdle, "mode", "bounce")), RulePlaybackModeUnknown},
		{"idle looping", manifestWith(func(m jmap) {
			setPlayback(ActionIdle, "mode", "loop")(m)
			setPlayback(ActionIdle, "cooldown_ms", nil)(m)
		}), RulePlaybackModeMismatch},
		{"tool settling", manifestWith(func(m jmap) {
			setPlayback(ActionTool, "mode", "burst_then_settle")(m)
			setPlayback(ActionTool, "settle_frame_index", 3)(m)
		}), RulePlaybackModeMismatch},
		{"drag once", manifestWith(setPlayback(ActionDragRight, "mode", "once_then_return")), RulePlaybackModeMismatch},
		{"thinking without repeat", manifestWith(setPlayback(ActionThinking, "entry_repeat_count", nil)), RulePlaybackFieldMissing},
		{"waiting without settle", manifestWith(setPlayback(ActionWaiting, "settle_frame_index", nil)), RulePlaybackFieldMissing},
		{"idle without cooldown", manifestWith(setPlayback(ActionIdle, "cooldown_ms", nil)), RulePlaybackFieldMissing},
		{"loop with repeat", manifestWith(setPlayback(ActionDragLeft, "entry_repeat_count", 2)), RulePlaybackFieldForbidden},
		{"periodic with settle", manifestWith(setPlayback(ActionIdle, "settle_frame_index", 1)), RulePlaybackFieldForbidden},
		{"burst_then_idle with cooldown", manifestWith(setPlayback(ActionDone, "cooldown_ms", []interface{}{1, 2})), RulePlaybackFieldForbidden},
		{"once_then_return with repeat", manifestWith(setPlayback(ActionAcknowledge, "entry_repeat_count", 1)), RulePlaybackFieldForbidden},
		{"repeat 0", manifestWith(setPlayback(ActionTool, "entry_repeat_count", 0)), RuleEntryRepeatCountOutOfRange},
		{"repeat 9", manifestWith(setPlayback(ActionFailed, "entry_repeat_count", 9)), RuleEntryRepeatCountOutOfRange},
		{"settle past the end", manifestWith(setPlayback(ActionWaiting, "settle_frame_index", 8)), RuleSettleIndexOutOfRange},
		{"negative settle", manifestWith(setPlayback(ActionFailed, "settle_frame_index", -1)), RuleSettleIndexOutOfRange},
		{"cooldown of one", manifestWith(setPlayback(ActionIdle, "cooldown_ms", []interface{}{2500})), RuleCooldownMalformed},
		{"cooldown of three", manifestWith(setPlayback(ActionIdle, "cooldown_ms", []interface{}{1, 2, 3})), RuleCooldownMalformed},
		{"cooldown over a day", manifestWith(setPlayback(ActionIdle, "cooldown_ms", []interface{}{2500, 86400001})), RuleCooldownOutOfRange},
		{"negative cooldown", manifestWith(setPlayback(ActionIdle, "cooldown_ms", []interface{}{-1, 2500})), RuleCooldownOutOfRange},
		{"cooldown inverted", manifestWith(setPlayback(ActionIdle, "cooldown_ms", []interface{}{5000, 2500})), RuleCooldownInverted},
		{"reduced motion past the end", manifestWith(setState(ActionIdle, "reduced_motion_frame_index", 6)), RuleReducedMotionOutOfRange},
		{"negative reduced motion", manifestWith(setState(ActionDragLeft, "reduced_motion_frame_index", -1)), RuleReducedMotionOutOfRange},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := ValidateManifest(tc.manifest)
			expectRules(t, v, tc.want)
			if v.Manifest != nil {
				t.Fatal("a rejected manifest is returned")
			}
		})
	}
	t.Run("over the bound", func(t *testing.T) {
		expectRules(t, ValidateManifest(make([]byte, MaxManifestBytes+1)), RuleManifestTooLarge)
	})
}

// extraState adds a tenth state, a copy of drag_left under another name.
func extraState(name string) func(jmap) {
	return func(m jmap) {
		g := jmap{}
		for k, v := range stateOf(m, ActionDragLeft) {
			g[k] = v
		}
		g["name"], g["frames_dir"] = name, "assets/frames/"+name
		m["states"] = append(states(m), g)
	}
}

func repeatInts(v, n int) []interface{} {
	out := make([]interface{}, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestManifestFindsEverything: independent faults are all reported, in
// field order, each with its JSON pointer.
func TestManifestFindsEverything(t *testing.T) {
	b := manifestWith(func(m jmap) {
		m["fps"] = 12
		m["id"] = "Pet"
		setState(ActionIdle, "frame_durations_ms", []interface{}{10, 220, 240, 260, 380, 640})(m)
		setPlayback(ActionTool, "entry_repeat_count", 12)(m)
	})
	v := ValidateManifest(b)
	var got []string
	for _, f := range v.Errors {
		got = append(got, string(f.Rule)+" "+f.Pointer)
	}
	want := []string{
		"manifest_unknown_field /fps",
		"id_invalid /id",
		"state_frame_duration_out_of_range /states/0/frame_durations_ms/0",
		"entry_repeat_count_out_of_range /states/2/playback/entry_repeat_count",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTimingWarnings: the production targets of section 5 warn and the
// manifest stays valid.
func TestTimingWarnings(t *testing.T) {
	cases := []struct {
		name     string
		manifest []byte
		want     Rule
	}{
		{"three frames", manifestWith(setState(ActionThinking, "frame_durations_ms", []interface{}{150, 200, 250})), RuleFrameCountUnusual},
		{"nine frames", manifestWith(setState(ActionDragLeft, "frame_durations_ms", repeatInts(100, 9))), RuleFrameCountUnusual},
		{"1600 ms tool", manifestWith(setState(ActionTool, "frame_durations_ms", repeatInts(200, 8))), RuleActionDurationLong},
		{"20 frames a second", manifestWith(setState(ActionThinking, "frame_durations_ms", repeatInts(50, 4))), RuleFrameRateUnusual},
		{"2 frames a second", manifestWith(setState(ActionAcknowledge, "frame_durations_ms", repeatInts(350, 4))), RuleFrameRateUnusual},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := ValidateManifest(tc.manifest)
			expectWarning(t, v, tc.want)
			if len(v.Warnings) != 1 {
				t.Fatalf("want one warning:\n%s", describeVerdict(v))
			}
		})
	}
}
