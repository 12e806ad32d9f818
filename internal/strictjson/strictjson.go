// Package strictjson checks untrusted JSON before it is decoded: exactly
// one object, valid UTF-8, no key twice in any object. encoding/json keeps
// the last of two equal keys without a word and turns invalid UTF-8 into
// U+FFFD, so a document could show one value to a reader that keeps the
// first key and another to us; this pass closes that. The .petpack
// validator runs it on manifest.json and every metadata document.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the class of a Problem.
type Kind int

// The problems CheckObject reports.
const (
	// Malformed is bytes that are not exactly one well-formed UTF-8 JSON
	// object.
	Malformed Kind = iota
	// DuplicateKey is a key that appears twice in one object.
	DuplicateKey
)

// Problem is one fault CheckObject finds: its kind, the RFC 6901 pointer
// where it stands and a message.
type Problem struct {
	Kind    Kind
	Pointer string
	Msg     string
}

// CheckObject checks that data is exactly one JSON object, valid UTF-8, with
// no key twice in any object. encoding/json keeps the last of two equal keys
// without a word, so a manifest could show one schema_version to a reader
// that keeps the first and another to us; this pass closes that before
// anything is decoded. Keys are compared after unescaping, so "a" and
// "\u0061" are the same key.
func CheckObject(data []byte) []Problem {
	if !utf8.Valid(data) {
		// encoding/json would silently turn invalid bytes into U+FFFD.
		return []Problem{{Malformed, "", "the file is not valid UTF-8"}}
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
		problems []Problem
	)
	pointer := func() string { return Pointer(segments) }
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
				return append(problems, Problem{Malformed, "", "the document ends early"})
			}
			return problems
		}
		if err != nil {
			return append(problems, Problem{Malformed, pointer(), syntaxMessage(err, dec)})
		}
		if len(stack) == 0 && !first {
			return append(problems, Problem{Malformed, "", "data follows the top-level object"})
		}
		if first {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return []Problem{{Malformed, "", "the document is not a JSON object"}}
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
				problems = append(problems, Problem{DuplicateKey, Pointer(append(segments, key)), "key " + strconv.Quote(key) + " appears more than once in one object"})
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

// Pointer joins segments as an RFC 6901 pointer.
func Pointer(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}

// EscapeToken writes s as one RFC 6901 pointer token.
func EscapeToken(s string) string { return Pointer([]string{s})[1:] }
