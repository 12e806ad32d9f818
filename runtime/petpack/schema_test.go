package petpack

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	js "github.com/agentpet/rules_pet/internal/jsonschema"
	refschema "github.com/santhosh-tekuri/jsonschema/v5"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite ../../schemas from the metadata schemas")

// schemaDir is the repository's schemas/ directory; Bazel puts it in the
// test's runfiles at the same relative place.
const schemaDir = "../../schemas"

// TestSchemaFilesCurrent writes the schema files with -update-schemas and
// otherwise checks they are what the validator enforces.
func TestSchemaFilesCurrent(t *testing.T) {
	write := func(path string, want []byte) {
		if *updateSchemas {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s missing or stale (regenerate with go test ./runtime/petpack -run TestSchemaFilesCurrent -update-schemas): %v", path, err)
		}
	}
	for _, f := range SchemaFiles() {
		data, err := Document(f[1]).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(schemaDir, f[0]), data)
	}
	write(filepath.Join(schemaDir, "README.md"), []byte(schemaReadme()))
}

// compileSchemas compiles the published schema files with an independent
// JSON Schema implementation (Draft 2020-12, formats asserted), keyed by
// the package path of the document each describes.
func compileSchemas(t *testing.T) map[string]*refschema.Schema {
	t.Helper()
	out := map[string]*refschema.Schema{}
	for _, f := range SchemaFiles() {
		c := refschema.NewCompiler()
		c.Draft = refschema.Draft2020
		c.AssertFormat = true
		file := filepath.Join(schemaDir, f[0])
		s, err := c.Compile(file)
		if err != nil {
			t.Fatalf("%s does not compile as JSON Schema 2020-12: %v", file, err)
		}
		out[f[1]] = s
	}
	return out
}

// documents splits a package's metadata into its schema-checked documents:
// path (PATH:LINE for a session record), the document's path and bytes.
func documents(p pkg) [][3]string {
	var out [][3]string
	for _, d := range metaDocuments {
		data := string(p.get(d.path))
		if d.path != sessionPath {
			out = append(out, [3]string{d.path, d.path, data})
			continue
		}
		for i, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			out = append(out, [3]string{sessionPath + ":" + strconv.Itoa(i+1), d.path, strings.TrimSuffix(line, "\r")})
		}
	}
	return out
}

func refValidate(s *refschema.Schema, data string) error {
	var v interface{}
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return s.Validate(v)
}

// TestSchemasAcceptValidFixtures: every document of every valid fixture,
// and of every fixture that breaks only a cross-file rule, passes its
// published schema in the independent implementation.
func TestSchemasAcceptValidFixtures(t *testing.T) {
	schemas := compileSchemas(t)
	var cases []struct {
		name string
		p    pkg
	}
	cases = append(cases, validMetadataCases()...)
	for _, tc := range metadataRuleCases() {
		if tc.rule != RuleMetadataMalformed && tc.rule != RuleMetadataDuplicateKey && tc.rule != RuleMetadataSchemaVersion && tc.rule != RuleEventLogEmpty {
			cases = append(cases, struct {
				name string
				p    pkg
			}{tc.name, tc.p})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range documents(tc.p) {
				if err := refValidate(schemas[d[1]], d[2]); err != nil {
					t.Errorf("%s fails its schema: %v", d[0], err)
				}
			}
		})
	}
}

// schemaCase is one generated mutation: a document of the every-optional-
// field package with one keyword broken.
type schemaCase struct {
	where   string // PATH or PATH:LINE
	doc     *metaDocument
	keyword string
	pointer string
	data    []byte
}

// valueFor is a valid value for a member a "not" forbids, so adding it
// breaks the not alone.
var valueFor = map[string]interface{}{
	fieldRepeat: 1, fieldSettle: 0, fieldCooldown: []interface{}{0, 0},
	"materialized_by": "x", "name": "idle", "state": "idle",
}

