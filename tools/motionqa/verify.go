package motionqa

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// The rules of verify-production, each a hard failure (contract section 6).
const (
	RulePackageInvalid         = "package_invalid"
	RuleEvidenceUnsafe         = "evidence_unsafe"
	RuleEvidenceMalformed      = "evidence_malformed"
	RuleReportSchema           = "report_schema"
	RuleReviewSchema           = "review_schema"
	RuleReviewNotApproved      = "review_not_approved"
	RuleReviewStale            = "review_stale"
	RuleAuditedStatesInvalid   = "audited_states_invalid"
	RuleAuditedStatesMismatch  = "audited_states_mismatch"
	RuleAuditCoverage          = "audit_coverage"
	RuleManifestIDMismatch     = "manifest_id_mismatch"
	RuleTimingDigestStale      = "timing_digest_stale"
	RuleMotionDigestStale      = "motion_digest_stale"
	RuleFrameSetDigestStale    = "frame_set_digest_stale"
	RulePresenceDigestStale    = "presence_digest_stale"
	RuleReviewNoteInvalid      = "review_note_invalid"
	RuleArtifactInvalid        = "artifact_invalid"
	RuleFrameClipped           = "frame_clipped"
	RuleSyntheticBlend         = "synthetic_blend"
	RuleStateStatic            = "state_static"
	RuleStatesNotDistinct      = "states_not_distinct"
	RuleActivePlayback         = "active_playback_out_of_range"
	RulePresenceDuration       = "presence_duration"
	RulePresenceRests          = "presence_rests"
	RulePresenceSequence       = "presence_sequence"
	RuleFullSourceCoverage     = "full_source_alpha_coverage"
	RuleFullSourceDuplicate    = "full_source_frame_duplicate"
	RuleFullSourceLoopSeam     = "full_source_loop_seam_duplicate"
	RuleRevisionUnchanged      = "revision_unchanged"
	RuleTimingWithoutFrames    = "timing_changed_without_frames"
	RuleBaselineMismatch       = "baseline_mismatch"
	RuleBaselineInvalid        = "baseline_invalid"
	provenanceSkillFullSource  = "skill-full-source"
	fullSourceVisibleAlpha     = 16
	fullSourceTransparentAlpha = 239
)

// Failure is one broken check: the file it is about, its rule and what
// was measured.
type Failure struct {
	File, Rule, Msg string
}

func (f Failure) String() string { return f.File + ": " + f.Rule + ": " + f.Msg }

// VerifyOptions name the inputs of verify-production.
type VerifyOptions struct {
	Source, Report, Review, Baseline string
}

// Verification is the apc.pet-visual-production-verification.v1 document.
type Verification struct {
	OK, BuildOK, PackageOK, RuntimeOK, VisualOK bool
	Audited, Changed                            []string
	TimingDigest, FrameSetDigest                string
	WarningCodes                                []string
}

// JSON writes the verification in the authors' key order; interaction_ok
// is null because the interaction attestation belongs to their macOS app.
func (v *Verification) JSON() []byte {
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	b, _ := encodeDoc(obj{
		{"schema_version", VerificationSchema},
		{"ok", v.OK},
		{"build_ok", v.BuildOK},
		{"package_ok", v.PackageOK},
		{"interaction_ok", nil},
		{"runtime_ok", v.RuntimeOK},
		{"visual_ok", v.VisualOK},
		{"audited_states", nz(v.Audited)},
		{"changed_states", nz(v.Changed)},
		{"timing_digest", v.TimingDigest},
		{"frame_set_digest", v.FrameSetDigest},
		{"warning_codes", nz(v.WarningCodes)},
	})
	return b
}

type verifier struct {
	opt   VerifyOptions
	fails []Failure
}

func (v *verifier) fail(file, rule, format string, args ...interface{}) {
	v.fails = append(v.fails, Failure{file, rule, fmt.Sprintf(format, args...)})
}

