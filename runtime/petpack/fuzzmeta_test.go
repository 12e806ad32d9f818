package petpack

import (
	"encoding/json"
	"strings"
	"testing"

	js "github.com/agentpet/rules_pet/internal/jsonschema"
)

const metaSeedDir = "testdata/fuzz/FuzzMetadata"

// FuzzMetadata feeds any bytes to each metadata document's decoding as the
// validator reads it: it never panics, every finding is a stage-5 rule, a
// rejection has a finding, and a document it accepts still passes its
// schema after a round trip through encoding/json. The seeds in
// testdata/fuzz/FuzzMetadata (each document of the every-optional-field
// package, and broken ones) also run as plain tests.
func FuzzMetadata(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range metaDocuments {
			c := newChecker()
			doc := decodeMetadata(c, d.path, data, d)
			for _, fd := range c.findings {
				if fd.Rule.Stage() != StageMetadata {
					t.Fatalf("%s: %s is not a metadata rule", d.path, fd.Rule)
				}
			}
			if doc == nil {
				if len(c.findings) == 0 {
					t.Fatalf("%s rejected without a finding", d.path)
				}
				continue
			}
			if len(c.findings) != 0 {
				t.Fatalf("%s accepted with findings %v", d.path, c.findings)
			}
			again, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			v, err := js.Decode(again)
			if err != nil || len(js.Validate(d.schema, v)) != 0 {
				t.Fatalf("%s: accepted, but its re-encoding is not (%v)", d.path, err)
			}
		}
	})
}

// metaSeeds are the documents of the every-optional-field package and a
// few broken ones.
func metaSeeds() map[string][]byte {
	out := map[string][]byte{
		"not_json":     []byte(`{"schema_version":`),
		"duplicate":    []byte(`{"schema_version":"apc.pet-brief.v1","schema_version":"apc.pet-source.v1"}`),
		"old_shape":    []byte(`{"schema_version":"apc.pet-source-event.v1","sequence":1,"type":"started"}`),
		"huge_numbers": []byte(`{"schema_version":"apc.pet-validation.v1","ok":true,"frame_count":1e999999999,"states":[],"state_frame_counts":{}}`),
	}
	for _, d := range documents(everyOptionalField()) {
		out[strings.NewReplacer("/", "_", ":", "_", ".", "_").Replace(d[0])] = []byte(d[2])
	}
	return out
}

// TestFuzzMetadataSeeds writes the corpus with -update-seeds and otherwise
// checks that it is there and current.
func TestFuzzMetadataSeeds(t *testing.T) {
	syncSeeds(t, metaSeedDir, metaSeeds(), "TestFuzzMetadataSeeds")
}