// candidates are mutations that may break keyword k of node s at ptr (the
// value there is x) and nothing else; the first that does is the case.
func candidates(s *js.Schema, k string, x interface{}) []interface{} {
	switch k {
	case "type":
		var out []interface{}
		for _, v := range []interface{}{json.Number("1.5"), json.Number("12345"), "a string", true, []interface{}{}, map[string]interface{}{}, nil} {
			out = append(out, v)
		}
		return out
	case "const":
		switch c := s.Const.(type) {
		case string:
			return []interface{}{c + "x"}
		case bool:
			return []interface{}{!c}
		case int:
			return []interface{}{json.Number(strconv.Itoa(c + 1))}
		}
	case "enum":
		return []interface{}{"not-a-member", "manual"}
	case "minLength":
		return []interface{}{strings.Repeat("a", s.MinLength-1)}
	case "maxLength":
		cur, _ := x.(string)
		return []interface{}{cur + strings.Repeat("a", s.MaxLength+1-len([]rune(cur)))}
	case "pattern":
		return []interface{}{" ", "Bad Value", "-x", "0", "pet_X", "Z"}
	case "format":
		return []interface{}{"2025-13-01T00:00:00Z"}
	case "minimum":
		return []interface{}{json.Number(strconv.FormatInt(*s.Minimum-1, 10))}
	case "maximum":
		return []interface{}{json.Number(strconv.FormatInt(*s.Maximum+1, 10))}
	case "minItems":
		a, _ := x.([]interface{})
		if len(a) >= s.MinItems {
			return []interface{}{append([]interface{}{}, a[:s.MinItems-1]...)}
		}
	case "maxItems":
		a, _ := x.([]interface{})
		if len(a) == 0 {
			return nil
		}
		grow := append([]interface{}{}, a...)
		distinct := append([]interface{}{}, a...)
		for i := 0; len(grow) <= s.MaxItems; i++ {
			grow = append(grow, a[len(a)-1])
			if str, ok := a[len(a)-1].(string); ok {
				distinct = append(distinct, str+strconv.Itoa(i))
			}
		}
		return []interface{}{grow, distinct}
	case "uniqueItems":
		a, _ := x.([]interface{})
		out := []interface{}{}
		if len(a) > 0 {
			out = append(out, append(append([]interface{}{}, a...), a[0]))
		}
		if len(a) > 1 {
			same := append([]interface{}{}, a...)
			same[len(same)-1] = a[0]
			out = append(out, same)
		}
		return out
	case "contains":
		a, _ := x.([]interface{})
		if len(a) > 1 {
			b := deepCopy(a).([]interface{})
			b0, ok1 := b[0].(map[string]interface{})
			b1, ok2 := b[1].(map[string]interface{})
			if ok1 && ok2 {
				for _, key := range []string{"name", "state"} {
					if v, ok := b1[key]; ok {
						if _, has := b0[key]; has {
							b0[key] = v
						}
					}
				}
			}
			return []interface{}{b}
		}
	case "maxProperties", "propertyNames", "additionalProperties":
		m, _ := x.(map[string]interface{})
		if m == nil {
			return nil
		}
		b := deepCopy(m).(map[string]interface{})
		switch k {
		case "maxProperties":
			for i := 0; len(b) <= s.MaxProperties; i++ {
				b["com.example.k"+strconv.Itoa(i)] = json.Number("1")
			}
		case "propertyNames":
			b["Not A Domain"] = json.Number("1")
		default:
			b["unexpected_member"] = true
		}
		return []interface{}{b}
	case "anyOf":
		return []interface{}{true, "-bad", "a b"}
	case "oneOf":
		m, _ := x.(map[string]interface{})
		var out []interface{}
		if m != nil {
			b := deepCopy(m).(map[string]interface{})
			if n, ok := b["name"]; ok {
				b["state"] = n
			} else if n, ok := b["state"]; ok {
				b["name"] = n
			}
			out = append(out, b)
		}
		return append(out, map[string]interface{}{"width": json.Number("100"), "height": json.Number("100")})
	case "not":
		n := s.Not
		if n.Pattern != "" {
			return []interface{}{"source/references/a/../b", "a/../b"}
		}
		m, _ := x.(map[string]interface{})
		if m == nil {
			return nil
		}
		names := n.Required
		for _, a := range n.AnyOf {
			names = append(names, a.Required...)
		}
		if len(names) == 0 {
			return nil
		}
		b := deepCopy(m).(map[string]interface{})
		v := valueFor[names[0]]
		b[names[0]] = normalizeTestValue(v)
		return []interface{}{b}
	}
	return nil
}

