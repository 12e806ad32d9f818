package petpack

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite ../../schemas from the metadata shapes")

// schemaDir is the repository's schemas/ directory; Bazel puts it in the
// test's runfiles at the same relative place.
const schemaDir = "../../schemas"

// ordered is a JSON object that keeps its member order, so the published
// schema files are stable and read in a sensible order.
type ordered []member

type member struct {
	k string
	v interface{}
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.k)
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schemaOf renders a shape as JSON Schema draft 2020-12.
func schemaOf(t *jtype, doc string) ordered {
	var o ordered
	add := func(k string, v interface{}) { o = append(o, member{k, v}) }
	switch t.kind {
	case kindObject:
		add("type", "object")
		if doc != "" {
			add("description", doc)
		}
		if t.ext {
			add("propertyNames", ordered{{"pattern", reverseDomainPattern}})
			add("additionalProperties", ordered{{"type", "object"}})
			return o
		}
		var props ordered
		var required []string
		for _, f := range t.fields {
			props = append(props, member{f.name, schemaOf(f.t, f.doc)})
			if f.required {
				required = append(required, f.name)
			}
		}
		add("properties", props)
		add("required", required)
		add("additionalProperties", false)
		return o
	case kindArray:
		add("type", "array")
	case kindString:
		add("type", "string")
	case kindNumber:
		add("type", "integer")
	case kindBool:
		add("type", "boolean")
	}
	if doc != "" {
		add("description", doc)
	}
	switch t.kind {
	case kindArray:
		add("items", schemaOf(t.items, ""))
		if t.minItems > 0 {
			add("minItems", t.minItems)
		}
		if t.maxItems > 0 {
			add("maxItems", t.maxItems)
		}
	case kindString:
		switch {
		case t.constant != "":
			add("const", t.constant)
		case t.enum != nil:
			add("enum", t.enum)
		case t.pattern != "":
			add("pattern", t.pattern)
		case t.nonBlank:
			add("pattern", `\S`)
		}
		if t.maxLen > 0 {
			add("maxLength", t.maxLen)
		}
	case kindNumber:
		add("minimum", t.min)
		if t.max > 0 {
			add("maximum", t.max)
		}
	}
	return o
}