// VerifyProduction runs every hard check of section 6 and returns the
// verification and the failures, in the order the checks ran.
func VerifyProduction(opt VerifyOptions) (*Verification, []Failure) {
	v := &verifier{opt: opt}
	out := &Verification{}
	s, err := Open(opt.Source)
	if err != nil {
		var inv *InvalidSourceError
		if errors.As(err, &inv) {
			out.BuildOK = inv.Verdict.Manifest != nil
			out.RuntimeOK = out.BuildOK && !runtimeErrors(inv.Verdict)
			for _, f := range inv.Verdict.Errors {
				v.fail(opt.Source, RulePackageInvalid, "%s", f)
			}
		} else {
			v.fail(opt.Source, RulePackageInvalid, "%v", err)
		}
		return out, v.fails
	}
	defer s.Close()
	out.BuildOK, out.PackageOK, out.RuntimeOK = true, true, true
	out.TimingDigest = TimingDigest(s.Manifest.States)
	if s.Provenance() == provenanceSkillFullSource {
		n := len(v.fails)
		v.fullSource(s)
		out.RuntimeOK = len(v.fails) == n
	}
	visualStart := len(v.fails)
	v.evidence(s, out)
	out.VisualOK = len(v.fails) == visualStart
	out.OK = out.BuildOK && out.PackageOK && out.RuntimeOK && out.VisualOK
	return out, v.fails
}

func runtimeErrors(vd *petpack.Verdict) bool {
	for _, f := range vd.Errors {
		r := string(f.Rule)
		if strings.HasPrefix(r, "frame_") || strings.HasPrefix(r, "full_source_") || strings.HasPrefix(r, "state_") {
			return true
		}
	}
	return false
}

// evidence checks the report and the review against the package.
func (v *verifier) evidence(s *Source, out *Verification) {
	rp, wp := v.opt.Report, v.opt.Review
	reportBytes, report := v.readDoc(rp)
	_, review := v.readDoc(wp)
	if report == nil || review == nil {
		return
	}
	root := filepath.Dir(rp)
	if sv, _ := str(report["schema_version"]); sv != ReportSchema {
		v.fail(rp, RuleReportSchema, "schema_version is %q, not %s", sv, ReportSchema)
		return
	}
	if sv, _ := str(review["schema_version"]); sv != ReviewSchema {
		v.fail(wp, RuleReviewSchema, "schema_version is %q, not %s", sv, ReviewSchema)
		return
	}
	if st, _ := str(review["status"]); st != "approved" {
		v.fail(wp, RuleReviewNotApproved, "status is %q, not approved", st)
	}
	sum := sha256.Sum256(reportBytes)
	if got, _ := str(review["report_sha256"]); got != hex.EncodeToString(sum[:]) {
		v.fail(wp, RuleReviewStale, "report_sha256 %s is not the SHA-256 of %s (%s)", got, rp, hex.EncodeToString(sum[:]))
	}
	audited, err := auditedStates(report)
	if err != nil {
		v.fail(rp, RuleAuditedStatesInvalid, "%v", err)
		return
	}
	reviewed, err := auditedStates(review)
	if err != nil {
		v.fail(wp, RuleAuditedStatesInvalid, "%v", err)
		return
	}
	out.Audited = audited
	if strings.Join(audited, ",") != strings.Join(reviewed, ",") {
		v.fail(wp, RuleAuditedStatesMismatch, "the review audits [%s], the report [%s]", strings.Join(reviewed, ", "), strings.Join(audited, ", "))
	}
	var required []petpack.Action
	if v.opt.Baseline != "" {
		ch, err := ChangedStates(s, v.opt.Baseline)
		if err != nil {
			var ce *ChangeError
			var inv *InvalidSourceError
			switch {
			case errors.As(err, &ce):
				v.fail(v.opt.Baseline, ce.Rule, "%s", ce.Msg)
			case errors.As(err, &inv):
				v.fail(v.opt.Baseline, RuleBaselineInvalid, "%v", inv)
			default:
				v.fail(v.opt.Baseline, RuleBaselineInvalid, "%v", err)
			}
			return
		}
		required = ch.Changed
	} else {
		required = petpack.Actions()
	}
	reqNames := make([]string, len(required))
	for i, a := range required {
		reqNames[i] = string(a)
	}
	out.Changed = reqNames
	if strings.Join(audited, ",") != strings.Join(reqNames, ",") {
		what := "all nine states in the fixed order"
		if v.opt.Baseline != "" {
			what = "exactly the changed states"
		}
		v.fail(rp, RuleAuditCoverage, "the report audits [%s]; it must audit %s: [%s]", strings.Join(audited, ", "), what, strings.Join(reqNames, ", "))
		return
	}
	if got, _ := str(report["manifest_id"]); got != s.Manifest.ID {
		v.fail(rp, RuleManifestIDMismatch, "manifest_id %q is not the package's %q: evidence of another pet", got, s.Manifest.ID)
	}
	if got, _ := str(report["timing_digest"]); got != out.TimingDigest {
		v.fail(rp, RuleTimingDigestStale, "timing_digest %s is not the manifest's current %s", got, out.TimingDigest)
	}
	if kf, ok := str(report["keyframes"]); !ok {
		v.fail(rp, RuleArtifactInvalid, "keyframes: no keyframe sheet path")
	} else {
		v.pngArtifact(root, kf)
	}
	reportStates := objOf(report["states"])
	reviewStates := objOf(review["states"])
	digests := map[petpack.Action]string{}
	codeSet := map[string]bool{}
	for _, a := range required {
		frames, err := s.Frames(a)
		if err != nil {
			v.fail(s.Path, RulePackageInvalid, "%v", err)
			return
		}
		names := s.FrameNames(a)
		nd := make([]NamedDigest, len(frames))
		for i, f := range frames {
			nd[i] = NamedDigest{names[i], FrameDigest(f)}
		}
		digests[a] = MotionDigest(a, nd)
		rs := objOf(reportStates[string(a)])
		if rs == nil {
			v.fail(rp, RuleMotionDigestStale, "state %s: no evidence in states", a)
		} else if got, _ := str(rs["motion_digest"]); got != digests[a] {
			v.fail(rp, RuleMotionDigestStale, "state %s: motion_digest %s is not the current frames' %s", a, got, digests[a])
		}
		if ws, ok := rs["warnings"].([]interface{}); ok {
			for _, w := range ws {
				if c, ok := str(objOf(w)["code"]); ok {
					codeSet[c] = true
				}
			}
		}
		ns := objOf(reviewStates[string(a)])
		status, _ := str(ns["status"])
		note, _ := str(ns["note"])
		if status != "approved" {
			v.fail(wp, RuleReviewNoteInvalid, "state %s: status is %q, not approved", a, status)
		} else if err := CheckNote(string(a), note); err != nil {
			v.fail(wp, RuleReviewNoteInvalid, "state %s: %v", a, err)
		}
		prev, _ := str(objOf(rs["previews"])["authored_timing"])
		if prev == "" {
			v.fail(rp, RuleArtifactInvalid, "state %s: no previews.authored_timing", a)
		} else {
			v.webpArtifact(root, prev, string(a), s.Manifest.State(a).FrameDurationsMS, 0)
		}
		v.visual(s, a, frames, nd)
	}
	fsd := FrameSetDigest(digests)
	out.FrameSetDigest = fsd
	for _, d := range []struct {
		file string
		doc  map[string]interface{}
	}{{rp, report}, {wp, review}} {
		if got, _ := str(d.doc["frame_set_digest"]); got != fsd {
			v.fail(d.file, RuleFrameSetDigestStale, "frame_set_digest %s is not the audited frames' %s", got, fsd)
		}
	}
	v.presence(s, root, report)
	if len(required) == len(petpack.Actions()) {
		v.distinctFirstFrames(s)
	}
	for c := range codeSet {
		out.WarningCodes = append(out.WarningCodes, c)
	}
	sort.Strings(out.WarningCodes)
}

