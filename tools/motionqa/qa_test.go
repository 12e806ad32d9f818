package motionqa

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

func TestSamplePasses(t *testing.T) {
	src, qa, rv := base(t)
	ver, fails := VerifyProduction(VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv})
	if len(fails) > 0 || !ver.OK || !ver.BuildOK || !ver.PackageOK || !ver.RuntimeOK || !ver.VisualOK {
		t.Fatalf("sample pet fails verify-production (%+v):\n%s", ver, failuresText(fails))
	}
	if len(ver.Audited) != 9 || strings.Join(ver.Audited, ",") != strings.Join(ver.Changed, ",") {
		t.Errorf("audited %v changed %v; want the nine", ver.Audited, ver.Changed)
	}
	var doc map[string]interface{}
	if err := json.Unmarshal(ver.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc["interaction_ok"]; !ok || v != nil {
		t.Errorf("interaction_ok = %v (present %v); want null", v, ok)
	}
}

// tree reads every file under dir, keyed by slash path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, a, b string) {
	t.Helper()
	ta, tb := tree(t, a), tree(t, b)
	var names []string
	for n := range ta {
		names = append(names, n)
		if _, ok := tb[n]; !ok {
			t.Errorf("%s only in %s", n, a)
		}
	}
	for n := range tb {
		if _, ok := ta[n]; !ok {
			t.Errorf("%s only in %s", n, b)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if tb[n] != nil && !bytes.Equal(ta[n], tb[n]) {
			t.Errorf("%s differs between %s and %s", n, a, b)
		}
	}
}

// TestQADeterministic builds the QA directory twice, into different
// directories, from the archive, from its unpacked directory and from
// another working directory: every file is byte-identical.
func TestQADeterministic(t *testing.T) {
	src, qa, _ := base(t)
	again := filepath.Join(t.TempDir(), "elsewhere", "qa2")
	if _, err := Run(src, again, Options{}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, qa, again)

	dir := unpack(t, src)
	fromDir := filepath.Join(t.TempDir(), "qa")
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Dir(dir)); err != nil {
		t.Fatal(err)
	}
	_, err := Run(filepath.Base(dir), fromDir, Options{})
	os.Chdir(wd)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, qa, fromDir)
	report, _ := os.ReadFile(filepath.Join(qa, ReportName))
	if bytes.Contains(report, []byte(os.TempDir())) {
		t.Error("report.json names a temporary path")
	}
}

func TestQAReplacesWhole(t *testing.T) {
	src, qa, _ := base(t)
	out := copyQA(t, qa)
	stray := filepath.Join(out, "previews", "stale-authored-timing.webp")
	if err := os.WriteFile(stray, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(src, out, Options{States: []petpack.Action{"idle"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stray); !os.IsNotExist(err) {
		t.Errorf("a file of the earlier QA directory survived: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, AuthoredPreviewPath("tool"))); !os.IsNotExist(err) {
		t.Error("the earlier run's tool preview survived a run that audits only idle")
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	if len(ents) != 1 {
		t.Errorf("the QA directory's parent holds %d entries; want the QA directory alone", len(ents))
	}

	cases := []struct {
		name  string
		setup func(t *testing.T) string
		rule  string
	}{
		{"someone's files", func(t *testing.T) string {
			d := filepath.Join(t.TempDir(), "notes")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "todo.txt"), []byte("keep me"), 0o644)
			return d
		}, "qa_output_not_empty"},
		{"a file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "qa")
			os.WriteFile(p, []byte("keep me"), 0o644)
			return p
		}, "qa_output_not_directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := c.setup(t)
			before := tree(t, filepath.Dir(out))
			_, err := Run(src, out, Options{})
			if err == nil || !strings.Contains(err.Error(), c.rule) {
				t.Fatalf("err = %v; want %s", err, c.rule)
			}
			if after := tree(t, filepath.Dir(out)); len(after) != len(before) {
				t.Errorf("the refused output's folder changed: %d files, was %d", len(after), len(before))
			}
		})
	}
}

// TestQANeverWritesInsideSource refuses an output in the package tree and
// one that holds the package, and writes nothing.
func TestQANeverWritesInsideSource(t *testing.T) {
	src, _, _ := base(t)
	dir := unpack(t, src)
	before := tree(t, dir)
	for _, c := range []struct{ src, out, rule string }{
		{dir, filepath.Join(dir, "qa"), "qa_output_inside_source"},
		{dir, filepath.Join(dir, "assets", "qa"), "qa_output_inside_source"},
		{filepath.Join(dir, "manifest.json"), dir, "qa_output_contains_source"},
	} {
		if _, err := Run(c.src, c.out, Options{}); err == nil || !strings.Contains(err.Error(), c.rule) {
			t.Errorf("Run(%s, %s) = %v; want %s", c.src, c.out, err, c.rule)
		}
	}
	if after := tree(t, dir); len(after) != len(before) {
		t.Errorf("the package tree changed: %d files, was %d", len(after), len(before))
	}
}

// TestQADamagedSource gets the validator's verdict and no QA directory.
func TestQADamagedSource(t *testing.T) {
	src, _, _ := base(t)
	cases := []struct {
		name, rule string
		damage     func(dir string)
	}{
		{"frame of another size", "frame_size_mismatch", func(dir string) {
			var b bytes.Buffer
			png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
			os.WriteFile(filepath.Join(dir, "assets/frames/idle/0002.png"), b.Bytes(), 0o644)
		}},
		{"missing frame", "frame_count_mismatch", func(dir string) {
			os.Remove(filepath.Join(dir, "assets/frames/tool/0003.png"))
		}},
		{"truncated archive", "zip_end_missing", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in string
			if c.damage != nil {
				in = unpack(t, src)
				c.damage(in)
			} else {
				data, _ := os.ReadFile(src)
				in = filepath.Join(t.TempDir(), "cut.petpack")
				os.WriteFile(in, data[:len(data)/2], 0o644)
			}
			out := filepath.Join(t.TempDir(), "qa")
			_, err := Run(in, out, Options{})
			var inv *InvalidSourceError
			if !errors.As(err, &inv) || !strings.Contains(err.Error(), c.rule) {
				t.Fatalf("err = %v; want the validator's %s", err, c.rule)
			}
			if _, err := os.Lstat(out); !os.IsNotExist(err) {
				t.Errorf("a QA directory exists after a rejected source: %v", err)
			}
			ents, _ := os.ReadDir(filepath.Dir(out))
			if len(ents) != 0 {
				t.Errorf("the output's parent holds %d entries", len(ents))
			}
		})
	}
}

