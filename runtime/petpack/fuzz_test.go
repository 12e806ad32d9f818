package petpack

import (
	"encoding/json"
	"flag"
	"reflect"
	"testing"

	"github.com/agentpet/rules_pet/internal/petpackzip"
	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
	"github.com/agentpet/rules_pet/internal/testsupport/fuzzseed"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzValidateArchive")

const seedDir = "testdata/fuzz/FuzzValidateArchive"

// FuzzValidateArchive checks, for any bytes: Validate never panics and is
// deterministic; every finding names a rule of the table with its severity,
// in stage order; an archive whose container stage passes is one
// archive/zip also reads, with the same entries and content; and, read as
// manifest.json, an accepted manifest re-encodes to one that decodes the
// same. The seeds in testdata/fuzz/FuzzValidateArchive also run as plain
// tests.
func FuzzValidateArchive(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		v := validateBytes(data)
		checkVerdict(t, v)
		if again := validateBytes(data); !reflect.DeepEqual(again, v) {
			t.Fatalf("two validations differ:\n%s---\n%s", describeVerdict(v), describeVerdict(again))
		}
		ziptest.AgreesWithArchiveZip(t, data, petpackzip.Limits)
		checkManifestRoundTrip(t, data)
	})
}

func checkVerdict(t *testing.T, v *Verdict) {
	for _, list := range [][]Finding{v.Errors, v.Warnings} {
		last := Stage(0)
		for _, f := range list {
			st := f.Rule.Stage()
			if st == 0 {
				t.Fatalf("unknown rule %q", f.Rule)
			}
			if st < last {
				t.Fatalf("%s (stage %d) after stage %d", f.Rule, st, last)
			}
			last = st
			if want := SeverityError; f.Rule.IsWarning() {
				want = SeverityWarning
				if f.Severity != want {
					t.Fatalf("%s with severity %s", f.Rule, f.Severity)
				}
			}
		}
	}
	for _, f := range v.Errors {
		if f.Severity != SeverityError {
			t.Fatalf("error list holds %v", f)
		}
	}
	if v.OK() != (v.Err() == nil) {
		t.Fatal("OK and Err disagree")
	}
	if v.OK() && v.Manifest == nil {
		t.Fatal("a valid package without a manifest")
	}
}

func checkManifestRoundTrip(t *testing.T, data []byte) {
	v := ValidateManifest(data)
	checkVerdict(t, v)
	if v.Manifest == nil {
		return
	}
	again, err := json.Marshal(v.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	v2 := ValidateManifest(again)
	if !v2.OK() || !reflect.DeepEqual(v2.Manifest, v.Manifest) {
		t.Fatalf("an accepted manifest does not round-trip:\n%s", describeVerdict(v2))
	}
}

// seeds are the corpus: valid packages written three ways, hostile archives
// that each stop at a different rule, and manifests.
func seeds(t testing.TB) map[string][]byte {
	small := packageDrawn(minimalStates(), tinyPNG)
	smallStored := ziptest.Build(ziptest.Spec{Entries: entriesOf(small, true)})
	m := small.get("manifest.json")
	return map[string][]byte{
		"valid_stored":      smallStored,
		"valid_deflate":     rawZip(small),
		"valid_archive_zip": zipStd(small),
		"symlink": ziptest.Build(ziptest.Spec{Entries: append(entriesOf(small, false), ziptest.Entry{Name: "link", Data: []byte("/etc"),
			MadeBy: zipspec.CreatorUnix<<8 | 20, Ext: 0xa1ff << 16})}),
		"overlap": ziptest.Build(ziptest.Spec{Entries: func() []ziptest.Entry {
			es := entriesOf(small, false)
			dup := es[0]
			dup.NoLocal = true
			return append(es, dup)
		}()}),
		"lying_size": ziptest.Build(ziptest.Spec{Entries: append(entriesOf(small, false), func() ziptest.Entry {
			e := ziptest.Entry{Name: "x", Data: make([]byte, 4096), Method: strictzip.Deflate}
			ziptest.Lie(&e, 10)
			return e
		}())}),
		"local_mismatch": ziptest.Build(ziptest.Spec{Entries: editEntry(small, "brief.json", func(e *ziptest.Entry) { e.Local = func(h []byte) { ziptest.Put32(h[14:], 1) } })}),
		"traversal":      ziptest.Build(ziptest.Spec{Entries: append(entriesOf(small, false), ziptest.Entry{Name: "../../etc/passwd", Data: []byte("x")})}),
		"huge_ihdr":      ziptest.Build(ziptest.Spec{Entries: entriesOf(small.with("assets/frames/idle/0000.png", ihdrOnly(20000, 20000, 8)), false)}),
		"legacy":         ziptest.Build(ziptest.Spec{Entries: entriesOf(small.withManifest(func(m jmap) { m["schema_version"] = "apc.petpack.v2" }), false)}),
		"bad_timing":     ziptest.Build(ziptest.Spec{Entries: entriesOf(small.withManifest(func(m jmap) { setPlayback(ActionIdle, "mode", "loop")(m) }), false)}),
		"manifest":       m,
		"manifest_dup":   []byte(`{"schema_version":"apc.petpack.v3","schema_version":"apc.petpack.v1"}`),
		"end_only":       ziptest.Build(ziptest.Spec{}),
		"zip64_python":   ziptest.Build(ziptest.Spec{Entries: ziptest.Zip64Entries(entriesOf(small, false), false, nil)}),
		"zip64_fz":       ziptest.WithZip64End(ziptest.Spec{Entries: ziptest.Zip64Entries(entriesOf(small, false), true, nil)}, nil),
	}
}

// TestFuzzSeeds writes the corpus with -update-seeds and otherwise checks
// that it is there and current, so the plain test run exercises every seed.
func TestFuzzSeeds(t *testing.T) {
	syncSeeds(t, seedDir, seeds(t), "TestFuzzSeeds")
}

// syncSeeds writes each seed under dir in the go fuzz corpus format with
// -update-seeds, and otherwise fails for a seed that is missing or stale.
func syncSeeds(t *testing.T, dir string, want map[string][]byte, test string) {
	t.Helper()
	fuzzseed.Sync(t, dir, want, *updateSeeds, "go test ./runtime/petpack -run "+test+" -update-seeds")
}