func schemaFile(d *metaDocument) []byte {
	top := ordered{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", "https://github.com/agentpet/rules_pet/schemas/" + d.schema},
		{"title", d.version},
	}
	top = append(top, schemaOf(d.t, "The closed schema of "+d.title+" ("+d.version+"), contract section 7.")...)
	var b bytes.Buffer
	raw, err := json.Marshal(top)
	if err != nil {
		panic(err)
	}
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		panic(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// TestSchemaFilesCurrent writes the schema files with -update-schemas and
// otherwise checks they are what the validator's shapes say, so the
// published schema is the one enforced.
func TestSchemaFilesCurrent(t *testing.T) {
	for _, d := range metaDocuments {
		want := schemaFile(d)
		path := filepath.Join(schemaDir, d.schema)
		if *updateSchemas {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s missing or stale (regenerate with go test ./runtime/petpack -run TestSchemaFilesCurrent -update-schemas): %v", path, err)
		}
	}
	path := filepath.Join(schemaDir, "README.md")
	want := []byte(schemaReadme())
	if *updateSchemas {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s missing or stale (regenerate with -update-schemas): %v", path, err)
	}
}

// readmeIntro is the README's prose; ~ stands for a backquote, which a Go
// raw string cannot hold.
const readmeIntro = `# Safe Producer metadata schemas

The four closed, versioned metadata documents of a ~.petpack~ V3 package
(contract section 7). ~runtime/petpack~ enforces them and these files are
generated from its field shapes (~go test ./runtime/petpack -run
TestSchemaFilesCurrent -update-schemas~ rewrites them and this README; the
plain test run fails when they are stale, and another test holds each schema
against the Go type it decodes into).

| Document | schema_version | Schema |
| -------- | -------------- | ------ |
| source/source.json | apc.pet-source.v1 | pet-source.schema.json |
| brief.json | apc.pet-brief.v1 | pet-brief.schema.json |
| each line of source/skill_session.jsonl | apc.pet-source-event.v1 | pet-source-event.schema.json |
| build/validation.json | apc.pet-validation.v1 | pet-validation.schema.json |

Rules common to all four:

- Every object is closed (~additionalProperties: false~): an unknown field,
  a duplicate key, null, or a number that is not an integer is rejected.
  Keys are exact, never case-folded.
- ~schema_version~ is read first and must be exactly the document's
  identity; there is no untagged, older or newer branch.
- The optional ~extensions~ object is the only extension point: its keys are
  lower-case reverse-domain names (~com.example.tool~) and each value is an
  object the validator does not interpret, except that the recursive privacy
  check covers it like every other key and string value.
- A document is at most 1 MiB. The session log is JSONL: one compact record
  per line, UTF-8, LF or CRLF, no empty line except the final newline.
- String lengths (~maxLength~) are enforced in bytes by the validator.

What the schemas cannot express, the validator cross-checks (stage 5, rule
ids in ~runtime/petpack/doc.go~):

- ~id~ (~pet_id~), ~name~, ~style~, ~quality~ and ~render_size~ equal the
  manifest's, in every document that carries them.
- ~source.json~ ~states~ holds the nine actions once each, in any order,
  and each entry's ~frame_durations_ms~, ~playback~ and
  ~reduced_motion_frame_index~ are a verbatim copy of the manifest state's
  (the timing contract is copied, not digested, so a mismatch names the
  field). ~frame_count~ and the validation report's ~frame_counts~ equal
  each state's frame count, and both ~total_frame_count~s the package's.
- ~source.json~ ~references~ is the exact inventory of
  ~source/references/~ (every file listed once, nothing listed that is
  absent, sizes and SHA-256 equal); paths are relative to
  ~source/references/~ and obey the package path rules (no ~..~, no
  absolute or drive roots, no backslash). ~brief.json~ and
  ~validation.json~ ~references~ are the same path set.
- ~provenance: skill-full-source~ requires ~preview_only: false~ and a
  ~visual_source~; ~deterministic~ and ~materializer~ must not declare
  one. Complete timing and exact frame counts are required of every
  provenance. There is no ~bundled~ value: a package cannot claim bundled
  identity (section 8). Provenance is a claim, not a signature.
- ~validation.json~ ~ok~ is exactly ~true~.
- The session log's records have ~sequence~ 1 to n in line order; the first
  is ~started~, the last ~completed~, and neither appears elsewhere;
  ~generated~, ~reviewed~ and ~validated~ come between. Records carry no
  free text and no agent thread, session, turn or tool-call identifiers.
- ~source/prompt.md~ (not JSON) is non-empty UTF-8 text without NUL.
`

// schemaReadme documents every field of the four documents, from the same
// shapes the validator walks.
func schemaReadme() string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(readmeIntro, "~", "`"))
	for _, d := range metaDocuments {
		fmt.Fprintf(&b, "\n## %s (`%s`, %s)\n\n", d.title, d.version, d.schema)
		b.WriteString("| Field | Type | Required | Constraint | Meaning |\n| ----- | ---- | -------- | ---------- | ------- |\n")
		readmeRows(&b, "", d.t)
	}
	return b.String()
}

func readmeRows(b *strings.Builder, prefix string, t *jtype) {
	for _, f := range t.fields {
		name := prefix + f.name
		ft := f.t
		typ := string(ft.kind)
		if ft.kind == kindNumber {
			typ = "integer"
		}
		elem := ft
		if ft.kind == kindArray {
			elem = ft.items
			typ = "array of " + string(elem.kind)
			if elem.kind == kindNumber {
				typ = "array of integer"
			}
		}
		req := "no"
		if f.required {
			req = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", name, typ, req, strings.ReplaceAll(constraint(ft), "|", "\\|"), f.doc)
		if elem.kind == kindObject && !elem.ext {
			sub := name + "."
			if ft.kind == kindArray {
				sub = name + "[]."
			}
			readmeRows(b, sub, elem)
		}
	}
}

// constraint describes a shape's bounds in a few words.
func constraint(t *jtype) string {
	var parts []string
	if t.kind == kindArray {
		switch {
		case t.minItems == t.maxItems && t.maxItems > 0:
			parts = append(parts, fmt.Sprintf("exactly %d items", t.minItems))
		case t.maxItems > 0:
			parts = append(parts, fmt.Sprintf("%d to %d items", t.minItems, t.maxItems))
		}
		if t.items.kind != kindObject {
			if c := constraint(t.items); c != "" {
				parts = append(parts, "each "+c)
			}
		}
		return strings.Join(parts, "; ")
	}
	switch {
	case t.ext:
		parts = append(parts, "keys match the reverse-domain pattern; values are objects")
	case t.constant != "":
		parts = append(parts, "`"+t.constant+"`")
	case t.enum != nil:
		parts = append(parts, "one of `"+strings.Join(t.enum, "`, `")+"`")
	case t.pattern != "":
		parts = append(parts, "matches `"+t.pattern+"`")
	case t.nonBlank:
		parts = append(parts, "not blank")
	}
	if t.maxLen > 0 {
		parts = append(parts, fmt.Sprintf("at most %d bytes", t.maxLen))
	}
	if t.kind == kindNumber {
		parts = append(parts, fmt.Sprintf("%d to %d", t.min, t.max))
	}
	return strings.Join(parts, "; ")
}

// TestSchemasMatchTypes reads each published schema as plain JSON and
// holds it against the Go type the validator decodes into: every object
// closed, its properties exactly the struct's json names, required exactly
// the members without omitempty, and the leaf types alike. Only the
// extensions container, the contract's one extension point, is open.
func TestSchemasMatchTypes(t *testing.T) {
	for _, d := range metaDocuments {
		t.Run(d.schema, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(schemaDir, d.schema))
			if err != nil {
				t.Fatal(err)
			}
			var s map[string]interface{}
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("$schema %v", s["$schema"])
			}
			matchType(t, "#", s, reflect.TypeOf(d.newGo()).Elem())
			schemaClosed(t, "#", s)
		})
	}
}

