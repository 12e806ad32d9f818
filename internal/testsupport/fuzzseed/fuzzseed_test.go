package fuzzseed

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder counts the failures Sync reports instead of failing the test.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Errorf(string, ...interface{}) { r.errors++ }

func TestSyncAndRead(t *testing.T) {
	dir := t.TempDir()
	seeds := map[string][]byte{"a": []byte("plain"), "b": {0, 0xff, '\n', '"', ')'}}
	Sync(t, dir, seeds, true, "")
	for name, want := range seeds {
		if got := Read(t, filepath.Join(dir, name)); string(got) != string(want) {
			t.Errorf("%s: read %q, wrote %q", name, got, want)
		}
	}
	r := &recorder{TB: t}
	Sync(r, dir, seeds, false, "")
	if r.errors != 0 {
		t.Fatalf("a current corpus: %d failures", r.errors)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte(encode([]byte("old"))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	Sync(r, dir, seeds, false, "")
	if r.errors != 2 {
		t.Fatalf("a stale and a missing seed: %d failures, want 2", r.errors)
	}
}