func normalizeTestValue(v interface{}) interface{} {
	data, _ := json.Marshal(v)
	out, _ := js.Decode(data)
	return out
}

// keywordsOf lists the keywords node s carries, in evaluation order.
func keywordsOf(s *js.Schema) []string {
	var k []string
	add := func(ok bool, name string) {
		if ok {
			k = append(k, name)
		}
	}
	add(len(s.Type) > 0, "type")
	add(s.HasConst, "const")
	add(s.Enum != nil, "enum")
	add(s.MinLength > 0, "minLength")
	add(s.MaxLength > 0, "maxLength")
	add(s.Pattern != "", "pattern")
	add(s.Format != "", "format")
	add(s.Minimum != nil, "minimum")
	add(s.Maximum != nil, "maximum")
	add(s.MinItems > 0, "minItems")
	add(s.MaxItems > 0, "maxItems")
	add(s.UniqueItems, "uniqueItems")
	add(s.Contains != nil, "contains")
	add(s.Closed, "additionalProperties")
	add(s.MaxProperties > 0, "maxProperties")
	add(s.PropertyNames != nil, "propertyNames")
	add(len(s.AnyOf) > 0, "anyOf")
	add(len(s.OneOf) > 0, "oneOf")
	add(s.Not != nil, "not")
	return k
}

func deepCopy(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []interface{}:
		a := make([]interface{}, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// setAt replaces the value at ptr (plain member names and indices) in doc,
// or deletes it when del is true.
func setAt(doc interface{}, ptr string, v interface{}, del bool) interface{} {
	if ptr == "" {
		return v
	}
	parts := strings.Split(ptr[1:], "/")
	cur := doc
	for i, p := range parts {
		p = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]interface{}:
			if last {
				if del {
					delete(c, p)
				} else {
					c[p] = v
				}
				return doc
			}
			cur = c[p]
		case []interface{}:
			n, _ := strconv.Atoi(p)
			if last {
				c[n] = v
				return doc
			}
			cur = c[n]
		}
	}
	return doc
}

// generateSchemaCases walks each document of the every-optional-field
// package along its schema (through $ref, allOf, a matching if's then,
// properties and items) and, for every keyword of every node it reaches,
// keeps the first mutation that breaks that keyword alone. done records
// which (document, node, keyword) triples found one.
func generateSchemaCases(t *testing.T, base pkg) ([]schemaCase, map[string]bool, map[string]bool, map[string]string) {
	var cases []schemaCase
	reached, found, exempt := map[string]bool{}, map[string]bool{}, map[string]string{}
	for _, d := range documents(base) {
		doc := docByPath(d[1])
		inst, err := js.Decode([]byte(d[2]))
		if err != nil {
			t.Fatal(err)
		}
		var walk func(s *js.Schema, x interface{}, ptr, spath string)
		walk = func(s *js.Schema, x interface{}, ptr, spath string) {
			if s == nil {
				return
			}
			key := doc.file + " " + spath
			for _, k := range keywordsOf(s) {
				id := key + " " + k
				reached[id] = true
				if found[id] {
					continue
				}
				want := ptr + memberAdded[k]
				for _, c := range candidates(s, k, x) {
					mutated := setAt(deepCopy(inst), ptr, c, false)
					errs := js.Validate(doc.schema, mutated)
					if !isolated(errs, k, want) {
						continue
					}
					data, _ := json.Marshal(mutated)
					cases = append(cases, schemaCase{d[0], doc, k, want, data})
					found[id] = true
					break
				}
				if r, ok := notIsolable[id]; ok && !found[id] {
					exempt[id] = r
				}
			}
			if obj, ok := x.(map[string]interface{}); ok && len(s.Required) > 0 {
				for _, r := range s.Required {
					id := key + " required " + r
					reached[id] = true
					if _, has := obj[r]; !has || found[id] || r == "schema_version" {
						found[id] = found[id] || r == "schema_version"
						continue
					}
					mutated := setAt(deepCopy(inst), ptr+"/"+r, nil, true)
					if errs := js.Validate(doc.schema, mutated); isolated(errs, "required", ptr+"/"+r) {
						data, _ := json.Marshal(mutated)
						cases = append(cases, schemaCase{d[0], doc, "required", ptr + "/" + r, data})
						found[id] = true
					}
					if r, ok := notIsolable[id]; ok && !found[id] {
						exempt[id] = r
					}
				}
			}
			if s.Ref != nil {
				walk(s.Ref, x, ptr, "#/$defs/"+s.Ref.Name)
			}
			for i, a := range s.AllOf {
				walk(a, x, ptr, spath+"/allOf/"+strconv.Itoa(i))
			}
			if s.If != nil && js.Valid(s.If, x) {
				walk(s.Then, x, ptr, spath+"/then")
			}
			if obj, ok := x.(map[string]interface{}); ok {
				for _, p := range s.Properties {
					if v, ok := obj[p.Name]; ok {
						sp := spath + "/properties/" + p.Name
						if p.Schema.Name != "" {
							sp = "#/$defs/" + p.Schema.Name
						}
						walk(p.Schema, v, ptr+"/"+p.Name, sp)
					}
				}
			}
			if arr, ok := x.([]interface{}); ok && s.Items != nil {
				sp := spath + "/items"
				if s.Items.Name != "" {
					sp = "#/$defs/" + s.Items.Name
				}
				for i, v := range arr {
					walk(s.Items, v, ptr+"/"+strconv.Itoa(i), sp)
				}
			}
		}
		walk(doc.schema, inst, "", "#")
	}
	return cases, reached, found, exempt
}

