// Package manifest reads the project's line-oriented manifests.
//
// It has two layers. The common grammar (this file) knows lines, the header,
// section headers, comments, blank lines and directives, and the byte rules
// every manifest kind shares; it knows nothing about any one kind. A schema
// (pet.go holds `manifest pet 1`) receives the header, sections and
// directives in file order through the Schema interface, so the first rule
// the text breaks is the one reported, whichever layer owns it. A future
// `manifest ui 1` kind is another Schema over the same Scan.
package manifest

import (
	"bytes"
	"fmt"
	"strconv"
)

// Rule is the stable identifier of one rule a manifest can break. The
// identifiers are part of the tools' interface (`FILE:LINE: RULE: message`)
// and never change meaning.
type Rule string

// Rules of the common grammar (manifest contract section 4) and the limits it
// is parameterised by (section 8).
const (
	// RuleFileTooLarge: the file is over 16 KiB (16384 bytes); the line is the
	// one that crosses the limit.
	RuleFileTooLarge Rule = "file_too_large"
	// RuleLineTooLong: a line is over 384 bytes, not counting its LF or CR LF
	// terminator.
	RuleLineTooLong Rule = "line_too_long"
	// RuleInvalidByte: a tab, NUL, another control byte, or a byte >= 0x7F.
	RuleInvalidByte Rule = "invalid_byte"
	// RuleStrayCarriageReturn: a CR that is not directly before an LF.
	RuleStrayCarriageReturn Rule = "stray_carriage_return"
	// RuleHeaderMissing: the first line that is not blank or a comment is not
	// `manifest ...` (or there is none).
	RuleHeaderMissing Rule = "header_missing"
	// RuleHeaderMalformed: the header is not exactly `manifest <kind> <decimal
	// version>`.
	RuleHeaderMalformed Rule = "header_malformed"
	// RuleUnsupportedKind: the kind is not `pet`.
	RuleUnsupportedKind Rule = "unsupported_kind"
	// RuleUnsupportedVersion: the version is not 1 (was `unsupported_version`,
	// which is the PETP format version's rule).
	RuleUnsupportedVersion Rule = "unsupported_manifest_version"
	// RuleSectionHeaderMalformed: a `[` line is not one `[name]` alone.
	RuleSectionHeaderMalformed Rule = "section_header_malformed"
	// RuleDirectiveOutsideSection: a directive before the first section
	// header.
	RuleDirectiveOutsideSection Rule = "directive_outside_section"
)

// Error is a rejected manifest: the first rule the text breaks, the 1-based
// line it breaks it on, and a human message. For a rule about the whole file
// (a required section missing at the end) Line is the file's last line.
type Error struct {
	Line int
	Rule Rule
	Msg  string
}

// Error formats the rejection as `LINE: RULE: message`; callers prefix the
// file name to get the tools' `FILE:LINE: RULE: message`.
func (e *Error) Error() string {
	return fmt.Sprintf("%d: %s: %s", e.Line, e.Rule, e.Msg)
}

func errorf(line int, rule Rule, format string, args ...interface{}) *Error {
	return &Error{Line: line, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// Limits bounds the work Scan does before a schema sees anything. They are
// checked on the raw bytes so a hostile file costs at most MaxFileBytes.
type Limits struct {
	// MaxFileBytes is the largest accepted file, in bytes.
	MaxFileBytes int
	// MaxLineBytes is the longest accepted line, counted without its
	// terminator (LF, or CR LF).
	MaxLineBytes int
}

// Schema receives a manifest's structure in file order. Each method returns
// nil to go on or an *Error (built with the line it is given) to stop. The
// fields slices are valid only during the call.
type Schema interface {
	// Header is called once with the header's kind and version.
	Header(line int, kind string, version uint64) *Error
	// Section is called for each section header with the name between the
	// brackets.
	Section(line int, name string) *Error
	// Directive is called for each directive line inside a section, with
	// the line split at runs of spaces.
	Directive(line int, fields []string) *Error
	// End is called after the last line; lastLine is the number of lines.
	End(lastLine int) *Error
}

// Scan checks data against the common grammar and feeds it to s. It returns
// the first error either layer finds, or nil when the whole text is
// accepted.
func Scan(data []byte, lim Limits, s Schema) error {
	if len(data) > lim.MaxFileBytes {
		line := 1 + bytes.Count(data[:lim.MaxFileBytes], []byte{'\n'})
		// No byte count: a bounded reader hands over only the first
		// MaxFileBytes+1 bytes, so len(data) may understate the file.
		return errorf(line, RuleFileTooLarge, "file is larger than the %d-byte limit", lim.MaxFileBytes)
	}
	var (
		lineNo     int
		seenHeader bool
		inSection  bool
		fields     = make([]string, 0, 40)
	)
	for rest := data; len(rest) > 0; {
		lineNo++
		var line []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
		} else {
			line, rest = rest, nil
		}
		if err := checkBytes(lineNo, line, lim.MaxLineBytes); err != nil {
			return err
		}
		fields = splitFields(fields[:0], line)
		if len(fields) == 0 || fields[0][0] == '#' {
			continue // blank line or full-line comment
		}
		if !seenHeader {
			if err := scanHeader(lineNo, fields, s); err != nil {
				return err
			}
			seenHeader = true
			continue
		}
		if fields[0][0] == '[' {
			name, ok := sectionName(fields)
			if !ok {
				return errorf(lineNo, RuleSectionHeaderMalformed, "a section header is one [name] alone on its line")
			}
			if err := s.Section(lineNo, name); err != nil {
				return err
			}
			inSection = true
			continue
		}
		if !inSection {
			return errorf(lineNo, RuleDirectiveOutsideSection, "directive %q before the first section header", fields[0])
		}
		if err := s.Directive(lineNo, fields); err != nil {
			return err
		}
	}
	if !seenHeader {
		if lineNo == 0 {
			lineNo = 1
		}
		return errorf(lineNo, RuleHeaderMissing, "no `manifest <kind> <version>` header line")
	}
	if err := s.End(lineNo); err != nil {
		return err
	}
	return nil
}

// checkBytes applies the byte rules of section 4.1 to one line without its
// terminator: printable ASCII only, a CR only directly before the LF.
func checkBytes(lineNo int, line []byte, maxLine int) *Error {
	if len(line) > maxLine {
		return errorf(lineNo, RuleLineTooLong, "line is %d bytes, more than the %d-byte limit", len(line), maxLine)
	}
	for i, b := range line {
		switch {
		case b == '\r':
			return errorf(lineNo, RuleStrayCarriageReturn, "carriage return at column %d is not part of a CR LF terminator", i+1)
		case b < 0x20 || b > 0x7e:
			return errorf(lineNo, RuleInvalidByte, "byte 0x%02x at column %d; only printable ASCII and the space separator are allowed", b, i+1)
		}
	}
	return nil
}

// splitFields splits at runs of spaces, the only separator. It appends to dst
// so a scan allocates its field slice once.
func splitFields(dst []string, line []byte) []string {
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		dst = append(dst, string(line[i:j]))
		i = j
	}
	return dst
}