func readReport(t *testing.T, qa string) map[string]interface{} {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(qa, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestQAStates audits only the chosen states, in the fixed order, and
// still writes the nine-state presence preview.
func TestQAStates(t *testing.T) {
	src, qa, _ := base(t)
	out := filepath.Join(t.TempDir(), "qa")
	res, err := Run(src, out, Options{States: []petpack.Action{"tool", "idle", "tool"}})
	if err != nil {
		t.Fatal(err)
	}
	doc := readReport(t, out)
	if got := doc["audited_states"]; strings.Join(toStrings(got), ",") != "idle,tool" {
		t.Errorf("audited_states = %v; want [idle tool]", got)
	}
	if n := len(objOf(doc["states"])); n != 2 || len(res.Audited) != 2 {
		t.Errorf("states holds %d entries; want 2", n)
	}
	full := readReport(t, qa)
	if got, want := presenceOf(doc)["frame_set_digest"], presenceOf(full)["frame_set_digest"]; got != want {
		t.Errorf("presence frame_set_digest %v differs from the nine-state run's %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, PresenceWebP)); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, AuthoredPreviewPath("done"))); !os.IsNotExist(err) {
		t.Error("a preview of a state not audited was written")
	}
	if _, err := Run(src, out, Options{States: []petpack.Action{"sleep"}}); err == nil || !strings.Contains(err.Error(), "sleep") {
		t.Errorf("an unknown --state gave %v", err)
	}
}

func toStrings(v interface{}) []string {
	var out []string
	l, _ := v.([]interface{})
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// TestBaseline audits exactly the states a revision changed and refuses a
// timing change without new frames and a revision without a change.
func TestBaseline(t *testing.T) {
	baseline, _, _ := base(t)
	f := sampleFixture(t)
	img := f.frames["done"][1]
	for y := 40; y < 60; y++ {
		img.Pix[img.PixOffset(90, y)+1] ^= 0x20
	}
	revision := f.build(t)
	qa, rv := qaAndReview(t, revision, Options{Baseline: baseline})
	if got := toStrings(readReport(t, qa)["audited_states"]); strings.Join(got, ",") != "done" {
		t.Fatalf("audited %v; want [done]", got)
	}
	opt := VerifyOptions{Source: revision, Report: filepath.Join(qa, ReportName), Review: rv, Baseline: baseline}
	if ver, fails := VerifyProduction(opt); !ver.OK {
		t.Errorf("revision fails verify-production with its baseline:\n%s", failuresText(fails))
	} else if strings.Join(ver.Changed, ",") != "done" {
		t.Errorf("changed_states %v; want [done]", ver.Changed)
	}
	opt.Baseline = ""
	if _, fails := VerifyProduction(opt); !strings.Contains(failuresText(fails), RuleAuditCoverage) {
		t.Errorf("a one-state audit passed without --baseline:\n%s", failuresText(fails))
	}
	// The full audit of the same revision covers more than the change.
	qaAll, rvAll := qaAndReview(t, revision, Options{})
	_, fails := VerifyProduction(VerifyOptions{Source: revision, Report: filepath.Join(qaAll, ReportName), Review: rvAll, Baseline: baseline})
	if !strings.Contains(failuresText(fails), "exactly the changed states: [done]") {
		t.Errorf("a nine-state audit of a one-state revision passed:\n%s", failuresText(fails))
	}

	g := sampleFixture(t)
	g.timing["tool"] = `{"frame_durations_ms":[150,150,170,300],"playback":{"mode":"burst_then_idle","entry_repeat_count":3},"reduced_motion_frame_index":2}`
	retimed := g.build(t)
	for _, c := range []struct {
		name, src, rule, want string
	}{
		{"no change", baseline, RuleRevisionUnchanged, "changes no state"},
		{"timing without frames", retimed, RuleTimingWithoutFrames, "state tool changed its timing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(c.src, filepath.Join(t.TempDir(), "qa"), Options{Baseline: baseline})
			if err == nil || !strings.Contains(err.Error(), c.rule) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("qa --baseline: %v; want %s (%s)", err, c.rule, c.want)
			}
			_, qa, rv := base(t)
			_, fails := VerifyProduction(VerifyOptions{Source: c.src, Report: filepath.Join(qa, ReportName), Review: rv, Baseline: baseline})
			if !strings.Contains(failuresText(fails), c.rule) {
				t.Errorf("verify-production --baseline:\n%s\nwant %s", failuresText(fails), c.rule)
			}
		})
	}
}

func TestReview(t *testing.T) {
	_, qa, rv := base(t)
	all := map[string]string{}
	for k, v := range sampleNotes {
		all[k] = v
	}
	without := func(k string) map[string]string {
		m := map[string]string{}
		for a, n := range all {
			if a != k {
				m[a] = n
			}
		}
		return m
	}
	with := func(k, note string) map[string]string {
		m := without(k)
		m[k] = note
		return m
	}
	for _, c := range []struct {
		name  string
		notes map[string]string
		want  []string
	}{
		{"missing note", without("failed"), []string{"state failed", "review_note_missing"}},
		{"short note", with("tool", "  types  "), []string{"state tool", "5 characters"}},
		{"long note", with("idle", strings.Repeat("é", 501)), []string{"state idle", "501 characters"}},
		{"state not audited", with("sleep", "a note long enough"), []string{"sleep"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := BuildReview(qa, c.notes, nil)
			for _, w := range c.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v; want it to name %q", err, w)
				}
			}
		})
	}
	// A 500-character note of multi-byte characters is in range: the
	// bound counts characters, not bytes.
	if _, err := BuildReview(qa, with("idle", strings.Repeat("é", 500)), nil); err != nil {
		t.Error(err)
	}
	// Rebinding keeps the notes and takes the new report's hash.
	kept, err := ReviewNotes(rv)
	if err != nil {
		t.Fatal(err)
	}
	out := copyQA(t, qa)
	rp := filepath.Join(out, ReportName)
	data, _ := os.ReadFile(rp)
	os.WriteFile(rp, append(data, ' '), 0o644)
	rebound, err := BuildReview(out, nil, kept)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(rv)
	if bytes.Equal(rebound, old) || !bytes.Contains(rebound, []byte(sampleNotes["waiting"])) {
		t.Errorf("rebinding kept the old hash or lost a note:\n%s", rebound)
	}
}