// isolated: the mutation broke keyword k and nothing else, first at ptr.
func isolated(errs []js.Error, k, ptr string) bool {
	if len(errs) == 0 || errs[0].Pointer != ptr {
		return false
	}
	for _, e := range errs {
		if e.Keyword != k {
			return false
		}
	}
	return true
}

func docByPath(path string) *metaDocument {
	for _, d := range metaDocuments {
		if d.path == path {
			return d
		}
	}
	return nil
}

// memberAdded is where a keyword that is broken by adding a member
// reports: at the member.
var memberAdded = map[string]string{
	"additionalProperties": "/unexpected_member",
	"propertyNames":        "/Not A Domain",
}

// notIsolable are the (schema file, schema node, keyword) triples the walk
// reaches but no single mutation can break alone, each with the reason;
// every other reachable keyword must yield a case.
var notIsolable = func() map[string]string {
	const (
		emptyFailsPattern = "the only shorter string, \"\", fails the pattern too"
		vacuousNot        = "a value of another type also fails the node's not, which JSON Schema applies vacuously to non-strings"
		vacuousThen       = "a value of another type also fails the node's if/then clauses, whose required and properties hold vacuously for it"
		sizeAlternative   = "the node is an alternative of renderSize's oneOf (through lowSize under the quality's if/then), so breaking it breaks the oneOf too"
		sizeOneOf         = "a size of no tier also breaks the quality's if/then, and every document here that carries render_size carries quality"
		briefContains     = "the states' contains clauses count each action, so one brief more or less breaks them too"
		fullSourceConst   = "skill-full-source's then-clause also requires the constant false"
		nineNames         = "a tenth distinct action name does not exist, and a repeat breaks uniqueItems"
	)
	m := map[string]string{}
	add := func(reason string, files []string, ids ...string) {
		for _, f := range files {
			for _, id := range ids {
				m[f+" "+id] = reason
			}
		}
	}
	all := []string{"pet-source.schema.json", "pet-brief.schema.json", "pet-source-event.schema.json", "pet-validation.schema.json"}
	sized := []string{"pet-brief.schema.json", "pet-source-event.schema.json"}
	add(emptyFailsPattern, all, "#/$defs/boundedText minLength", "#/$defs/referencePath minLength",
		"#/properties/pet_name minLength", "#/properties/style minLength", "#/properties/name minLength",
		"#/$defs/stateBrief/properties/motion minLength", "#/properties/petpack_source minLength", "#/properties/validator_version minLength")
	add(vacuousNot, all, "#/$defs/referencePath type", "#/properties/petpack_source type")
	add(vacuousThen, all, "# type", "#/$defs/playback type")
	add(sizeAlternative, sized, "#/$defs/renderSizeShape type", "#/$defs/renderSizeShape additionalProperties",
		"#/$defs/renderSizeShape required width", "#/$defs/renderSizeShape required height",
		"#/$defs/renderSizeShape/properties/width type", "#/$defs/renderSizeShape/properties/height type",
		"#/$defs/lowSize/properties/width const", "#/$defs/lowSize/properties/height const")
	add(sizeOneOf, sized, "#/$defs/renderSize oneOf")
	add(briefContains, []string{"pet-brief.schema.json"}, "#/properties/states minItems", "#/properties/states maxItems", "#/$defs/stateBrief type")
	add(fullSourceConst, []string{"pet-source.schema.json"}, "#/properties/preview_only type")
	add(nineNames, all, "#/properties/changed_states maxItems", "#/properties/states maxItems")
	return m
}()