var extensionsType = reflect.TypeOf(Extensions(nil))

func matchType(t *testing.T, where string, s map[string]interface{}, rt reflect.Type) {
	t.Helper()
	for rt.Kind() == reflect.Ptr {
		rt = rt.Elem()
	}
	if rt == extensionsType {
		if s["type"] != "object" || s["propertyNames"] == nil {
			t.Errorf("%s: the extensions container is not an object keyed by reverse-domain names", where)
		}
		return
	}
	switch rt.Kind() {
	case reflect.Struct:
		if s["type"] != "object" || s["additionalProperties"] != false {
			t.Errorf("%s: an object schema that is not closed (type %v, additionalProperties %v)", where, s["type"], s["additionalProperties"])
		}
		props, _ := s["properties"].(map[string]interface{})
		var names, required []string
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag := strings.Split(f.Tag.Get("json"), ",")
			names = append(names, tag[0])
			if len(tag) == 1 {
				required = append(required, tag[0])
			}
			ps, ok := props[tag[0]].(map[string]interface{})
			if !ok {
				t.Errorf("%s: the schema has no property %s (field %s.%s)", where, tag[0], rt.Name(), f.Name)
				continue
			}
			matchType(t, where+"/properties/"+tag[0], ps, f.Type)
		}
		var got []string
		for k := range props {
			got = append(got, k)
		}
		var gotReq []string
		if r, ok := s["required"].([]interface{}); ok {
			for _, x := range r {
				gotReq = append(gotReq, fmt.Sprint(x))
			}
		}
		sort.Strings(names)
		sort.Strings(required)
		sort.Strings(got)
		sort.Strings(gotReq)
		if fmt.Sprint(got) != fmt.Sprint(names) {
			t.Errorf("%s: properties %v, %s has %v", where, got, rt.Name(), names)
		}
		if fmt.Sprint(gotReq) != fmt.Sprint(required) {
			t.Errorf("%s: required %v, %s requires %v", where, gotReq, rt.Name(), required)
		}
	case reflect.Slice, reflect.Array:
		items, _ := s["items"].(map[string]interface{})
		if s["type"] != "array" || items == nil {
			t.Errorf("%s: a %s is not an array schema with items", where, rt)
			return
		}
		matchType(t, where+"/items", items, rt.Elem())
	case reflect.String:
		if s["type"] != "string" {
			t.Errorf("%s: a %s is %v in the schema", where, rt, s["type"])
		}
	case reflect.Int, reflect.Int64:
		if s["type"] != "integer" {
			t.Errorf("%s: a %s is %v in the schema", where, rt, s["type"])
		}
	case reflect.Bool:
		if s["type"] != "boolean" {
			t.Errorf("%s: a %s is %v in the schema", where, rt, s["type"])
		}
	default:
		t.Errorf("%s: no schema mapping for %s", where, rt)
	}
}

// schemaClosed walks the whole schema, whatever the Go types say: every
// object schema is closed, except the extensions container and the open
// objects it holds.
func schemaClosed(t *testing.T, where string, v interface{}) {
	t.Helper()
	switch x := v.(type) {
	case map[string]interface{}:
		if x["type"] == "object" && x["additionalProperties"] != false && !strings.HasSuffix(where, "/properties/extensions") {
			t.Errorf("%s: an object schema without additionalProperties false", where)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.HasSuffix(where, "/properties/extensions") && k == "additionalProperties" {
				continue // the extension objects themselves are the producer's
			}
			schemaClosed(t, where+"/"+k, x[k])
		}
	case []interface{}:
		for i, e := range x {
			schemaClosed(t, fmt.Sprintf("%s/%d", where, i), e)
		}
	}
}
