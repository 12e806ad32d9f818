package jsonschema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is one failed keyword: which keyword, where in the instance, and a
// message that begins with that place.
type Error struct {
	// Keyword is the failed keyword (required, additionalProperties,
	// type, const, enum, pattern, minLength, maxLength, format, minimum,
	// maximum, minItems, maxItems, uniqueItems, contains, maxProperties,
	// propertyNames, oneOf, anyOf, not). allOf, if/then and $ref report
	// the keywords of the schemas they apply.
	Keyword string
	// Pointer is the RFC 6901 pointer of the failing value ("" is the
	// whole document); for required it points at the missing member.
	Pointer string
	// Message says what is wrong with the value at Pointer.
	Message string
}

// Error is the pointer ("/" for the whole document) and the message.
func (e Error) Error() string { return where(e.Pointer) + " " + e.Message }

// maxErrors bounds one document's report: a hostile array of a million bad
// elements is reported by its first faults, not element by element.
const maxErrors = 64

// Validate checks a decoded instance (see Decode) against s and returns
// every failure in a stable order: keywords in the order this package
// evaluates them, members in schema order, then unknown members sorted.
func Validate(s *Schema, instance interface{}) []Error {
	v := &validator{}
	v.check(s, instance, "")
	return v.errs
}

// Valid reports whether instance matches s.
func Valid(s *Schema, instance interface{}) bool {
	v := &validator{probe: true}
	v.check(s, instance, "")
	return len(v.errs) == 0
}

type validator struct {
	errs  []Error
	probe bool // stop at the first error: the caller only asks whether it matches
}

