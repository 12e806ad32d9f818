package library

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzImport sends arbitrary bytes through import: whatever the validator
// rejects leaves the store exactly as it was, and whatever it accepts is
// installed with the store's invariants intact. The seeds are the checked-in
// corpus plus the sample pet and its broken variants, made at test time.
func FuzzImport(f *testing.F) {
	dir := f.TempDir()
	for _, p := range append([]brokenArchive{{name: "sample", path: variant(f, dir, "pet_fuzz", "Fuzz", "")}}, brokenArchives(f, dir)...) {
		data, err := os.ReadFile(p.path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	root := filepath.Join(dir, "store")
	s := openTest(f, root, Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := filepath.Join(t.TempDir(), "in.petpack")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, root)
		verdict := validatePath(in)
		_, err := s.Import(in, ImportOptions{})
		switch {
		case verdict != nil && err == nil:
			t.Fatalf("imported an archive the validator rejects: %v", verdict)
		case verdict != nil:
			if after := snapshot(t, root); after != before {
				t.Fatalf("a rejected archive changed the store:\n%s\nwant\n%s", after, before)
			}
		case err != nil:
			t.Fatalf("the validator accepts it, import says %v", err)
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
	})
}