// visual is the objective per-state checks: distinct frames, clipping,
// synthetic blends.
func (v *verifier) visual(s *Source, a petpack.Action, frames []*image.NRGBA, nd []NamedDigest) {
	src := s.Path
	if len(frames) < 2 {
		v.fail(src, RuleStateStatic, "state %s has %d frame; it needs at least two distinct frames", a, len(frames))
	} else {
		distinct := map[string]bool{}
		for _, d := range nd {
			distinct[d.Digest] = true
		}
		if len(distinct) < 2 {
			v.fail(src, RuleStateStatic, "state %s: all %d frames decode to the same visible pixels", a, len(frames))
		}
	}
	for i, f := range frames {
		if sides := measureSignature(f).edgeSides(); len(sides) > 0 {
			v.fail(src, RuleFrameClipped, "state %s frame %d (%s): visible pixels (alpha >= %d) on the %s edge of the %dx%d frame",
				a, i, nd[i].Name, VisibleAlpha, strings.Join(sides, ", "), f.Rect.Dx(), f.Rect.Dy())
		}
	}
	if c := BlendCandidates(frames); len(c) >= 2 {
		parts := make([]string, len(c))
		for i, f := range c {
			b := blendObj(f)
			parts[i] = fmt.Sprintf("frame %d (w %s, relative residual %s, motion RMS %s of full scale)", f.Frame, b.get("weight"), b.get("relative_residual"), b.get("motion_rms"))
		}
		v.fail(src, RuleSyntheticBlend, "state %s: %d frames are linear blends of their neighbours: %s", a, len(c), strings.Join(parts, "; "))
	}
}

