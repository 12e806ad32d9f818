package petpack

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says whether a finding rejects the package.
type Severity string

// The two severities.
const (
	// SeverityError rejects the package.
	SeverityError Severity = "error"
	// SeverityWarning is reported but leaves the package valid.
	SeverityWarning Severity = "warning"
)

// Finding is one broken rule: where in the package and why.
type Finding struct {
	// Rule is the stable identifier of the rule.
	Rule Rule `json:"rule"`
	// Severity is SeverityError or SeverityWarning.
	Severity Severity `json:"severity"`
	// Path is the slash-separated path inside the package the finding is
	// about (a directory without its trailing slash), or "" for the
	// container as a whole. A name that breaks a path rule is shown with
	// control bytes as ? and cut after 64 bytes.
	Path string `json:"path"`
	// Pointer is the RFC 6901 JSON pointer inside Path when Path is a JSON
	// document, "" otherwise.
	Pointer string `json:"pointer,omitempty"`
	// Msg says what is wrong, for a person.
	Msg string `json:"message"`
}

// String formats the finding as `PATH: RULE: POINTER message`, leaving
// out the parts that are empty, as in
// `source/source.json: schema_required: /states/3/frames_dir is required`.
// It is also the line build/validation.json records a warning as.
func (f Finding) String() string {
	var b strings.Builder
	if f.Path != "" {
		b.WriteString(f.Path + ": ")
	}
	b.WriteString(string(f.Rule) + ": ")
	if f.Pointer != "" {
		b.WriteString(f.Pointer + " ")
	}
	b.WriteString(f.Msg)
	return b.String()
}

// Verdict is the outcome of validating a package: every error and warning
// found, each list in the order of section 8 (stage by stage, and within a
// stage in the order the checks ran), and the manifest when it decoded
// without error.
type Verdict struct {
	// Errors are the findings that reject the package.
	Errors []Finding `json:"errors"`
	// Warnings are the findings that leave it valid.
	Warnings []Finding `json:"warnings"`
	// Manifest is the decoded manifest.json when stages 1 to 3 passed and
	// the manifest itself broke no rule, nil otherwise. It may be set on a
	// verdict that still has errors elsewhere (layout, media).
	Manifest *Manifest `json:"-"`
}

// OK reports whether the package is valid: no errors, whatever the
// warnings.
func (v *Verdict) OK() bool { return len(v.Errors) == 0 }

// Err returns nil for a valid package and an *Error holding every error
// finding otherwise.
func (v *Verdict) Err() error {
	if v.OK() {
		return nil
	}
	return &Error{Findings: v.Errors}
}

// Error is a rejected package: its error findings, in verdict order.
type Error struct {
	// Findings holds at least one finding, all of SeverityError.
	Findings []Finding
}

// Error formats the first finding and says how many more there are.
func (e *Error) Error() string {
	if len(e.Findings) == 0 {
		return "petpack: rejected"
	}
	s := e.Findings[0].String()
	if n := len(e.Findings) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// checker collects findings while the stages run.
type checker struct {
	findings []Finding
	errors   map[Stage]int
}

func newChecker() *checker { return &checker{errors: make(map[Stage]int)} }

// fail records an error finding. Rules are compile-time constants, so an
// unknown one is a bug in this package, not in the input.
func (c *checker) fail(rule Rule, path, pointer, format string, args ...interface{}) {
	st := rule.Stage()
	if st == 0 || rule.IsWarning() {
		panic("petpack: " + string(rule) + " is not an error rule")
	}
	c.errors[st]++
	c.findings = append(c.findings, Finding{Rule: rule, Severity: SeverityError, Path: path, Pointer: pointer, Msg: fmt.Sprintf(format, args...)})
}

// warn records a warning finding.
func (c *checker) warn(rule Rule, path, pointer, format string, args ...interface{}) {
	if !rule.IsWarning() {
		panic("petpack: " + string(rule) + " is not a warning rule")
	}
	c.findings = append(c.findings, Finding{Rule: rule, Severity: SeverityWarning, Path: path, Pointer: pointer, Msg: fmt.Sprintf(format, args...)})
}

// failed reports whether any error of the stage has been recorded.
func (c *checker) failed(st Stage) bool { return c.errors[st] > 0 }

// count is the number of errors recorded so far, to tell whether a step
// added any.
func (c *checker) count() int { return len(c.findings) }

// errorsSince reports whether an error was recorded after mark.
func (c *checker) errorsSince(mark int) bool {
	for _, f := range c.findings[mark:] {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// verdict sorts the findings by stage only, so that within a stage they stay
// in the order the checks found them (entry by entry, field by field).
func (c *checker) verdict(m *Manifest) *Verdict {
	fs := append([]Finding(nil), c.findings...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Rule.Stage() < fs[j].Rule.Stage() })
	v := &Verdict{Errors: []Finding{}, Warnings: []Finding{}, Manifest: m}
	for _, f := range fs {
		if f.Severity == SeverityError {
			v.Errors = append(v.Errors, f)
		} else {
			v.Warnings = append(v.Warnings, f)
		}
	}
	return v
}