func (v *validator) fail(keyword, ptr, format string, args ...interface{}) {
	if len(v.errs) >= maxErrors {
		return
	}
	v.errs = append(v.errs, Error{Keyword: keyword, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) done() bool { return (v.probe && len(v.errs) > 0) || len(v.errs) >= maxErrors }

func where(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

// sub evaluates s against x on its own, for the combinators: the errors it
// would report, at most one when only a verdict is needed.
func sub(s *Schema, x interface{}, ptr string, probe bool) []Error {
	w := &validator{probe: probe}
	w.check(s, x, ptr)
	return w.errs
}

func (v *validator) check(s *Schema, x interface{}, ptr string) {
	if s == nil || v.done() {
		return
	}
	if s.Ref != nil {
		v.check(s.Ref, x, ptr)
	}
	if len(s.Type) > 0 && !typeAllowed(s.Type, x) {
		v.fail("type", ptr, "must be %s, not %s", orList(s.Type), describe(x))
	}
	if s.HasConst && !Equal(x, s.Const) {
		v.fail("const", ptr, "must be %s, not %s", literal(s.Const), describe(x))
	}
	if s.Enum != nil && !inEnum(s.Enum, x) {
		v.fail("enum", ptr, "%s is not one of %s", describe(x), enumList(s.Enum))
	}
	switch t := x.(type) {
	case string:
		v.checkString(s, t, ptr)
	case json.Number:
		v.checkNumber(s, t, ptr)
	case []interface{}:
		v.checkArray(s, t, ptr)
	case map[string]interface{}:
		v.checkObject(s, t, ptr)
	}
	for _, a := range s.AllOf {
		v.check(a, x, ptr)
	}
	if len(s.AnyOf) > 0 && !v.done() {
		var firsts []string
		matched := false
		for _, a := range s.AnyOf {
			errs := sub(a, x, ptr, true)
			if len(errs) == 0 {
				matched = true
				break
			}
			firsts = append(firsts, errs[0].Error())
		}
		if !matched {
			v.fail("anyOf", ptr, "matches none of the allowed forms (%s)", strings.Join(firsts, "; "))
		}
	}
	if len(s.OneOf) > 0 && !v.done() {
		var matched []string
		var firsts []string
		for i, a := range s.OneOf {
			errs := sub(a, x, ptr, true)
			if len(errs) == 0 {
				matched = append(matched, strconv.Itoa(i))
			} else {
				firsts = append(firsts, errs[0].Error())
			}
		}
		switch len(matched) {
		case 1:
		case 0:
			v.fail("oneOf", ptr, "matches none of the %d alternatives, exactly one is required (%s)", len(s.OneOf), strings.Join(firsts, "; "))
		default:
			v.fail("oneOf", ptr, "matches alternatives %s, exactly one is allowed", strings.Join(matched, " and "))
		}
	}
	if s.Not != nil && !v.done() && len(sub(s.Not, x, ptr, true)) == 0 {
		v.fail("not", ptr, "%s", notMessage(s.Not))
	}
	if s.If != nil && !v.done() && len(sub(s.If, x, ptr, true)) == 0 {
		v.check(s.Then, x, ptr)
	}
}

func (v *validator) checkString(s *Schema, t, ptr string) {
	n := utf8.RuneCountInString(t)
	if s.MinLength > 0 && n < s.MinLength {
		v.fail("minLength", ptr, "is %d characters, at least %d are required", n, s.MinLength)
	}
	if s.MaxLength > 0 && n > s.MaxLength {
		v.fail("maxLength", ptr, "is %d characters, at most %d are allowed", n, s.MaxLength)
	}
	if s.Pattern != "" && !compile(s.Pattern).MatchString(t) {
		v.fail("pattern", ptr, "%s does not match %s", quote(t), s.Pattern)
	}
	if s.Format == "date-time" && !ValidDateTime(t) {
		v.fail("format", ptr, "%s is not an RFC 3339 date-time such as 2026-01-02T03:04:05Z", quote(t))
	}
}

func (v *validator) checkNumber(s *Schema, t json.Number, ptr string) {
	d, ok := parseDecimal(string(t))
	if !ok {
		v.fail("type", ptr, "is not a JSON number")
		return
	}
	if s.Minimum != nil && d.cmpInt(*s.Minimum) < 0 {
		v.fail("minimum", ptr, "%s is less than the minimum %d", short(string(t)), *s.Minimum)
	}
	if s.Maximum != nil && d.cmpInt(*s.Maximum) > 0 {
		v.fail("maximum", ptr, "%s is more than the maximum %d", short(string(t)), *s.Maximum)
	}
}

func (v *validator) checkArray(s *Schema, t []interface{}, ptr string) {
	if s.MinItems > 0 && len(t) < s.MinItems {
		v.fail("minItems", ptr, "has %d items, at least %d are required", len(t), s.MinItems)
	}
	if s.MaxItems > 0 && len(t) > s.MaxItems {
		v.fail("maxItems", ptr, "has %d items, at most %d are allowed", len(t), s.MaxItems)
	}
	if s.UniqueItems {
	unique:
		for i := 1; i < len(t) && i < 4096; i++ {
			for j := 0; j < i; j++ {
				if Equal(t[i], t[j]) {
					v.fail("uniqueItems", ptr, "items %d and %d are equal; items must be unique", j, i)
					break unique
				}
			}
		}
	}
	if s.Items != nil {
		for i, e := range t {
			if v.done() {
				break
			}
			v.check(s.Items, e, ptr+"/"+strconv.Itoa(i))
		}
	}
	if s.Contains != nil && !v.done() {
		n := 0
		for i, e := range t {
			if len(sub(s.Contains, e, ptr+"/"+strconv.Itoa(i), true)) == 0 {
				n++
			}
		}
		lo := 1
		if s.MinContains != nil {
			lo = *s.MinContains
		}
		what := containsName(s.Contains)
		switch {
		case n < lo:
			v.fail("contains", ptr, "has %d items that are %s, at least %d required", n, what, lo)
		case s.MaxContains != nil && n > *s.MaxContains:
			v.fail("contains", ptr, "has %d items that are %s, at most %d allowed", n, what, *s.MaxContains)
		}
	}
}

func (v *validator) checkObject(s *Schema, t map[string]interface{}, ptr string) {
	for _, r := range s.Required {
		if _, ok := t[r]; !ok {
			v.fail("required", ptr+"/"+escape(r), "is required")
		}
	}
	if s.MaxProperties > 0 && len(t) > s.MaxProperties {
		v.fail("maxProperties", ptr, "has %d members, at most %d are allowed", len(t), s.MaxProperties)
	}
	var keys []string
	if s.Closed || s.PropertyNames != nil {
		keys = make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	if s.Closed {
		for _, k := range keys {
			if !s.hasProperty(k) {
				v.fail("additionalProperties", ptr+"/"+escape(k), "is not allowed here: the object is closed (%s)", propertyList(s))
			}
		}
	}
	if s.PropertyNames != nil {
		for _, k := range keys {
			if errs := sub(s.PropertyNames, k, ptr+"/"+escape(k), true); len(errs) > 0 {
				v.fail("propertyNames", ptr+"/"+escape(k), "the name %s is not allowed: it must match %s", quote(k), s.PropertyNames.Pattern)
			}
		}
	}
	for _, p := range s.Properties {
		if x, ok := t[p.Name]; ok {
			v.check(p.Schema, x, ptr+"/"+escape(p.Name))
		}
	}
}

func (s *Schema) hasProperty(k string) bool {
	for _, p := range s.Properties {
		if p.Name == k {
			return true
		}
	}
	return false
}

func typeAllowed(types []string, x interface{}) bool {
	t := typeOf(x)
	for _, want := range types {
		if want == t || (want == "number" && t == "integer") {
			return true
		}
	}
	return false
}

func inEnum(enum []interface{}, x interface{}) bool {
	for _, e := range enum {
		if Equal(x, e) {
			return true
		}
	}
	return false
}

// describe names a value for a message without repeating a long one.
func describe(x interface{}) string {
	switch t := x.(type) {
	case string:
		return "the string " + quote(t)
	case json.Number:
		return "the number " + short(string(t))
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	case []interface{}:
		return "an array"
	case map[string]interface{}:
		return "an object"
	}
	return "a value"
}

func literal(c interface{}) string {
	switch t := c.(type) {
	case string:
		return strconv.Quote(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(c)
}

func enumList(enum []interface{}) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = literal(e)
	}
	return strings.Join(parts, ", ")
}

func orList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func propertyList(s *Schema) string {
	names := make([]string, len(s.Properties))
	for i, p := range s.Properties {
		names[i] = p.Name
	}
	if len(names) > 8 {
		return "allowed: " + strings.Join(names[:8], ", ") + ", ..."
	}
	return "allowed: " + strings.Join(names, ", ")
}

// notMessage says what a matched not forbids, in the forms the schemas
// use: a pattern, a required member, or any of several.
func notMessage(n *Schema) string {
	switch {
	case n.Pattern != "":
		return "must not match " + n.Pattern
	case len(n.Required) > 0:
		return "must not have " + strings.Join(n.Required, ", ")
	case len(n.AnyOf) > 0:
		var names []string
		for _, a := range n.AnyOf {
			names = append(names, a.Required...)
		}
		if len(names) > 0 {
			return "must not have any of " + strings.Join(names, ", ")
		}
	}
	return "matches a form that is not allowed"
}

func containsName(c *Schema) string {
	if c.Name != "" {
		return c.Name
	}
	if c.Ref != nil && c.Ref.Name != "" {
		return c.Ref.Name
	}
	return "matching"
}

func quote(s string) string { return strconv.Quote(short(s)) }

// short cuts s for a message: hostile values can be a megabyte long.
func short(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// escape writes s as one RFC 6901 pointer token.
func escape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return tokenEscaper.Replace(s)
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")
