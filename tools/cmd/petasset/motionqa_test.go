package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sampleGolden is the checked-in sample pet archive, read by path.
const sampleGolden = "../../../assets/petpack/pet_tabby.petpack.golden"

var sampleStateNotes = []string{
	"idle=breathes slowly, blinks once, tail tip sways",
	"thinking=paw to chin while thought bubbles grow",
	"tool=types on a keyboard with both paws",
	"waiting=looks around, then settles with a flat tail",
	"done=smiles and bounces with sparkles around",
	"failed=startles, ears droop and a sweat drop falls",
	"acknowledge=closes its eyes, smiles and returns to idle",
	"drag_left=dangles leaning left with paws tucked",
	"drag_right=dangles leaning right with paws tucked",
}

func noteArgs(notes []string) []string {
	var args []string
	for _, n := range notes {
		args = append(args, "--state-note", n)
	}
	return args
}

func TestMotionQACLI(t *testing.T) {
	dir := t.TempDir()
	qa := filepath.Join(dir, "qa")
	review := filepath.Join(dir, "review.json")
	if code, out, errs := runCLI("petpack", "qa", sampleGolden, "--out", qa); code != exitOK || !strings.Contains(out, "9 states audited") {
		t.Fatalf("qa: %d %q %q", code, out, errs)
	}
	code, _, errs := runCLI(append([]string{"petpack", "review", qa, "--out", review}, noteArgs(sampleStateNotes[1:])...)...)
	if code != exitRejected || !strings.Contains(errs, "state idle") {
		t.Errorf("review without idle's note: %d %q", code, errs)
	}
	if _, err := os.Stat(review); !os.IsNotExist(err) {
		t.Error("a refused review left a file")
	}
	if code, out, errs := runCLI(append([]string{"petpack", "review", qa, "--out", review}, noteArgs(sampleStateNotes)...)...); code != exitOK {
		t.Fatalf("review: %d %q %q", code, out, errs)
	}
	verify := []string{"petpack", "verify-production", "--source", sampleGolden, "--report", filepath.Join(qa, "report.json"), "--review", review}
	code, out, errs := runCLI(verify...)
	var doc map[string]interface{}
	if code != exitOK || json.Unmarshal([]byte(out), &doc) != nil || doc["ok"] != true || doc["schema_version"] != "apc.pet-visual-production-verification.v1" {
		t.Fatalf("verify-production of the sample: %d\n%s\n%s", code, out, errs)
	}

	// A report changed after review: exit 1, ok false, one FILE: RULE line.
	rp := filepath.Join(qa, "report.json")
	data, _ := os.ReadFile(rp)
	os.WriteFile(rp, append(data, '\n'), 0o644)
	code, out, errs = runCLI(verify...)
	doc = nil
	if code != exitRejected || json.Unmarshal([]byte(out), &doc) != nil || doc["ok"] != false {
		t.Errorf("verify-production of a stale review: %d\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^.*review\.json: review_stale: report_sha256 `).MatchString(errs) {
		t.Errorf("stderr %q lacks the FILE: RULE: message line", errs)
	}
	// Rebinding keeps the notes and passes again.
	if code, _, errs := runCLI("petpack", "review", qa, "--keep-notes", review, "--out", review); code != exitOK {
		t.Fatalf("rebind: %d %q", code, errs)
	}
	if code, out, errs := runCLI(verify...); code != exitOK {
		t.Errorf("verify-production after rebinding: %d\n%s\n%s", code, out, errs)
	}

	for _, args := range [][]string{
		{"petpack", "verify-production", "--source", sampleGolden, "--report", rp},
		{"petpack", "qa", sampleGolden},
		{"petpack", "qa", sampleGolden, "--out", qa, "--state", "idle", "--baseline", sampleGolden},
		{"petpack", "review", qa, "--out", review, "--state-note", "idle"},
	} {
		if code, _, _ := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