// TestQAThroughSymlink audits an archive named by a symbolic link (how a
// Bazel sandbox presents inputs) and refuses a symlinked directory, as
// the validator does.
func TestQAThroughSymlink(t *testing.T) {
	src, qa, _ := base(t)
	link := filepath.Join(t.TempDir(), "linked.petpack")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "qa")
	if _, err := Run(link, out, Options{}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, qa, out)
	dirLink := filepath.Join(t.TempDir(), "linked-dir")
	if err := os.Symlink(unpack(t, src), dirLink); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(dirLink, filepath.Join(t.TempDir(), "qa"), Options{}); err == nil || !strings.Contains(err.Error(), "package_not_regular") {
		t.Errorf("a symlinked package directory gave %v; want package_not_regular", err)
	}
}

// TestReadmeSheetIsCurrent keeps the README's picture of the sample's
// keyframe sheet in step with what QA draws (compared as decoded pixels:
// PNG encoders of different Go releases may compress differently).
// After an intended change:
//
//	petasset petpack qa assets/petpack/pet_tabby.petpack.golden --out /tmp/qa
//	cp /tmp/qa/keyframes.png assets/petpack/pet_tabby_keyframes.png
func TestReadmeSheetIsCurrent(t *testing.T) {
	_, qa, _ := base(t)
	decode := func(p string) *image.NRGBA {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return ToNRGBA(img)
	}
	got, want := decode(filepath.Join(qa, KeyframesPNG)), decode("../../assets/petpack/pet_tabby_keyframes.png")
	if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
		t.Error("assets/petpack/pet_tabby_keyframes.png is not the sample's current keyframe sheet")
	}
}
