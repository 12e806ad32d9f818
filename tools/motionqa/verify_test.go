package motionqa

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// editJSON rewrites a JSON evidence file through fn.
func editJSON(t *testing.T, p string, fn func(doc map[string]interface{})) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	fn(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyFile copies a file into a new directory and returns the copy.
func copyFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(p))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// bindSHA sets a review's report_sha256 to the hash of the report's bytes,
// so a test that damages the report sees only the failure it made.
func bindSHA(t *testing.T, reviewPath, reportPath string) {
	t.Helper()
	data, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	editJSON(t, reviewPath, func(d map[string]interface{}) { d["report_sha256"] = hex.EncodeToString(sum[:]) })
}

// tamperReport copies the base evidence, edits the report and rebinds the
// review to it.
func tamperReport(t *testing.T, fn func(doc map[string]interface{})) VerifyOptions {
	src, qa, rv := base(t)
	qa = copyQA(t, qa)
	rv = copyFile(t, rv)
	rp := filepath.Join(qa, ReportName)
	editJSON(t, rp, fn)
	bindSHA(t, rv, rp)
	return VerifyOptions{Source: src, Report: rp, Review: rv}
}

func tamperReview(t *testing.T, fn func(doc map[string]interface{})) VerifyOptions {
	src, qa, rv := base(t)
	rv = copyFile(t, rv)
	editJSON(t, rv, fn)
	return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
}

// badPet builds the sample pet changed by fn and approves its own QA, so
// the only failures are the ones fn made in the frames or timing.
func badPet(t *testing.T, fn func(f *fixture)) VerifyOptions {
	f := sampleFixture(t)
	fn(f)
	src := f.build(t)
	qa, rv := qaAndReview(t, src, Options{})
	return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
}

func presenceOf(doc map[string]interface{}) map[string]interface{} {
	return doc["presence_preview"].(map[string]interface{})
}

func mix(a, b *image.NRGBA) *image.NRGBA {
	out := image.NewNRGBA(a.Rect)
	for i := range out.Pix {
		out.Pix[i] = byte((int(a.Pix[i]) + int(b.Pix[i])) / 2)
	}
	return out
}

