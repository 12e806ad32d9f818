package petpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The metadata documents of section 7 that the privacy check reads. The
// JSONL file is checked record by record, each record its own document.
var privacyDocuments = []string{
	"brief.json",
	"source/source.json",
	"source/skill_session.jsonl",
	"build/validation.json",
}

// privacyKey matches object keys that name what section 7 forbids; keys are
// compared lower-cased with '-' read as '_'.
var privacyKeys = []struct {
	rule Rule
	re   *regexp.Regexp
}{
	{RulePrivacyCredential, regexp.MustCompile(`(^|_)(password|passwd|secret|token|api_?key|access_?key|private_?key|client_secret|authorization|auth_header|cookies?|credentials?|bearer)$`)},
	{RulePrivacyAgentIdentifier, regexp.MustCompile(`(^|_)(thread|session|turn|job|tool_call|call|connector|conversation|runtime|command_source)_?id$`)},
	{RulePrivacyCommandLine, regexp.MustCompile(`^(command|command_line|cmdline|cmd|argv|shell|tool_input|tool_output|transcript|reasoning|system_prompt)$`)},
	{RulePrivacyEnvironment, regexp.MustCompile(`^(env|environ|environment|env_vars)$`)},
}

// privacyValues match string values, wherever they stand.
var privacyValues = []struct {
	rule Rule
	re   *regexp.Regexp
}{
	{RulePrivacyCredential, regexp.MustCompile(`(?i)\bbearer\s+[a-z0-9._~+/-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----|\b(sk|rk)-[A-Za-z0-9_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bAKIA[0-9A-Z]{16}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}\b|\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.`)},
	{RulePrivacyFileURL, regexp.MustCompile(`(?i)\bfile:/`)},
	{RulePrivacyAbsolutePath, regexp.MustCompile(`^(/(Users|home|root|tmp|var|etc|opt|private|Volumes|mnt|usr|srv|proc)(/|$)|~[A-Za-z0-9_.-]*(/|$)|[A-Za-z]:[\\/]|\\\\[^\\]+\\|\$HOME\b|%USERPROFILE%)|(^|[\s"'=(])(/(Users|home|root)/[^\s]+|[A-Za-z]:\\[^\s]+)`)},
	{RulePrivacyAgentIdentifier, regexp.MustCompile(`\b(call|toolu|thread|run|resp|chatcmpl|sess)_[A-Za-z0-9]{12,}\b|\bchatcmpl-[A-Za-z0-9]{10,}`)},
	{RulePrivacyCommandLine, regexp.MustCompile(`(^|\n)\s*[$#] [a-z]|\b(sudo|bash -c|sh -c|rm -rf|curl [^\s]*https?://|chmod \+x)\b|[a-z0-9] (&&|\|\|) [a-z]`)},
	{RulePrivacyEnvironment, regexp.MustCompile(`(^|\s)(PATH|HOME|USER|SHELL|PWD|LANG|TERM)=[^\s]*`)},
}

// privacyFinding is one forbidden key or value and where it stands.
type privacyFinding struct {
	rule    Rule
	pointer string
	what    string
}

// scanPrivacy walks one JSON document and returns every key and string
// value section 7 forbids, in document order. It reads the document as
// tokens, so its cost is linear and no map order reaches the result.
func scanPrivacy(doc []byte) ([]privacyFinding, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []privacyFinding
	var walk func(ptr string) error
	walk = func(ptr string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return err
					}
					key := kt.(string)
					child := ptr + "/" + escapePointer(key)
					norm := strings.ReplaceAll(strings.ToLower(key), "-", "_")
					for _, k := range privacyKeys {
						if k.re.MatchString(norm) {
							out = append(out, privacyFinding{k.rule, child, "key " + strconv.Quote(key)})
							break
						}
					}
					if err := walk(child); err != nil {
						return err
					}
				}
			case '[':
				for i := 0; dec.More(); i++ {
					if err := walk(ptr + "/" + strconv.Itoa(i)); err != nil {
						return err
					}
				}
			}
			_, err := dec.Token() // the closing delimiter
			return err
		case string:
			for _, v := range privacyValues {
				if v.re.MatchString(t) {
					out = append(out, privacyFinding{v.rule, ptr, describeValue(v.rule, t)})
					break
				}
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return out, nil
}

// escapePointer escapes a key for an RFC 6901 JSON pointer.
func escapePointer(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// describeValue names a forbidden value for the message without repeating
// a secret into a build log.
func describeValue(rule Rule, s string) string {
	if rule == RulePrivacyCredential {
		return "a " + strconv.Itoa(len(s)) + "-byte value"
	}
	return "value " + quoteShort(s)
}

// checkPrivacy applies the recursive privacy check of section 7 to every
// metadata document present; a missing or malformed one is the layout's and
// the schemas' to report.
func checkPrivacy(c *checker, fs *fileSet) {
	var names []string
	names = append(names, privacyDocuments...)
	sort.Strings(names)
	for _, name := range names {
		data := readSmallFile(fs, name)
		if data == nil {
			continue
		}
		docs := [][]byte{data}
		if strings.HasSuffix(name, ".jsonl") {
			docs = bytes.Split(data, []byte("\n"))
		}
		for i, doc := range docs {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			where := name
			if len(docs) > 1 || strings.HasSuffix(name, ".jsonl") {
				where = name + ":" + strconv.Itoa(i+1)
			}
			found, err := scanPrivacy(doc)
			if err != nil {
				continue
			}
			for _, f := range found {
				c.fail(f.rule, where, f.pointer, "%s: %s", f.what, privacyMessage[f.rule])
			}
		}
	}
}

var privacyMessage = map[Rule]string{
	RulePrivacyCredential:      "portable metadata must not carry credentials, tokens, cookies, keys or secrets",
	RulePrivacyAbsolutePath:    "portable metadata must not carry absolute, home or host paths",
	RulePrivacyFileURL:         "portable metadata must not carry file URLs",
	RulePrivacyAgentIdentifier: "portable metadata must not carry agent thread, session, turn, job or tool-call identifiers",
	RulePrivacyCommandLine:     "portable metadata must not carry command lines, tool input or output, transcripts or prompts",
	RulePrivacyEnvironment:     "portable metadata must not carry environment dumps",
}

// readSmallFile returns the bytes of a regular file of the set, at most
// MaxManifestBytes of them, or nil when it is absent, a directory, larger,
// or unreadable.
func readSmallFile(fs *fileSet, name string) []byte {
	n := fs.lookup(name)
	if n == nil || n.dir || n.e.size > MaxManifestBytes {
		return nil
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		return nil
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
	if err != nil || len(data) > MaxManifestBytes {
		return nil
	}
	return data
}
