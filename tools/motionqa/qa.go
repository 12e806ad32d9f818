package motionqa

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Schema identities of the evidence files (the contract authors' names).
const (
	ReportSchema       = "apc.pet-motion-qa.v1"
	ReviewSchema       = "apc.pet-motion-review.v1"
	VerificationSchema = "apc.pet-visual-production-verification.v1"
)

// Presence-preview and active-playback bounds of contract section 6, in ms.
const (
	PresenceMinMS    = 8000
	PresenceMaxMS    = 12000
	PresenceTargetMS = 10000
	PresenceRestMS   = 700
	PresenceFinalMin = 500
	ActiveMinMS      = 1000
	ActiveMaxMS      = 3200
)

// Artifact paths inside a QA directory.
const (
	ReportName   = "report.json"
	KeyframesPNG = "keyframes.png"
	PresenceWebP = "previews/presence-preview.webp"
	IndexHTML    = "index.html"
)

// AuthoredPreviewPath is a state's authored-timing preview in a QA directory.
func AuthoredPreviewPath(a petpack.Action) string {
	return "previews/" + string(a) + "-authored-timing.webp"
}

// MeasurementNote is the report's reminder of what the numbers are for.
const MeasurementNote = "The measurements point a reviewer at frames to inspect; they do not judge the motion. " +
	"Clipped visible pixels and synthetic blends are the only automatic failures (verify-production). " +
	"Displacement, silhouette, scale, baseline and seam figures are review evidence: check identity, intent, " +
	"trajectory, spacing, easing, weight, props, timing and the loop, settle or return in every preview."

// Options choose what a QA run audits.
type Options struct {
	// States, when set, are the states audited (in the fixed order
	// whatever the order here).
	States []petpack.Action
	// Baseline, when set, is the previous revision (.petpack or
	// directory); the states whose decoded frames differ are audited.
	Baseline string
}

// Result is what a QA run wrote.
type Result struct {
	// Report is report.json's bytes.
	Report []byte
	// Audited are the audited states.
	Audited []petpack.Action
	// Warnings is the report's warning_count.
	Warnings int
}

// Run audits src and writes the QA directory out, replacing it whole. A
// rejected src (*InvalidSourceError), an out inside src (or src inside
// out), or an out that exists and is neither empty nor an earlier QA
// directory leaves the file system untouched.
func Run(src, out string, opt Options) (*Result, error) {
	if err := checkOutside(src, out); err != nil {
		return nil, err
	}
	if err := checkReplaceable(out); err != nil {
		return nil, err
	}
	s, err := Open(src)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	audited, err := selectStates(s, opt)
	if err != nil {
		return nil, err
	}
	files, res, err := build(s, audited)
	if err != nil {
		return nil, err
	}
	if err := publishDir(out, files); err != nil {
		return nil, err
	}
	return res, nil
}

// selectStates is the audited set: --state, the states changed since
// --baseline, or all nine.
func selectStates(s *Source, opt Options) ([]petpack.Action, error) {
	if len(opt.States) > 0 && opt.Baseline != "" {
		return nil, errors.New("use --state or --baseline, not both")
	}
	if opt.Baseline != "" {
		ch, err := ChangedStates(s, opt.Baseline)
		if err != nil {
			return nil, err
		}
		return ch.Changed, nil
	}
	if len(opt.States) == 0 {
		return petpack.Actions(), nil
	}
	want := map[petpack.Action]bool{}
	for _, a := range opt.States {
		if s.Manifest.State(a) == nil {
			return nil, fmt.Errorf("--state %s: not one of the nine actions", a)
		}
		want[a] = true
	}
	var out []petpack.Action
	for _, a := range petpack.Actions() {
		if want[a] {
			out = append(out, a)
		}
	}
	return out, nil
}

// file is one output of a QA run.
type file struct {
	name string
	data []byte
}

// build computes every output of a QA run in memory.
func build(s *Source, audited []petpack.Action) ([]file, *Result, error) {
	m := s.Manifest
	var files []file
	states := obj{}
	var allWarnings []obj
	digests := map[petpack.Action]string{}
	sheet := newSheet(m.RenderSize.Width, m.RenderSize.Height, len(audited))
	for _, a := range audited {
		st := m.State(a)
		frames, err := s.Frames(a)
		if err != nil {
			return nil, nil, err
		}
		names := s.FrameNames(a)
		norm := make([][]byte, len(frames))
		nd := make([]NamedDigest, len(frames))
		for i, f := range frames {
			norm[i] = Normalize(f)
			nd[i] = NamedDigest{names[i], FrameDigest(f)}
		}
		digest := MotionDigest(a, nd)
		digests[a] = digest
		metrics, warnings := stateMetrics(frames, norm, loops(timingOf(st)))
		for _, w := range warnings {
			allWarnings = append(allWarnings, append(obj{{"state", string(a)}}, w...))
		}
		enc := make([]vp8l, len(frames))
		for i, f := range frames {
			if enc[i], err = encodeFrame(f); err != nil {
				return nil, nil, fmt.Errorf("%s: %s preview: %v", s.Path, a, err)
			}
		}
		webp, err := animation(m.RenderSize.Width, m.RenderSize.Height, enc, st.FrameDurationsMS)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s preview: %v", s.Path, a, err)
		}
		files = append(files, file{AuthoredPreviewPath(a), webp})
		for _, name := range names {
			data, err := s.ReadFile(st.FramesDir + "/" + name)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, file{FramePath(a, name), data})
		}
		keys := KeyframeIndices(len(frames))
		row := sheetRow{}
		for _, k := range keys {
			row = append(row, frames[k])
		}
		sheet.draw(len(states), row)
		if warnings == nil {
			warnings = []obj{}
		}
		states = append(states, kv{string(a), obj{
			{"frame_count", len(frames)},
			{"frame_durations_ms", st.FrameDurationsMS},
			{"total_duration_ms", sum(st.FrameDurationsMS)},
			{"playback", playbackObj(st.Playback)},
			{"reduced_motion_frame_index", st.ReducedMotionFrameIndex},
			{"motion_digest", digest},
			{"keyframe_indices", keys},
			{"previews", obj{{"authored_timing", AuthoredPreviewPath(a)}}},
			{"metrics", metrics},
			{"warnings", warnings},
		}})
	}
	sheetPNG, err := encodePNG(sheet.img)
	if err != nil {
		return nil, nil, err
	}
	sheet = nil
	files = append(files, file{KeyframesPNG, sheetPNG})
	presence, presenceWebP, err := presencePreview(s)
	if err != nil {
		return nil, nil, err
	}
	files = append(files, file{PresenceWebP, presenceWebP})
	if allWarnings == nil {
		allWarnings = []obj{}
	}
	auditedNames := make([]string, len(audited))
	for i, a := range audited {
		auditedNames[i] = string(a)
	}
	report := obj{
		{"schema_version", ReportSchema},
		{"generated_at", m.CreatedAt},
		{"manifest_id", m.ID},
		{"timing_digest", TimingDigest(m.States)},
		{"preview_size", obj{{"width", m.RenderSize.Width}, {"height", m.RenderSize.Height}}},
		{"audited_states", auditedNames},
		{"frame_set_digest", FrameSetDigest(digests)},
		{"keyframes", KeyframesPNG},
		{"states", states},
		{"warnings", allWarnings},
		{"warning_count", len(allWarnings)},
		{"measurement_note", MeasurementNote},
		{"presence_preview", presence},
	}
	data, err := encodeDoc(report)
	if err != nil {
		return nil, nil, err
	}
	files = append(files, file{ReportName, data})
	files = append(files, file{IndexHTML, indexPage(s, audited, states, presence)})
	return files, &Result{Report: data, Audited: audited, Warnings: len(allWarnings)}, nil
}

