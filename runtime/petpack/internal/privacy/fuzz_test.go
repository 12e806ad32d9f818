package privacy

import (
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/fuzzseed"
	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

const privacySeedDir = "testdata/fuzz/FuzzPrivacy"

// FuzzPrivacy feeds any bytes to the privacy scan of one metadata
// document: it never panics, every finding is one of Kinds(), the
// same bytes give the same findings, and no finding's message repeats a
// string of the document of 12 bytes or more (the scan names what it
// found, never the value, which may be a secret). The seeds in
// testdata/fuzz/FuzzPrivacy (three leaks and three harmless texts of each
// bullet of privacyTables, keys, and the bounds) also run as plain tests.
func FuzzPrivacy(f *testing.F) {
	known := map[Kind]bool{}
	for _, k := range Kinds() {
		known[k] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		found, err := Scan(data)
		if err != nil {
			return
		}
		again, _ := Scan(data)
		if !reflect.DeepEqual(found, again) {
			t.Fatalf("two scans differ: %v, %v", found, again)
		}
		var strs []string
		var doc interface{}
		if json.Unmarshal(data, &doc) == nil {
			collectStrings(doc, &strs)
		}
		for _, fd := range found {
			if !known[fd.Kind] {
				t.Fatalf("%s is not one of Kinds()", fd.Kind)
			}
			for _, s := range strs {
				if len(s) >= 12 && strings.Contains(fd.What, s) {
					t.Fatalf("finding %q repeats a value of the document", fd.What)
				}
			}
		}
	})
}

// collectStrings appends every string (keys too) of a decoded document.
func collectStrings(v interface{}, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case map[string]interface{}:
		for k, x := range v {
			*out = append(*out, k)
			collectStrings(x, out)
		}
	case []interface{}:
		for _, x := range v {
			collectStrings(x, out)
		}
	}
}

// privacySeeds are documents holding the first three leaks and harmless
// texts of each bullet as an extension's note, a few keys, and the
// nesting and size bounds at and past their limits.
func privacySeeds() map[string][]byte {
	out := map[string][]byte{}
	for i, tb := range privacyTables {
		for j, s := range tb.leaks[:3] {
			out[fmt.Sprintf("bullet%d_leak%d", i+1, j)] = noteDoc(s)
		}
		for j, s := range tb.harmless[:3] {
			out[fmt.Sprintf("bullet%d_harmless%d", i+1, j)] = noteDoc(s)
		}
	}
	for i, tb := range privacyKeyTables {
		out[fmt.Sprintf("keys%d", i)] = []byte(`{"extensions":{"com.example.test":{"` + tb.leaks[0] + `":"x","` + tb.harmless[0] + `":"y"}}}`)
	}
	out["chat_message"] = []byte(`{"log":[{"role":"user","content":"hi"}]}`)
	out["depth_64"] = []byte(strings.Repeat("[", 65) + strings.Repeat("]", 65))
	out["depth_65"] = []byte(strings.Repeat("[", 66) + strings.Repeat("]", 66))
	out["not_json"] = []byte(`{"a":`)
	return out
}

func noteDoc(s string) []byte {
	b, err := json.Marshal(map[string]interface{}{"schema_version": model.BriefSchemaVersion, "extensions": map[string]interface{}{"com.example.test": map[string]string{"note": s}}})
	if err != nil {
		panic(err)
	}
	return b
}

// TestFuzzPrivacySeeds writes the corpus with -update-seeds and otherwise
// checks that it is there and current.
func TestFuzzPrivacySeeds(t *testing.T) {
	fuzzseed.Sync(t, privacySeedDir, privacySeeds(), *updateSeeds, "go test ./runtime/petpack/internal/privacy -run TestFuzzPrivacySeeds -update-seeds")
}

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzPrivacy")