// distinctFirstFrames needs four distinct first frames across the nine.
func (v *verifier) distinctFirstFrames(s *Source) {
	seen := map[string]bool{}
	for _, a := range petpack.Actions() {
		f, err := s.Frame(a, 0)
		if err != nil {
			v.fail(s.Path, RulePackageInvalid, "%v", err)
			return
		}
		seen[DecodedFrameDigest(f)] = true
	}
	if len(seen) < 4 {
		v.fail(s.Path, RuleStatesNotDistinct, "the nine states have %d distinct first frames; at least 4 are required", len(seen))
	}
}

// presence checks the presence-preview block, its file and the active
// playback of the semantic actions.
func (v *verifier) presence(s *Source, root string, report map[string]interface{}) {
	rp := v.opt.Report
	m := s.Manifest
	for _, a := range []petpack.Action{petpack.ActionThinking, petpack.ActionTool, petpack.ActionWaiting, petpack.ActionDone, petpack.ActionFailed} {
		st := m.State(a)
		if ms := ActiveMS(st); ms < ActiveMinMS || ms > ActiveMaxMS {
			v.fail(s.Path, RuleActivePlayback, "state %s is active for %d ms (%d ms x %d repeats); it must be %d to %d ms",
				a, ms, sum(st.FrameDurationsMS), repeatCount(st), ActiveMinMS, ActiveMaxMS)
		}
	}
	p := objOf(report["presence_preview"])
	if p == nil {
		v.fail(rp, RulePresenceSequence, "presence_preview is missing")
		return
	}
	dur, ok := intOf(p["duration_ms"])
	minD, _ := intOf(p["minimum_duration_ms"])
	maxD, _ := intOf(p["maximum_duration_ms"])
	if !ok || dur < PresenceMinMS || dur > PresenceMaxMS || minD != PresenceMinMS || maxD != PresenceMaxMS {
		v.fail(rp, RulePresenceDuration, "presence preview lasts %v ms (declared bounds %v to %v); it must last %d to %d ms",
			p["duration_ms"], p["minimum_duration_ms"], p["maximum_duration_ms"], PresenceMinMS, PresenceMaxMS)
	}
	late, _ := intOf(p["late_motion_boundary_ms"])
	rests, _ := intOf(p["rest_phase_count"])
	if rests < 3 {
		v.fail(rp, RulePresenceRests, "presence preview has %d idle rests; it needs at least 3", rests)
	}
	if late < ActiveMinMS || late >= dur {
		v.fail(rp, RulePresenceRests, "late_motion_boundary_ms %d is outside [%d, %d)", late, ActiveMinMS, dur)
	}
	seq, ok := p["sequence"].([]interface{})
	if !ok {
		v.fail(rp, RulePresenceSequence, "presence_preview.sequence is missing")
	} else {
		var total, restCount int64
		actions := map[string]bool{}
		for i, x := range seq {
			seg := objOf(x)
			d, ok := intOf(seg["duration_ms"])
			if !ok || d == 0 {
				v.fail(rp, RulePresenceSequence, "sequence[%d] has no positive duration_ms", i)
				continue
			}
			total += d
			kind, _ := str(seg["kind"])
			state, _ := str(seg["state"])
			switch {
			case kind == "action":
				actions[state] = true
			case kind == "idle_rest" && state == "idle":
				restCount++
			default:
				v.fail(rp, RulePresenceSequence, "sequence[%d] is kind %q state %q, not an action or an idle rest", i, kind, state)
			}
		}
		if total != dur || restCount != rests {
			v.fail(rp, RulePresenceSequence, "the sequence adds up to %d ms with %d rests; the block declares %d ms and %d rests", total, restCount, dur, rests)
		}
		for _, a := range presenceActions {
			if !actions[string(a)] {
				v.fail(rp, RulePresenceSequence, "the sequence never plays %s", a)
			}
		}
	}
	all, err := AllMotionDigests(s)
	if err != nil {
		v.fail(s.Path, RulePackageInvalid, "%v", err)
		return
	}
	if got, _ := str(p["frame_set_digest"]); got != FrameSetDigest(all) {
		v.fail(rp, RulePresenceDigestStale, "presence_preview.frame_set_digest %s is not the nine actions' current %s", got, FrameSetDigest(all))
	}
	if path, ok := str(p["path"]); !ok {
		v.fail(rp, RuleArtifactInvalid, "presence_preview.path is missing")
	} else {
		v.webpArtifact(root, path, "presence", nil, dur)
	}
}

// readDoc reads an evidence JSON file.
func (v *verifier) readDoc(p string) ([]byte, map[string]interface{}) {
	data, err := readEvidence(p, MaxEvidenceJSON)
	if err != nil {
		v.fail(p, RuleEvidenceUnsafe, "%v", err)
		return nil, nil
	}
	doc, err := decodeObject(data)
	if err != nil {
		v.fail(p, RuleEvidenceMalformed, "%v", err)
		return nil, nil
	}
	return data, doc
}