func timingOf(st *petpack.State) stateTiming {
	t := stateTiming{mode: st.Playback.Mode, repeat: 1}
	if st.Playback.EntryRepeatCount != nil {
		t.repeat = *st.Playback.EntryRepeatCount
	}
	return t
}

func playbackObj(p petpack.Playback) obj {
	o := obj{{"mode", string(p.Mode)}}
	if p.EntryRepeatCount != nil {
		o = append(o, kv{"entry_repeat_count", *p.EntryRepeatCount})
	}
	if p.SettleFrameIndex != nil {
		o = append(o, kv{"settle_frame_index", *p.SettleFrameIndex})
	}
	if p.CooldownMS != nil {
		o = append(o, kv{"cooldown_ms", p.CooldownMS[:]})
	}
	return o
}

func sum(v []int) int {
	t := 0
	for _, n := range v {
		t += n
	}
	return t
}

// repeatCount is a state's entry_repeat_count, 1 when it has none.
func repeatCount(st *petpack.State) int {
	if st.Playback.EntryRepeatCount != nil {
		return *st.Playback.EntryRepeatCount
	}
	return 1
}

// ActiveMS is a state's effective active playback: the sum of its
// durations times its entry_repeat_count.
func ActiveMS(st *petpack.State) int { return sum(st.FrameDurationsMS) * repeatCount(st) }

// absClean is the absolute, symlink-resolved form of p, resolving the
// longest existing prefix so a path that does not exist yet compares too.
func absClean(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(a); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(a)
		if parent == a {
			return filepath.Join(a, rest), nil
		}
		rest = filepath.Join(filepath.Base(a), rest)
		a = parent
	}
}

func within(child, parent string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkOutside refuses an output inside the source tree, and a source
// inside the output (replacing the output would delete it).
func checkOutside(src, out string) error {
	as, err := absClean(src)
	if err != nil {
		return err
	}
	ao, err := absClean(out)
	if err != nil {
		return err
	}
	if within(ao, as) {
		return fmt.Errorf("%s: qa_output_inside_source: the QA directory must be outside the package %s", out, src)
	}
	if within(as, ao) {
		return fmt.Errorf("%s: qa_output_contains_source: replacing the QA directory would remove the package %s", out, src)
	}
	return nil
}

// checkReplaceable accepts an output that does not exist, an empty
// directory, or a directory holding an earlier report.json: anything else
// might be a person's files, which replacing it whole would delete.
func checkReplaceable(out string) error {
	fi, err := os.Lstat(out)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: qa_output_not_directory: exists and is not a directory", out)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(out, ReportName))
	if err == nil && bytes.Contains(data, []byte(`"`+ReportSchema+`"`)) {
		return nil
	}
	return fmt.Errorf("%s: qa_output_not_empty: holds files that are not an earlier QA report; give an empty or new directory", out)
}

func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
