package petpack

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
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
		compareWithArchiveZip(t, data)
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

// compareWithArchiveZip is the differential check: whatever passes our
// container stage, archive/zip must read the same way.
func compareWithArchiveZip(t *testing.T, data []byte) {
	c := newChecker()
	a := readArchive(c, bytes.NewReader(data), int64(len(data)))
	if a == nil {
		return
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err.Error() != "zip: insecure file path" {
		t.Fatalf("our container stage accepts what archive/zip rejects: %v", err)
	}
	if len(zr.File) != len(a.entries) {
		t.Fatalf("archive/zip sees %d entries, we see %d", len(zr.File), len(a.entries))
	}
	set := a.fileSet()
	for i, zf := range zr.File {
		e := &a.entries[i]
		if e.nameLen == len(e.name) && zf.Name != e.name {
			t.Fatalf("entry %d: archive/zip names %q, we name %q", i, zf.Name, e.name)
		}
		off, err := zf.DataOffset()
		if err != nil || off != e.data || int64(zf.CompressedSize64) != e.csize || int64(zf.UncompressedSize64) != e.usize || zf.CRC32 != e.crc || zf.Method != e.method {
			t.Fatalf("entry %d %q: archive/zip reads a different record (%v)", i, zf.Name, err)
		}
		ours, oerr := readAll(set.src.open(&set.entries[i]))
		if oerr != nil {
			continue // ours is stricter (CRC of zero, trailing deflate bytes)
		}
		theirs, terr := readAll(zf.Open())
		if terr != nil || !bytes.Equal(ours, theirs) {
			t.Fatalf("entry %d %q: we read %d bytes, archive/zip %d (%v)", i, zf.Name, len(ours), len(theirs), terr)
		}
	}
}

func readAll(rc io.ReadCloser, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
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
	smallStored := buildZip(zspec{entries: entriesOf(small, true)})
	m := small.get("manifest.json")
	return map[string][]byte{
		"valid_stored":      smallStored,
		"valid_deflate":     rawZip(small),
		"valid_archive_zip": zipStd(t, small),
		"symlink": buildZip(zspec{entries: append(entriesOf(small, false), zent{name: "link", data: []byte("/etc"),
			madeBy: creatorUnix<<8 | 20, ext: 0xa1ff << 16})}),
		"overlap": buildZip(zspec{entries: func() []zent {
			es := entriesOf(small, false)
			dup := es[0]
			dup.noLocal = true
			return append(es, dup)
		}()}),
		"lying_size": buildZip(zspec{entries: append(entriesOf(small, false), func() zent {
			e := zent{name: "x", data: make([]byte, 4096), method: methodDeflate}
			lie(&e, 10)
			return e
		}())}),
		"local_mismatch": buildZip(zspec{entries: editEntry(small, "brief.json", func(e *zent) { e.local = func(h []byte) { put32(h[14:], 1) } })}),
		"traversal":      buildZip(zspec{entries: append(entriesOf(small, false), zent{name: "../../etc/passwd", data: []byte("x")})}),
		"huge_ihdr":      buildZip(zspec{entries: entriesOf(small.with("assets/frames/idle/0000.png", ihdrOnly(20000, 20000, 8)), false)}),
		"legacy":         buildZip(zspec{entries: entriesOf(small.withManifest(func(m jmap) { m["schema_version"] = "apc.petpack.v2" }), false)}),
		"bad_timing":     buildZip(zspec{entries: entriesOf(small.withManifest(func(m jmap) { setPlayback(ActionIdle, "mode", "loop")(m) }), false)}),
		"manifest":       m,
		"manifest_dup":   []byte(`{"schema_version":"apc.petpack.v3","schema_version":"apc.petpack.v1"}`),
		"end_only":       buildZip(zspec{}),
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
	for name, b := range want {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		path := filepath.Join(dir, name)
		if *updateSeeds {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != text {
			t.Errorf("seed %s missing or stale (regenerate with go test ./runtime/petpack -run %s -update-seeds): %v", path, test, err)
		}
	}
}
