package petpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonProblem is one fault the token pass finds.
type jsonProblem struct {
	rule    Rule // RuleManifestMalformed or RuleManifestDuplicateKey
	pointer string
	msg     string
}

// scanObject checks that data is exactly one JSON object, valid UTF-8, with
// no key twice in any object. encoding/json keeps the last of two equal keys
// without a word, so a manifest could show one schema_version to a reader
// that keeps the first and another to us; this pass closes that before
// anything is decoded. Keys are compared after unescaping, so "a" and
// "\u0061" are the same key.
func scanObject(data []byte) []jsonProblem {
	if !utf8.Valid(data) {
		// encoding/json would silently turn invalid bytes into U+FFFD.
		return []jsonProblem{{RuleManifestMalformed, "", "the file is not valid UTF-8"}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number token is never converted, so 1e999 is no error here
	type frame struct {
		object bool
		keys   map[string]bool
		key    string // the member being read, in an object
		index  int    // the element being read, in an array
		want   bool   // an object expects a key next
	}
	var (
		stack    []*frame
		segments []string
		problems []jsonProblem
	)
	pointer := func() string { return jsonPointer(segments) }
	// value marks the end of one value in the enclosing container.
	value := func() {
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		segments = segments[:len(segments)-1]
		if top.object {
			top.want = true
		} else {
			top.index++
		}
	}
	// begin marks the start of a value inside the enclosing container.
	begin := func() {
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		if top.object {
			segments = append(segments, top.key)
		} else {
			segments = append(segments, strconv.Itoa(top.index))
		}
	}
	first := true
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) != 0 || first {
				return append(problems, jsonProblem{RuleManifestMalformed, "", "the document ends early"})
			}
			return problems
		}
		if err != nil {
			return append(problems, jsonProblem{RuleManifestMalformed, pointer(), syntaxMessage(err, dec)})
		}
		if len(stack) == 0 && !first {
			return append(problems, jsonProblem{RuleManifestMalformed, "", "data follows the top-level object"})
		}
		if first {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return []jsonProblem{{RuleManifestMalformed, "", "the document is not a JSON object"}}
			}
			first = false
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, want: true})
			continue
		}
		top := stack[len(stack)-1]
		if top.object && top.want {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				value()
				continue
			}
			key := tok.(string) // the decoder allows only a string here
			if top.keys[key] {
				problems = append(problems, jsonProblem{RuleManifestDuplicateKey, jsonPointer(append(segments, key)), "key " + strconv.Quote(key) + " appears more than once in one object"})
			}
			top.keys[key] = true
			top.key, top.want = key, false
			continue
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{':
				begin()
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, want: true})
			case '[':
				begin()
				stack = append(stack, &frame{})
			default: // ']' closes an array; '}' is handled above
				stack = stack[:len(stack)-1]
				value()
			}
		default:
			begin()
			value()
		}
	}
}

func syntaxMessage(err error, dec *json.Decoder) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "not well-formed JSON at byte " + strconv.FormatInt(se.Offset, 10) + ": " + se.Error()
	}
	return "not well-formed JSON at byte " + strconv.FormatInt(dec.InputOffset(), 10) + ": " + err.Error()
}

// jsonPointer joins segments as an RFC 6901 pointer.
func jsonPointer(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}