// TestSchemaRules is the generated table: for every keyword of every node
// of each of the four schemas that the every-optional-field package
// reaches, a mutation of that package breaking that keyword alone is
// rejected with the keyword's rule, at the document and JSON pointer the
// mutation touched (the first case of each rule through the whole
// validator, the others through stage 5's decoding of that document), and
// the independent JSON Schema implementation rejects the mutated document
// too.
func TestSchemaRules(t *testing.T) {
	// Two frames an action keep the hundreds of validations below cheap;
	// the metadata is the same shape at any frame count.
	base := everyOptionalFieldOf(minimalStates())
	if v := validateBytes(rawZip(base)); !v.OK() {
		t.Fatalf("the every-optional-field package is rejected:\n%s", describeVerdict(v))
	}
	schemas := compileSchemas(t)
	cases, reached, found, exempt := generateSchemaCases(t, base)
	perRule := map[Rule]int{}
	for _, tc := range cases {
		tc := tc
		rule := schemaRules[tc.keyword]
		switch {
		case tc.pointer == "/schema_version":
			rule = RuleMetadataSchemaVersion // read first, and fails closed
		case tc.pointer == "" && tc.keyword == "type":
			rule = RuleMetadataMalformed // a document is one JSON object
		}
		perRule[rule]++
		whole := perRule[rule] == 1 // the first case of each rule runs the whole validator
		t.Run(fmt.Sprintf("%s%s %s", tc.where, tc.pointer, tc.keyword), func(t *testing.T) {
			t.Parallel()
			if refValidate(schemas[tc.doc.path], string(tc.data)) == nil {
				t.Errorf("the independent JSON Schema implementation accepts the mutated %s", tc.where)
			}
			var f Finding
			if whole {
				p := base
				if tc.doc.path == sessionPath {
					lines := strings.SplitAfter(string(base.get(sessionPath)), "\n")
					n, _ := strconv.Atoi(strings.TrimPrefix(tc.where, sessionPath+":"))
					lines[n-1] = string(tc.data) + "\n"
					p = p.with(sessionPath, []byte(strings.Join(lines, "")))
				} else {
					p = p.with(tc.doc.path, tc.data)
				}
				v := validateBytes(rawZip(p))
				expectRules(t, v, rule)
				f = v.Errors[0]
			} else {
				// Stage 5's own decoding of the one document: the rest
				// of the package is the valid base the whole-validator
				// cases already checked.
				c := newChecker()
				if decodeMetadata(c, tc.where, tc.data, tc.doc) != nil {
					t.Fatal("the mutated document is accepted")
				}
				for _, g := range c.findings {
					if g.Rule != rule {
						t.Fatalf("finding %s, want only %s", g, rule)
					}
				}
				f = c.findings[0]
				coveredMu.Lock()
				covered[rule] = true
				coveredMu.Unlock()
			}
			if f.Path != tc.where || f.Pointer != tc.pointer {
				t.Errorf("finding %s, want %s at %s", f, tc.where, tc.pointer)
			}
		})
	}
	// Every reachable keyword produced a case, unless a stated reason says
	// it cannot; and every schema rule has a case.
	var missing []string
	for id := range reached {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	var unexplained []string
	for _, id := range missing {
		if exempt[id] == "" {
			unexplained = append(unexplained, id)
		}
	}
	if len(unexplained) > 0 {
		t.Errorf("no isolating mutation for:\n  %s", strings.Join(unexplained, "\n  "))
	}
	for _, r := range schemaRules {
		if perRule[r] == 0 {
			t.Errorf("rule %s has no generated case", r)
		}
	}
	t.Logf("%d generated cases over %d reachable keywords", len(cases), len(reached))
}
