package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) interface{} {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestKeywords holds each keyword to JSON Schema's meaning on both sides of
// its edge: the keyword that fails, or "" for a valid instance.
func TestKeywords(t *testing.T) {
	str := func(min, max int, pattern string) *Schema {
		return &Schema{Type: []string{"string"}, MinLength: min, MaxLength: max, Pattern: pattern}
	}
	name := &Schema{Name: "name", Enum: []interface{}{"idle", "tool"}}
	obj := &Schema{Type: []string{"object"}, Closed: true, Required: []string{"a"},
		Properties: []Property{{"a", &Schema{Type: []string{"integer"}, Minimum: Int(0), Maximum: Int(8)}}, {"b", &Schema{}}}}
	cases := []struct {
		name     string
		s        *Schema
		instance string
		want     string // failed keyword, "" when valid
		pointer  string
	}{
		{"integer", &Schema{Type: []string{"integer"}}, `3`, "", ""},
		{"integer written 3.0", &Schema{Type: []string{"integer"}}, `3.0`, "", ""},
		{"integer written 3e0", &Schema{Type: []string{"integer"}}, `30e-1`, "", ""},
		{"fraction is no integer", &Schema{Type: []string{"integer"}}, `3.5`, "type", ""},
		{"number accepts integer", &Schema{Type: []string{"number"}}, `3`, "", ""},
		{"union", &Schema{Type: []string{"object", "null"}}, `null`, "", ""},
		{"union other", &Schema{Type: []string{"object", "null"}}, `[]`, "type", ""},
		{"const true", &Schema{Const: true, HasConst: true}, `true`, "", ""},
		{"const false", &Schema{Const: true, HasConst: true}, `false`, "const", ""},
		{"const number by value", &Schema{Const: 192, HasConst: true}, `192.0`, "", ""},
		{"enum", name, `"tool"`, "", ""},
		{"enum miss", name, `"Tool"`, "enum", ""},
		{"minLength in code points", str(2, 0, ""), `"é"`, "minLength", ""},
		{"maxLength in code points", str(0, 3, ""), `"ééé"`, "", ""},
		{"maxLength over", str(0, 3, ""), `"éééé"`, "maxLength", ""},
		{"pattern unanchored", str(0, 0, `\S`), `"  x "`, "", ""},
		{"ECMA \\S: no-break space is white space", str(0, 0, `\S`), `"\u00a0\u2003"`, "pattern", ""},
		{"pattern anchored", str(0, 0, `^pet_[a-z0-9]+$`), `"pet_A"`, "pattern", ""},
		{"date-time", &Schema{Format: "date-time"}, `"2025-01-02T03:04:05Z"`, "", ""},
		{"date-time bad", &Schema{Format: "date-time"}, `"2025-02-30T03:04:05Z"`, "format", ""},
		{"format ignores other types", &Schema{Format: "date-time"}, `5`, "", ""},
		{"minimum", &Schema{Minimum: Int(50)}, `50`, "", ""},
		{"minimum under", &Schema{Minimum: Int(50)}, `49.99`, "minimum", ""},
		{"maximum over", &Schema{Maximum: Int(2000)}, `2000.5`, "maximum", ""},
		{"maximum huge", &Schema{Maximum: Int(2000)}, `1e999999999`, "maximum", ""},
		{"minimum tiny", &Schema{Minimum: Int(0)}, `-1e-999999999`, "minimum", ""},
		{"items and pointer", &Schema{Items: &Schema{Type: []string{"string"}}}, `["a", 1]`, "type", "/1"},
		{"minItems", &Schema{MinItems: 2}, `[1]`, "minItems", ""},
		{"maxItems", &Schema{MaxItems: 1}, `[1, 2]`, "maxItems", ""},
		{"uniqueItems by value", &Schema{UniqueItems: true}, `[1, 1.0]`, "uniqueItems", ""},
		{"uniqueItems objects unordered", &Schema{UniqueItems: true}, `[{"a":1,"b":2}, {"b":2,"a":1}]`, "uniqueItems", ""},
		{"uniqueItems distinct", &Schema{UniqueItems: true}, `["a", "b"]`, "", ""},
		{"contains once", &Schema{Contains: &Schema{Const: "x", HasConst: true}, MinContains: Count(1), MaxContains: Count(1)}, `["x", "y"]`, "", ""},
		{"contains none", &Schema{Contains: &Schema{Const: "x", HasConst: true}}, `["y"]`, "contains", ""},
		{"contains twice", &Schema{Contains: &Schema{Const: "x", HasConst: true}, MaxContains: Count(1)}, `["x", "x"]`, "contains", ""},
		{"required names the member", obj, `{}`, "required", "/a"},
		{"closed", obj, `{"a": 1, "c": 2}`, "additionalProperties", "/c"},
		{"property schema", obj, `{"a": 9}`, "maximum", "/a"},
		{"maxProperties", &Schema{MaxProperties: 1}, `{"a": 1, "b": 2}`, "maxProperties", ""},
		{"propertyNames", &Schema{PropertyNames: &Schema{Pattern: `^[a-z]+$`}}, `{"a/B": 1}`, "propertyNames", "/a~1B"},
		{"anyOf", &Schema{AnyOf: []*Schema{{Type: []string{"string"}}, {Type: []string{"object"}}}}, `true`, "anyOf", ""},
		{"oneOf none", &Schema{OneOf: []*Schema{{Required: []string{"a"}}, {Required: []string{"b"}}}}, `{}`, "oneOf", ""},
		{"oneOf both", &Schema{OneOf: []*Schema{{Required: []string{"a"}}, {Required: []string{"b"}}}}, `{"a":1,"b":1}`, "oneOf", ""},
		{"oneOf one", &Schema{OneOf: []*Schema{{Required: []string{"a"}}, {Required: []string{"b"}}}}, `{"a":1}`, "", ""},
		{"not", &Schema{Not: &Schema{Pattern: `\.\.`}}, `"a/../b"`, "not", ""},
		{"not holds vacuously for other types", &Schema{Not: &Schema{Pattern: `x`}}, `5`, "not", ""},
		{"if/then applies", &Schema{If: &Schema{Properties: []Property{{"m", &Schema{Const: "p", HasConst: true}}}, Required: []string{"m"}}, Then: &Schema{Required: []string{"c"}}}, `{"m":"p"}`, "required", "/c"},
		{"if/then skipped", &Schema{If: &Schema{Properties: []Property{{"m", &Schema{Const: "p", HasConst: true}}}, Required: []string{"m"}}, Then: &Schema{Required: []string{"c"}}}, `{"m":"q"}`, "", ""},
		{"allOf reports its parts", &Schema{AllOf: []*Schema{{MinItems: 1}, {MaxItems: 1}}}, `[1, 2]`, "maxItems", ""},
		{"ref with siblings", &Schema{Ref: obj, Properties: []Property{{"a", &Schema{Const: 1, HasConst: true}}}}, `{"a": 2}`, "const", "/a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := Validate(tc.s, mustDecode(t, tc.instance))
			switch {
			case tc.want == "" && len(errs) > 0:
				t.Fatalf("rejected: %v", errs)
			case tc.want == "":
			case len(errs) == 0:
				t.Fatalf("accepted, want %s", tc.want)
			case errs[0].Keyword != tc.want || errs[0].Pointer != tc.pointer:
				t.Fatalf("got %s at %q (%v), want %s at %q", errs[0].Keyword, errs[0].Pointer, errs[0], tc.want, tc.pointer)
			}
			if Valid(tc.s, mustDecode(t, tc.instance)) != (tc.want == "") {
				t.Fatal("Valid disagrees with Validate")
			}
		})
	}
}

