package petpackbuild

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestWriterMatchesSchemas holds what the writer produces (from a
// directory, and from a spec with references and with and without the
// optional producer fields) against the published V3 schemas in the repository's
// schemas/ directory, read by an independent JSON Schema implementation
// (Draft 2020-12, formats asserted): every metadata document, each session
// record on its own.
func TestWriterMatchesSchemas(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	for _, f := range petpack.SchemaFiles() {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		c.AssertFormat = true
		s, err := c.Compile(filepath.Join("../../schemas", f[0]))
		if err != nil {
			t.Fatal(err)
		}
		schemas[f[1]] = s
	}
	res, _ := built(t, Options{})
	packages := map[string][]File{"directory build": res.Files}
	for _, p := range []Producer{
		{Generator: "spec_test", Provenance: "deterministic"},
		{Generator: "spec_test", Provenance: "external", VisualSource: "manual", Description: "A cat.",
			PreviewOnly: new(bool), Motions: map[string]string{"idle": "Breathes."}},
	} {
		s, read := specFixture(t)
		s.Producer = p
		files, opt, err := Assemble(s, read)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Pack(files, opt)
		if err != nil {
			t.Fatal(err)
		}
		packages["spec "+p.Provenance] = res.Files
	}
	for name, files := range packages {
		checked := 0
		for _, f := range files {
			s := schemas[f.Path]
			if s == nil {
				continue
			}
			docs := []string{string(f.Data)}
			if strings.HasSuffix(f.Path, ".jsonl") {
				docs = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
			}
			for i, d := range docs {
				var v interface{}
				dec := json.NewDecoder(strings.NewReader(d))
				dec.UseNumber()
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("%s %s: %v", name, f.Path, err)
				}
				if err := s.Validate(v); err != nil {
					t.Errorf("%s: %s record %d fails its schema: %v", name, f.Path, i+1, err)
				}
				checked++
			}
		}
		if checked < 5 {
			t.Errorf("%s: only %d metadata documents checked", name, checked)
		}
	}
}
