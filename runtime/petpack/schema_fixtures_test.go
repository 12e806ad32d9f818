package petpack

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// compileSchemas compiles the published schema files with an independent
// JSON Schema implementation, keyed by the package path of the document
// each one describes.
func compileSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, d := range metaDocuments {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		file := filepath.Join(schemaDir, d.schema)
		s, err := c.Compile(file)
		if err != nil {
			t.Fatalf("%s does not compile as JSON Schema 2020-12: %v", file, err)
		}
		out[d.path] = s
	}
	return out
}

// schemaErrors validates each metadata document of p (each record of the
// session log alone) against its published schema and returns the
// failures keyed by document, the session's by "PATH:LINE".
func schemaErrors(t *testing.T, schemas map[string]*jsonschema.Schema, p pkg) map[string]error {
	t.Helper()
	out := map[string]error{}
	check := func(where string, s *jsonschema.Schema, data []byte) {
		var v interface{}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // the schema tells 50 from 50.5
		err := dec.Decode(&v)
		if err == nil {
			err = s.Validate(v)
		}
		if err != nil {
			out[where] = err
		}
	}
	for _, d := range metaDocuments {
		data := p.get(d.path)
		if d.path != sessionPath {
			check(d.path, schemas[d.path], data)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		for i, line := range lines {
			check(sessionPath+":"+strconv.Itoa(i+1), schemas[d.path], []byte(strings.TrimSuffix(line, "\r")))
		}
	}
	return out
}

// schemaRules are the metadata rules a JSON Schema can express: each
// fixture breaking one must fail the published schema of its document too.
// The rest are the validator's alone: malformed JSON never reaches a
// schema, a duplicate key is invisible once decoded, and the cross-file
// checks compare documents with each other and with the file set.
var schemaRules = map[Rule]bool{
	RuleMetadataSchemaVersion:    true,
	RuleMetadataUnknownField:     true,
	RuleMetadataFieldType:        true,
	RuleMetadataFieldMissing:     true,
	RuleMetadataValueInvalid:     true,
	RuleMetadataExtensionInvalid: true,
}

// TestSchemasAcceptValidFixtures: every document of every valid metadata
// fixture passes its published schema.
func TestSchemasAcceptValidFixtures(t *testing.T) {
	schemas := compileSchemas(t)
	for _, tc := range validMetadataCases() {
		t.Run(tc.name, func(t *testing.T) {
			for where, err := range schemaErrors(t, schemas, tc.p) {
				t.Errorf("%s fails its schema: %v", where, err)
			}
		})
	}
}

// TestSchemasRejectBrokenFixtures: each fixture that breaks a schema-level
// rule fails the published schema of exactly the document the validator
// names, and the other documents still pass theirs.
func TestSchemasRejectBrokenFixtures(t *testing.T) {
	schemas := compileSchemas(t)
	tried := 0
	for _, tc := range metadataRuleCases() {
		if !schemaRules[tc.rule] {
			continue
		}
		tried++
		t.Run(tc.name, func(t *testing.T) {
			errs := schemaErrors(t, schemas, tc.p)
			if errs[tc.path] == nil {
				t.Errorf("%s breaks %s, but its schema accepts it", tc.path, tc.rule)
			}
			for where, err := range errs {
				if where != tc.path {
					t.Errorf("%s, which the fixture did not change, fails its schema: %v", where, err)
				}
			}
		})
	}
	if tried < len(schemaRules) {
		t.Fatalf("only %d schema-level fixtures; every schema-level rule needs one", tried)
	}
}
