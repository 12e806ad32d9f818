// Package privacy is the .petpack validator's privacy scanner (contract
// section 7): a pure function from one JSON metadata document to the
// forbidden keys and string values it holds. Its kinds are the validator's
// rule identifiers for the same leaks, so petpack reports a finding under
// its kind unchanged.
package privacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Kind is a category of section 7's list: the rule identifier the
// validator reports the finding under.
type Kind string

// The kinds, in the validator's rule-table order.
const (
	TooComplex      Kind = "privacy_document_too_complex"
	Credential      Kind = "privacy_credential"
	AbsolutePath    Kind = "privacy_absolute_path"
	FileURL         Kind = "privacy_file_url"
	ExternalLocator Kind = "privacy_external_locator"
	AgentIdentifier Kind = "privacy_agent_identifier"
	CommandLine     Kind = "privacy_command_line"
	Environment     Kind = "privacy_environment"
	Executable      Kind = "privacy_executable_or_override"
)

// Kinds returns every kind Scan reports.
func Kinds() []Kind {
	return []Kind{TooComplex, Credential, AbsolutePath, FileURL, ExternalLocator, AgentIdentifier, CommandLine, Environment, Executable}
}

// The bounds of the authors' privacy walk: a document of more values than
// this, or nested deeper, is refused before it is read further.
const (
	MaxNodes = 65536
	MaxDepth = 64
)

// Finding is one forbidden key or value and where it stands.
type Finding struct {
	// Kind is what section 7 forbids that was found.
	Kind Kind
	// Pointer is the RFC 6901 pointer of the key's member or the value
	// ("" for the whole document).
	Pointer string
	// What names what was found without repeating any of the value.
	What string
}

// chatRoles are the role values of a chat message object.
var chatRoles = map[string]bool{"user": true, "assistant": true, "system": true, "developer": true, "tool": true, "human": true}

// Scan walks one JSON document and returns every key and string
// value section 7 forbids, in document order: each key through
// forbiddenKey, each string value (and each key, for the shapes of a
// secret) through every detector of privacyDetectors, and each object
// shaped like a chat message (a role of chatRoles beside content or
// text). It reads the document as tokens, so its cost is linear and no
// map order reaches the result; past MaxNodes values or
// MaxDepth levels it stops with privacy_document_too_complex.
func Scan(doc []byte) ([]Finding, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out []Finding
	nodes := 0
	errBound := errors.New("bound")
	var walk func(ptr string, depth int) (string, bool, error)
	walk = func(ptr string, depth int) (string, bool, error) {
		nodes++
		if nodes > MaxNodes {
			out = append(out, Finding{TooComplex, "", "more than " + strconv.Itoa(MaxNodes) + " values"})
			return "", false, errBound
		}
		if depth > MaxDepth {
			out = append(out, Finding{TooComplex, ptr, "nested deeper than " + strconv.Itoa(MaxDepth) + " levels"})
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
					out = append(out, Finding{CommandLine, ptr, "an object shaped like a chat message (role and content)"})
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
func keyFindings(parent, child, key string) []Finding {
	var out []Finding
	if r, label, ok := detectCredential(key); ok {
		return append(out, Finding{r, parent, "a key holding " + describeLeak(label, key)})
	}
	if r, name, ok := forbiddenKey(key); ok {
		out = append(out, Finding{r, child, "a key naming " + strconv.Quote(name)})
	}
	return out
}

// valueFindings runs every detector over a string value, one finding per
// rule that fires.
func valueFindings(ptr, v string) []Finding {
	var out []Finding
	for _, d := range privacyDetectors {
		if r, label, ok := d.detect(v); ok {
			out = append(out, Finding{r, ptr, describeLeak(label, v)})
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
