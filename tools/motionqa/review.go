package motionqa

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Review note bounds, in characters (Unicode code points) after trimming.
const (
	MinNoteChars = 12
	MaxNoteChars = 500
)

// CheckNote reports whether a note's length is in range.
func CheckNote(state, note string) error {
	n := utf8.RuneCountInString(note)
	if n < MinNoteChars || n > MaxNoteChars {
		return fmt.Errorf("review note for state %s is %d characters; it must be %d to %d", state, n, MinNoteChars, MaxNoteChars)
	}
	return nil
}

// BuildReview writes the apc.pet-motion-review.v1 document approving the
// report in qaDir: notes must hold one note for every audited state and
// none for another. Notes are trimmed; keep supplies notes for states that
// notes lacks (the notes of an earlier review being rebound).
func BuildReview(qaDir string, notes, keep map[string]string) ([]byte, error) {
	reportPath := filepath.Join(qaDir, ReportName)
	data, err := readEvidence(reportPath, MaxEvidenceJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", reportPath, err)
	}
	return reviewOf(reportPath, data, notes, keep)
}

// reviewOf is BuildReview of report bytes read from reportPath.
func reviewOf(reportPath string, data []byte, notes, keep map[string]string) ([]byte, error) {
	report, err := decodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: evidence_malformed: %v", reportPath, err)
	}
	if v, _ := str(report["schema_version"]); v != ReportSchema {
		return nil, fmt.Errorf("%s: report_schema: schema_version is not %s", reportPath, ReportSchema)
	}
	audited, err := auditedStates(report)
	if err != nil {
		return nil, fmt.Errorf("%s: audited_states_invalid: %v", reportPath, err)
	}
	merged := map[string]string{}
	for k, v := range keep {
		merged[k] = strings.TrimSpace(v)
	}
	for k, v := range notes {
		merged[k] = strings.TrimSpace(v)
	}
	isAudited := map[string]bool{}
	for _, a := range audited {
		isAudited[a] = true
	}
	for k := range notes {
		if !isAudited[k] {
			return nil, fmt.Errorf("--state-note %s: the report does not audit state %s", k, k)
		}
	}
	sum := sha256.Sum256(data)
	fsd, _ := str(report["frame_set_digest"])
	states := obj{}
	reportStates := objOf(report["states"])
	for _, a := range audited {
		note, ok := merged[a]
		if !ok {
			return nil, fmt.Errorf("state %s: review_note_missing: the report audits %s and no --state-note %s=NOTE was given", a, a, a)
		}
		if err := CheckNote(a, note); err != nil {
			return nil, fmt.Errorf("state %s: review_note_invalid: %v", a, err)
		}
		rs := objOf(reportStates[a])
		var profiles []string
		for k := range objOf(rs["previews"]) {
			profiles = append(profiles, k)
		}
		sort.Strings(profiles)
		if profiles == nil {
			profiles = []string{}
		}
		codes := []string{}
		if ws, ok := rs["warnings"].([]interface{}); ok {
			for _, w := range ws {
				if c, ok := str(objOf(w)["code"]); ok {
					codes = append(codes, c)
				}
			}
		}
		states = append(states, kv{a, obj{
			{"status", "approved"},
			{"note", note},
			{"reviewed_profiles", profiles},
			{"warning_codes", codes},
		}})
	}
	return encodeDoc(obj{
		{"schema_version", ReviewSchema},
		{"report_sha256", hex.EncodeToString(sum[:])},
		{"frame_set_digest", fsd},
		{"audited_states", audited},
		{"status", "approved"},
		{"states", states},
	})
}

// ReviewNotes returns the per-state notes of a review file, for rebinding
// it to a new report.
func ReviewNotes(path string) (map[string]string, error) {
	data, err := readEvidence(path, MaxEvidenceJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	doc, err := decodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: evidence_malformed: %v", path, err)
	}
	out := map[string]string{}
	for k, v := range objOf(doc["states"]) {
		if n, ok := str(objOf(v)["note"]); ok {
			out[k] = n
		}
	}
	return out, nil
}

// auditedStates reads audited_states: a non-empty list of distinct action
// names.
func auditedStates(doc map[string]interface{}) ([]string, error) {
	list, ok := doc["audited_states"].([]interface{})
	if !ok {
		return nil, fmt.Errorf("audited_states is missing or not a list")
	}
	known := map[string]bool{}
	for _, a := range petpack.Actions() {
		known[string(a)] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, v := range list {
		s, ok := str(v)
		if !ok || !known[s] || seen[s] {
			return nil, fmt.Errorf("audited_states holds %v, not a distinct action name", v)
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("audited_states is empty")
	}
	return out, nil
}
