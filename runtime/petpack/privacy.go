package petpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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

// The bounds of the authors' privacy walk: a document of more values than
// this, or nested deeper, is refused before it is read further.
const (
	maxPrivacyNodes = 65536
	maxPrivacyDepth = 64
)

// privacyFinding is one forbidden key or value and where it stands.
type privacyFinding struct {
	rule    Rule
	pointer string
	what    string
}

// chatRoles are the role values of a chat message object.
var chatRoles = map[string]bool{"user": true, "assistant": true, "system": true, "developer": true, "tool": true, "human": true}

// scanPrivacy walks one JSON document and returns every key and string
// value section 7 forbids, in document order: each key through
// forbiddenKey, each string value (and each key, for the shapes of a
// secret) through every detector of privacyDetectors, and each object
// shaped like a chat message (a role of chatRoles beside content or
// text). It reads the document as tokens, so its cost is linear and no
// map order reaches the result; past maxPrivacyNodes values or
// maxPrivacyDepth levels it stops with privacy_document_too_complex.
func scanPrivacy(doc []byte) ([]privacyFinding, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []privacyFinding
	nodes := 0
	errBound := errors.New("bound")
	var walk func(ptr string, depth int) (string, bool, error)
	walk = func(ptr string, depth int) (string, bool, error) {
		nodes++
		if nodes > maxPrivacyNodes {
			out = append(out, privacyFinding{RulePrivacyTooComplex, "", "more than " + strconv.Itoa(maxPrivacyNodes) + " values"})
			return "", false, errBound
		}
		if depth > maxPrivacyDepth {
			out = append(out, privacyFinding{RulePrivacyTooComplex, ptr, "nested deeper than " + strconv.Itoa(maxPrivacyDepth) + " levels"})
			return "", false, errBound
		}
		tok, err := dec.Token()
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				role, content := false, false
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return "", false, err
					}
					key := kt.(string)
					child := ptr + "/" + escapePointer(key)
					out = append(out, keyFindings(ptr, child, key)...)
					v, isStr, err := walk(child, depth+1)
					if err != nil {
						return "", false, err
					}
					switch key {
					case "role":
						role = role || isStr && chatRoles[strings.ToLower(v)]
					case "content", "text", "parts":
						content = true
					}
				}
				if role && content {
					out = append(out, privacyFinding{RulePrivacyCommandLine, ptr, "an object shaped like a chat message (role and content)"})
				}
			case '[':
				for i := 0; dec.More(); i++ {
					if _, _, err := walk(ptr+"/"+strconv.Itoa(i), depth+1); err != nil {
						return "", false, err
					}
				}
			}
			_, err := dec.Token() // the closing delimiter
			return "", false, err
		case string:
			out = append(out, valueFindings(ptr, t)...)
			return t, true, nil
		}
		return "", false, nil
	}
	if _, _, err := walk("", 0); err != nil {
		if err == errBound {
			return out, nil
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return out, nil
}

// keyFindings reports a key that names what section 7 forbids, at the
// member's pointer, and a key that itself holds a credential at its
// object's pointer with nothing of the key in the message.
func keyFindings(parent, child, key string) []privacyFinding {
	var out []privacyFinding
	if r, label, ok := detectCredential(key); ok {
		return append(out, privacyFinding{r, parent, "a key holding " + describeLeak(label, key)})
	}
	if r, name, ok := forbiddenKey(key); ok {
		out = append(out, privacyFinding{r, child, "a key naming " + strconv.Quote(name)})
	}
	return out
}

// valueFindings runs every detector over a string value, one finding per
// rule that fires.
func valueFindings(ptr, v string) []privacyFinding {
	var out []privacyFinding
	for _, d := range privacyDetectors {
		if r, label, ok := d.detect(v); ok {
			out = append(out, privacyFinding{r, ptr, describeLeak(label, v)})
		}
	}
	return out
}

// describeLeak names what a detector found without repeating any of the
// value: a secret must not reach a build log, and neither may a user's
// path or conversation.
func describeLeak(label, v string) string {
	return label + " in a " + strconv.Itoa(len(v)) + "-byte string"
}

// escapePointer escapes a key for an RFC 6901 JSON pointer.
func escapePointer(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
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
	RulePrivacyTooComplex:      "the privacy check reads at most 65,536 values nested at most 64 deep",
	RulePrivacyCredential:      "portable metadata must not carry credentials, tokens, cookies, API keys, authorization headers or secrets",
	RulePrivacyAbsolutePath:    "portable metadata must not carry absolute, home or host-configuration paths",
	RulePrivacyFileURL:         "portable metadata must not carry file URLs",
	RulePrivacyExternalLocator: "portable metadata must not carry external locators",
	RulePrivacyAgentIdentifier: "portable metadata must not carry agent thread, session, turn, job, command-source, tool-call, connector or runtime identifiers",
	RulePrivacyCommandLine:     "portable metadata must not carry command lines, tool input or output, chat transcripts, hidden reasoning or internal prompts",
	RulePrivacyEnvironment:     "portable metadata must not carry environment dumps",
	RulePrivacyExecutable:      "portable metadata must not carry executable code or text meant to override an importer, agent or user",
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