func (v *verifier) artifact(root, rel string) (string, []byte) {
	p, err := artifactPath(root, rel)
	if err != nil {
		v.fail(filepath.Join(root, filepath.FromSlash(rel)), RuleArtifactInvalid, "%v", err)
		return "", nil
	}
	data, err := readEvidence(p, MaxEvidenceArtifact)
	if err != nil {
		v.fail(p, RuleArtifactInvalid, "%v", err)
		return "", nil
	}
	return p, data
}

func (v *verifier) pngArtifact(root, rel string) {
	p, data := v.artifact(root, rel)
	if data == nil {
		return
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err == nil && int64(cfg.Width)*int64(cfg.Height) > 1<<26 {
		err = fmt.Errorf("%dx%d is too large to decode", cfg.Width, cfg.Height)
	}
	if err == nil {
		_, err = png.Decode(bytes.NewReader(data))
	}
	if err != nil {
		v.fail(p, RuleArtifactInvalid, "does not decode as PNG: %v", err)
	}
}

// previewBudget bounds a QA preview: more frames than the package's own
// animated preview may hold (a presence preview repeats bursts), one frame
// decoded at a time.
func previewBudget() webp.Budget {
	b := webp.DefaultBudget()
	b.MaxFrames = 4096
	b.MaxDecodedBytes = 1 << 36
	return b
}

// webpArtifact decodes an animated preview and checks its timing: the
// state's durations exactly (durations != nil), or the total (total > 0).
func (v *verifier) webpArtifact(root, rel, what string, durations []int, total int64) {
	p, data := v.artifact(root, rel)
	if data == nil {
		return
	}
	var got []int
	var sumMS int64
	err := webp.DecodeEach(data, previewBudget(), func(i int, fr webp.Frame) error {
		got = append(got, fr.Duration)
		sumMS += int64(fr.Duration)
		return nil
	})
	if err != nil {
		v.fail(p, RuleArtifactInvalid, "%s preview does not decode: %v", what, err)
		return
	}
	// An encoder may merge identical adjacent frames into one (libwebp's
	// animation encoder does), so fewer frames adding up to the same time
	// are accepted; anything else is not the authored timing.
	if durations != nil && fmt.Sprint(got) != fmt.Sprint(durations) && !(len(got) < len(durations) && sumMS == int64(sum(durations))) {
		v.fail(p, RuleArtifactInvalid, "%s preview plays durations %v ms, not the authored %v", what, got, durations)
	}
	if total > 0 && sumMS != total {
		v.fail(p, RuleArtifactInvalid, "%s preview lasts %d ms decoded, not the declared %d", what, sumMS, total)
	}
}

// fullSource applies the validator's full-source media rules with the
// visibility threshold of QA: under 1% of a frame visible (alpha >= 16) or
// transparent (alpha <= 239), adjacent identical frames, and a loop
// state's last frame identical to its first.
func (v *verifier) fullSource(s *Source) {
	for _, a := range petpack.Actions() {
		st := s.Manifest.State(a)
		names := s.FrameNames(a)
		var first, prev string
		for i := range names {
			f, err := s.Frame(a, i)
			if err != nil {
				v.fail(s.Path, RulePackageInvalid, "%v", err)
				return
			}
			var vis, tr int
			for j := 3; j < len(f.Pix); j += 4 {
				if f.Pix[j] >= fullSourceVisibleAlpha {
					vis++
				}
				if f.Pix[j] <= fullSourceTransparentAlpha {
					tr++
				}
			}
			n := len(f.Pix) / 4
			if vis*100 < n || tr*100 < n {
				v.fail(s.Path, RuleFullSourceCoverage, "state %s frame %d (%s): %d of %d pixels visible, %d transparent; each must be at least 1%%", a, i, names[i], vis, n, tr)
			}
			d := FrameDigest(f)
			if i > 0 && d == prev {
				v.fail(s.Path, RuleFullSourceDuplicate, "state %s frame %d (%s) decodes identically to frame %d", a, i, names[i], i-1)
			}
			if i == 0 {
				first = d
			}
			prev = d
		}
		if st.Playback.Mode == petpack.ModeLoop && len(names) > 1 && prev == first {
			v.fail(s.Path, RuleFullSourceLoopSeam, "loop state %s: last frame %s decodes identically to the first", a, names[len(names)-1])
		}
	}
}
