package petpack

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/agentpet/rules_pet/internal/strictjson"
)

// jsonKind is the type of a JSON value, from its first byte.
type jsonKind string

const (
	kindObject jsonKind = "object"
	kindArray  jsonKind = "array"
	kindString jsonKind = "string"
	kindNumber jsonKind = "number"
	kindBool   jsonKind = "boolean"
	kindNull   jsonKind = "null"
)

func kind(raw json.RawMessage) jsonKind {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return kindNull
	}
	switch raw[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	}
	return kindNumber
}

// manifestDecoder walks the manifest one field at a time, so that every
// unknown, missing or mistyped field is reported with its JSON pointer and
// the values that did decode are still checked.
type manifestDecoder struct {
	c *checker
}

func (d *manifestDecoder) fail(rule Rule, ptr, format string, args ...interface{}) {
	d.c.fail(rule, manifestPath, ptr, format, args...)
}

// object decodes raw as an object with exactly the known keys. It returns
// nil when raw is not an object.
func (d *manifestDecoder) object(raw json.RawMessage, ptr string, required, optional []string) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if kind(raw) != kindObject || json.Unmarshal(raw, &m) != nil {
		d.fail(RuleManifestFieldType, ptr, "must be a JSON object, not %s", kind(raw))
		return nil
	}
	d.closed(m, ptr, required, optional)
	return m
}

// closed reports the keys of m that are not known (sorted, for a stable
// verdict) and the required ones that are missing.
func (d *manifestDecoder) closed(m map[string]json.RawMessage, ptr string, required, optional []string) {
	var unknown []string
	for k := range m {
		if !contains(required, k) && !contains(optional, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		d.fail(RuleManifestUnknownField, ptr+"/"+escapeToken(k),
			"unknown field %s: V3 objects are closed (there is no package-wide FPS, duration, profile, frame count or loop field)", strconv.Quote(truncate(k, 64)))
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			d.fail(RuleManifestFieldMissing, ptr+"/"+k, "required field %s is missing", k)
		}
	}
}

func escapeToken(s string) string { return strictjson.EscapeToken(s) }

// str decodes a string field; ok is false when it is absent or mistyped.
func (d *manifestDecoder) str(m map[string]json.RawMessage, key, ptr string) (string, bool) {
	raw, present := m[key]
	if !present {
		return "", false
	}
	var s string
	if kind(raw) != kindString || json.Unmarshal(raw, &s) != nil {
		d.fail(RuleManifestFieldType, ptr, "must be a string, not %s", kind(raw))
		return "", false
	}
	return s, true
}

// integer decodes an integer: a JSON number written without fraction or
// exponent that fits 64 bits (encoding/json rejects 1.0 and 1e2 for an int).
func (d *manifestDecoder) integer(raw json.RawMessage, ptr string) (int, bool) {
	var n int64
	if kind(raw) != kindNumber || json.Unmarshal(raw, &n) != nil || int64(int(n)) != n {
		d.fail(RuleManifestFieldType, ptr, "must be an integer, not %s", describe(raw))
		return 0, false
	}
	return int(n), true
}

// intField decodes an optional integer field; ok is false when it is
// absent or mistyped.
func (d *manifestDecoder) intField(m map[string]json.RawMessage, key, ptr string) (int, bool) {
	raw, present := m[key]
	if !present {
		return 0, false
	}
	return d.integer(raw, ptr)
}

// array decodes an array's elements, undecoded.
func (d *manifestDecoder) array(raw json.RawMessage, ptr string) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	if kind(raw) != kindArray || json.Unmarshal(raw, &a) != nil {
		d.fail(RuleManifestFieldType, ptr, "must be a JSON array, not %s", kind(raw))
		return nil, false
	}
	return a, true
}

// describe names a value's type for a message, quoting a short number.
func describe(raw json.RawMessage) string {
	if k := kind(raw); k != kindNumber {
		return string(k)
	}
	s := string(bytes.TrimSpace(raw))
	if len(s) > 32 {
		s = s[:32] + "..."
	}
	return "the number " + s
}

// truncate cuts s for a message; hostile values can be a megabyte long.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