// TestVerifyHardFailures makes one pet or one evidence file fail each hard
// check of section 6 and asserts the rule and what the message names.
func TestVerifyHardFailures(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T) VerifyOptions
		rule    string
		want    []string
		flag    string // the *_ok flag that must be false
	}{
		{"report schema", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { d["schema_version"] = "apc.pet-motion-qa.v0" })
		}, RuleReportSchema, []string{"apc.pet-motion-qa.v0"}, "visual"},
		{"review schema", func(t *testing.T) VerifyOptions {
			return tamperReview(t, func(d map[string]interface{}) { d["schema_version"] = "apc.pet-motion-review.v2" })
		}, RuleReviewSchema, []string{"apc.pet-motion-review.v2"}, "visual"},
		{"review not approved", func(t *testing.T) VerifyOptions {
			return tamperReview(t, func(d map[string]interface{}) { d["status"] = "draft" })
		}, RuleReviewNotApproved, []string{`"draft"`}, "visual"},
		{"review binds another report", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			qa = copyQA(t, qa)
			rp := filepath.Join(qa, ReportName)
			data, _ := os.ReadFile(rp)
			os.WriteFile(rp, append(data, '\n'), 0o644)
			return VerifyOptions{Source: src, Report: rp, Review: rv}
		}, RuleReviewStale, []string{"report_sha256"}, "visual"},
		{"report and review audit different states", func(t *testing.T) VerifyOptions {
			return tamperReview(t, func(d map[string]interface{}) {
				l := d["audited_states"].([]interface{})
				d["audited_states"] = l[:len(l)-1]
			})
		}, RuleAuditedStatesMismatch, []string{"drag_right"}, "visual"},
		{"not all nine audited", func(t *testing.T) VerifyOptions {
			src, _, _ := base(t)
			qa, rv := qaAndReview(t, src, Options{States: []petpack.Action{"tool", "idle"}})
			return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleAuditCoverage, []string{"[idle, tool]", "all nine states"}, "visual"},
		{"timing changed after QA", func(t *testing.T) VerifyOptions {
			_, qa, rv := base(t)
			f := sampleFixture(t)
			f.timing["thinking"] = `{"frame_durations_ms":[150,150,150,150],"playback":{"mode":"burst_then_idle","entry_repeat_count":3},"reduced_motion_frame_index":2}`
			return VerifyOptions{Source: f.build(t), Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleTimingDigestStale, []string{"timing_digest"}, "visual"},
		{"evidence of another pet", func(t *testing.T) VerifyOptions {
			_, qa, rv := base(t)
			f := sampleFixture(t)
			f.id = "pet_other"
			return VerifyOptions{Source: f.build(t), Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleManifestIDMismatch, []string{`"pet_tabby"`, `"pet_other"`}, "visual"},
		{"frames changed after QA", func(t *testing.T) VerifyOptions {
			_, qa, rv := base(t)
			f := sampleFixture(t)
			img := f.frames["tool"][2]
			img.Pix[img.PixOffset(96, 100)+0] ^= 0x40
			img.Pix[img.PixOffset(96, 100)+3] = 255
			return VerifyOptions{Source: f.build(t), Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleMotionDigestStale, []string{"state tool", "motion_digest"}, "visual"},
		{"review frame-set digest stale", func(t *testing.T) VerifyOptions {
			return tamperReview(t, func(d map[string]interface{}) { d["frame_set_digest"] = strings.Repeat("0", 64) })
		}, RuleFrameSetDigestStale, []string{"review.json", strings.Repeat("0", 64)}, "visual"},
		// Report-side tampering of each digest the report carries, with
		// the review rebound to the edited report: only the verifier's own
		// recomputation can notice.
		{"report frame-set digest stale", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { d["frame_set_digest"] = strings.Repeat("2", 64) })
		}, RuleFrameSetDigestStale, []string{"report.json", strings.Repeat("2", 64)}, "visual"},
		{"report timing digest stale", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { d["timing_digest"] = strings.Repeat("3", 64) })
		}, RuleTimingDigestStale, []string{"report.json", "timing_digest " + strings.Repeat("3", 64)}, "visual"},
		{"presence digest stale", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { presenceOf(d)["frame_set_digest"] = strings.Repeat("1", 64) })
		}, RulePresenceDigestStale, []string{"presence_preview.frame_set_digest", strings.Repeat("1", 64)}, "visual"},
		{"artifact is a symbolic link", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			qa = copyQA(t, qa)
			p := filepath.Join(qa, AuthoredPreviewPath("idle"))
			moved := filepath.Join(t.TempDir(), "idle.webp")
			os.Rename(p, moved)
			if err := os.Symlink(moved, p); err != nil {
				t.Fatal(err)
			}
			return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleArtifactInvalid, []string{"idle-authored-timing.webp", "symbolic link"}, "visual"},
		{"artifact path escapes the QA folder", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { d["keyframes"] = "../keyframes.png" })
		}, RuleArtifactInvalid, []string{"unsafe artifact path", "../keyframes.png"}, "visual"},
		{"artifact missing", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			qa = copyQA(t, qa)
			os.Remove(filepath.Join(qa, PresenceWebP))
			return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleArtifactInvalid, []string{"presence-preview.webp"}, "visual"},
		{"preview at other durations", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			qa = copyQA(t, qa)
			data, _ := os.ReadFile(filepath.Join(qa, AuthoredPreviewPath("tool")))
			os.WriteFile(filepath.Join(qa, AuthoredPreviewPath("idle")), data, 0o644)
			return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleArtifactInvalid, []string{"idle preview plays durations [150 150 170 330]", "[260 220 240 260 380 640]"}, "visual"},
		{"report over 512 KiB", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { d["padding"] = strings.Repeat("x", 600<<10) })
		}, RuleEvidenceUnsafe, []string{"byte limit"}, "visual"},
		{"report not JSON", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			qa = copyQA(t, qa)
			os.WriteFile(filepath.Join(qa, ReportName), []byte("[1,2"), 0o644)
			return VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RuleEvidenceMalformed, []string{"report.json"}, "visual"},
		{"note too short", func(t *testing.T) VerifyOptions {
			return tamperReview(t, func(d map[string]interface{}) {
				d["states"].(map[string]interface{})["done"].(map[string]interface{})["note"] = "fine"
			})
		}, RuleReviewNoteInvalid, []string{"state done", "4 characters"}, "visual"},
		{"clipped frame", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				img := f.frames["thinking"][1]
				img.Pix[img.PixOffset(0, 120)+3] = 200
			})
		}, RuleFrameClipped, []string{"state thinking frame 1 (0001.png)", "left edge", "alpha >= 16"}, "visual"},
		{"synthetic blends", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				w := f.frames["waiting"]
				w[1] = mix(w[0], w[2])
				w[3] = mix(w[2], w[4])
			})
		}, RuleSyntheticBlend, []string{"state waiting", "frame 1 (w 0.5", "frame 3 (w 0.5", "relative residual", "motion RMS"}, "visual"},
		{"state without motion", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				for i := range f.frames["tool"] {
					f.frames["tool"][i] = f.frames["tool"][0]
				}
			})
		}, RuleStateStatic, []string{"state tool", "same visible pixels"}, "visual"},
		{"first frames not distinct", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				for _, a := range petpack.Actions() {
					f.frames[a][0] = f.frames["idle"][0]
				}
			})
		}, RuleStatesNotDistinct, []string{"1 distinct first frames"}, "visual"},
		{"active playback too short", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				f.timing["thinking"] = `{"frame_durations_ms":[50,50,50,50],"playback":{"mode":"burst_then_idle","entry_repeat_count":3},"reduced_motion_frame_index":2}`
			})
		}, RuleActivePlayback, []string{"state thinking is active for 600 ms (200 ms x 3 repeats)"}, "visual"},
		{"presence preview too long", func(t *testing.T) VerifyOptions {
			return badPet(t, func(f *fixture) {
				for _, a := range []string{"thinking", "tool", "done"} {
					f.timing[petpack.Action(a)] = `{"frame_durations_ms":[400,400,400,400],"playback":{"mode":"burst_then_idle","entry_repeat_count":2},"reduced_motion_frame_index":2}`
				}
			})
		}, RulePresenceDuration, []string{"lasts 13500 ms"}, "visual"},
		{"too few rests", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) { presenceOf(d)["rest_phase_count"] = json.Number("2") })
		}, RulePresenceRests, []string{"2 idle rests"}, "visual"},
		{"late motion boundary outside the preview", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) {
				p := presenceOf(d)
				p["late_motion_boundary_ms"] = p["duration_ms"]
			})
		}, RulePresenceRests, []string{"late_motion_boundary_ms 10050 is outside [1000, 10050)"}, "visual"},
		{"sequence does not add up", func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) {
				seg := presenceOf(d)["sequence"].([]interface{})[0].(map[string]interface{})
				seg["duration_ms"] = json.Number("2001")
			})
		}, RulePresenceSequence, []string{"adds up to 10051 ms"}, "visual"},
		{"damaged package", func(t *testing.T) VerifyOptions {
			src, qa, rv := base(t)
			dir := unpack(t, src)
			var b bytes.Buffer
			png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 10, 10)))
			os.WriteFile(filepath.Join(dir, "assets/frames/done/0001.png"), b.Bytes(), 0o644)
			return VerifyOptions{Source: dir, Report: filepath.Join(qa, ReportName), Review: rv}
		}, RulePackageInvalid, []string{"frame_size_mismatch", "assets/frames/done/0001.png"}, "package"},
	}
	for _, a := range petpack.Actions() {
		a := a
		cases = append(cases, struct {
			name    string
			prepare func(t *testing.T) VerifyOptions
			rule    string
			want    []string
			flag    string
		}{"report motion digest stale/" + string(a), func(t *testing.T) VerifyOptions {
			return tamperReport(t, func(d map[string]interface{}) {
				d["states"].(map[string]interface{})[string(a)].(map[string]interface{})["motion_digest"] = strings.Repeat("4", 64)
			})
		}, RuleMotionDigestStale, []string{"report.json", "state " + string(a) + ": motion_digest " + strings.Repeat("4", 64)}, "visual"})
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			opt := c.prepare(t)
			ver, fails := VerifyProduction(opt)
			if ver.OK {
				t.Fatalf("ok is true; want a %s failure", c.rule)
			}
			text := failuresText(fails)
			t.Log(text)
			var hit *Failure
			for i := range fails {
				if fails[i].Rule == c.rule {
					hit = &fails[i]
					break
				}
			}
			if hit == nil {
				t.Fatalf("no %s failure among:\n%s", c.rule, text)
			}
			for _, w := range c.want {
				if !strings.Contains(hit.String(), w) {
					t.Errorf("%s failure %q does not name %q", c.rule, hit.String(), w)
				}
			}
			switch c.flag {
			case "visual":
				if ver.VisualOK || !ver.PackageOK {
					t.Errorf("visual_ok %v package_ok %v; want false, true", ver.VisualOK, ver.PackageOK)
				}
			case "package":
				if ver.PackageOK {
					t.Error("package_ok is true")
				}
			}
		})
	}
}