func scanHeader(lineNo int, fields []string, s Schema) *Error {
	if fields[0] != "manifest" {
		return errorf(lineNo, RuleHeaderMissing, "the first line that is not blank or a comment must be `manifest <kind> <version>`")
	}
	if len(fields) != 3 {
		return errorf(lineNo, RuleHeaderMalformed, "the header is exactly `manifest <kind> <version>`, got %d fields", len(fields))
	}
	if rule, why := CheckIdentifier(fields[1]); rule != "" && rule != RuleReservedIdentifier {
		return errorf(lineNo, RuleHeaderMalformed, "kind: %s", why)
	}
	version, ok := parseDecimal(fields[2])
	if !ok {
		return errorf(lineNo, RuleHeaderMalformed, "version %q is not a decimal unsigned integer", fields[2])
	}
	return s.Header(lineNo, fields[1], version)
}

// sectionName returns the name of a `[name]` header line.
func sectionName(fields []string) (string, bool) {
	f := fields[0]
	if len(fields) != 1 || len(f) < 3 || f[len(f)-1] != ']' {
		return "", false
	}
	name := f[1 : len(f)-1]
	if bytes.ContainsAny([]byte(name), "[]") {
		return "", false
	}
	return name, true
}

// parseDecimal accepts ASCII digits only (no sign, no spaces) and reports
// false on overflow.
func parseDecimal(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// MaxIdentifierBytes is the longest identifier of manifest contract section 6.
const MaxIdentifierBytes = 31

// Identifier rules of manifest contract section 6, shared by every kind.
const (
	// RuleInvalidIdentifier: an identifier not of lowercase letters, digits,
	// `_`, starting with a letter.
	RuleInvalidIdentifier Rule = "invalid_identifier"
	// RuleIdentifierTooLong: an identifier over 31 bytes.
	RuleIdentifierTooLong Rule = "identifier_too_long"
	// RuleReservedIdentifier: `manifest`, `images`, `animations`, `roles` or
	// `fallback` used as an identifier.
	RuleReservedIdentifier Rule = "reserved_identifier"
)

// reserved are the structural keywords of the grammar (section 6).
var reserved = [...]string{"manifest", "images", "animations", "roles", "fallback"}

// CheckIdentifier applies section 6 to s: a lowercase ASCII letter first,
// then lowercase letters, digits and underscores, at most 31 bytes, and not a
// reserved word. It returns the broken rule and why, or "" when s is valid.
func CheckIdentifier(s string) (Rule, string) {
	switch {
	case s == "":
		return RuleInvalidIdentifier, "empty identifier"
	case len(s) > MaxIdentifierBytes:
		return RuleIdentifierTooLong, fmt.Sprintf("identifier %.40q is %d bytes, more than %d", s, len(s), MaxIdentifierBytes)
	case s[0] < 'a' || s[0] > 'z':
		return RuleInvalidIdentifier, fmt.Sprintf("identifier %q must start with a lowercase ASCII letter", s)
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return RuleInvalidIdentifier, fmt.Sprintf("identifier %q: %q is not a lowercase letter, digit or underscore", s, c)
		}
	}
	for _, w := range reserved {
		if s == w {
			return RuleReservedIdentifier, fmt.Sprintf("%q is a reserved word of the grammar", s)
		}
	}
	return "", ""
}
