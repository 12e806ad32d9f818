package petpack

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The package paths of the metadata documents.
const (
	sourcePath     = "source/source.json"
	briefPath      = "brief.json"
	sessionPath    = "source/skill_session.jsonl"
	validationPath = "build/validation.json"
	promptPath     = "source/prompt.md"
	referencesDir  = "source/references"
)

// pathProblems returns the path rules of sections 3 and 11 that name (a
// slash-separated entry name without a directory's trailing slash) breaks,
// each once, in rule-table order, with a message. Go 1.19 has neither
// filepath.IsLocal nor zip.ErrInsecurePath, and both would be too lenient
// for a file set that is extracted on macOS and Windows as well, so every
// rule is checked here.
func pathProblems(name string) []pathProblem {
	if name == "" {
		return []pathProblem{{RulePathEmpty, "the entry has an empty name"}}
	}
	var out []pathProblem
	add := func(rule Rule, msg string) {
		for _, p := range out {
			if p.rule == rule {
				return
			}
		}
		out = append(out, pathProblem{rule, msg})
	}
	if len(name) > MaxPathBytes {
		add(RulePathTooLong, "the name is over "+strconv.Itoa(MaxPathBytes)+" bytes")
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == 0:
			add(RulePathNUL, "the name holds a NUL byte")
		case c < 0x20 || c == 0x7f:
			add(RulePathControlByte, "the name holds a control byte")
		case c == '\\':
			add(RulePathBackslash, "the name holds a backslash; the separator is /")
		}
	}
	if name[0] == '/' {
		add(RulePathAbsolute, "the name starts at the root")
	}
	drive := len(name) >= 2 && isASCIILetter(name[0]) && name[1] == ':'
	if drive {
		add(RulePathDrivePrefix, "the name starts with the drive prefix "+name[:2])
	}
	segs := strings.Split(name, "/")
	for i, seg := range segs {
		switch {
		case seg == "":
			if i > 0 || name[0] != '/' { // a leading "" is the absolute root
				add(RulePathEmptySegment, "the name holds an empty segment (//, or a trailing / on a file)")
			}
			continue
		case seg == "..":
			add(RulePathDotDot, "the name holds a .. segment")
			continue
		case seg == ".":
			add(RulePathDotSegment, "the name holds a . segment")
			continue
		}
		if isDeviceName(seg) {
			add(RulePathDeviceName, "segment "+quoteShort(seg)+" is a Windows device name")
		}
		if why := unportable(seg, i == 0 && drive); why != "" {
			add(RulePathNotPortable, "segment "+quoteShort(seg)+" "+why)
		}
	}
	return out
}

type pathProblem struct {
	rule Rule
	msg  string
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// deviceNames are the names Windows resolves to devices in any directory
// and with any extension; COM and LPT also take the superscript digits.
// Stricter than the contract, which is silent on them: extracting a
// package that names one would open a device, not a file (README, contract
// notes).
var deviceNames = func() map[string]bool {
	m := map[string]bool{"con": true, "prn": true, "aux": true, "nul": true, "conin$": true, "conout$": true}
	for _, d := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"} {
		m["com"+d], m["lpt"+d] = true, true
	}
	return m
}()

// isDeviceName reports whether Windows would open a device for seg: the
// part before the first dot, without trailing spaces, is a device name in
// any case ("nul", "NUL.txt", "com1 .png").
func isDeviceName(seg string) bool {
	stem := seg
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	stem = strings.TrimRight(stem, " ")
	return deviceNames[strings.ToLower(stem)]
}

// unportable says why seg cannot be written with the same identity on the
// file systems packages are extracted to, or "" when it can: Windows
// reserves <>:"|?* and strips a trailing dot or space (so "a." is "a");
// macOS stores names decomposed, so a combining mark makes two spellings of
// one name, which case folding alone cannot see; and names must be UTF-8
// to be compared at all.
func unportable(seg string, drive bool) string {
	if !utf8.ValidString(seg) {
		return "is not valid UTF-8"
	}
	for i, r := range seg {
		if strings.ContainsRune(`<>:"|?*`, r) && !(drive && i == 1) {
			return "holds " + string(r) + ", which Windows reserves"
		}
		if unicode.Is(unicode.Mn, r) {
			return "holds a combining mark; write the composed character"
		}
	}
	if last := seg[len(seg)-1]; last == '.' || last == ' ' {
		return "ends in a dot or space, which Windows strips"
	}
	return ""
}

// foldKey maps s to a key shared by exactly the strings strings.EqualFold
// considers equal: each rune becomes the smallest rune of its simple case
// folding orbit (so K, k and the Kelvin sign share one key).
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < least {
				least = f
			}
		}
		b.WriteRune(least)
	}
	return b.String()
}

func quoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return "\"" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s) + "\""
}