// TestErrorsBounded: a hostile array is reported by its first faults.
func TestErrorsBounded(t *testing.T) {
	inst := "[" + strings.Repeat(`"x",`, 100000) + `"x"]`
	errs := Validate(&Schema{Items: &Schema{Type: []string{"integer"}}}, mustDecode(t, inst))
	if len(errs) != maxErrors {
		t.Fatalf("%d errors, want the bound %d", len(errs), maxErrors)
	}
}

func TestInt64(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "-0": 0, "50": 50, "5e1": 50, "500e-1": 50, "-12.000": -12} {
		if got, ok := Int64(json.Number(s)); !ok || got != want {
			t.Errorf("Int64(%s) = %d, %v; want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"1.5", "1e19", "1e999999999"} {
		if _, ok := Int64(json.Number(s)); ok {
			t.Errorf("Int64(%s) fits", s)
		}
	}
}

// TestMarshal writes definitions once, under $defs, in the order first
// reached, and references them.
func TestMarshal(t *testing.T) {
	def := &Schema{Name: "small", Type: []string{"integer"}, Minimum: Int(0)}
	doc := &Document{ID: "x", Title: "t", Root: &Schema{Type: []string{"array"}, Items: def, Contains: &Schema{Ref: def}}}
	got, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]interface{}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	want := `{"$defs":{"small":{"minimum":0,"type":"integer"}},"$id":"x","$schema":"https://json-schema.org/draft/2020-12/schema","contains":{"$ref":"#/$defs/small"},"items":{"$ref":"#/$defs/small"},"title":"t","type":"array"}`
	if b, _ := json.Marshal(v); string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
}
