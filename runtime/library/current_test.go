package library

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// TestCurrent: Current returns the current revision's manifest and every
// state's frames in the revision directory, in natural order; after a new
// revision, that one; an unknown pet is ErrNotFound.
func TestCurrent(t *testing.T) {
	s := openTest(t, t.TempDir(), Options{})
	mustImport(t, s, variant(t, t.TempDir(), "pet_tabby", "Tabby", ""), ImportOptions{})
	c, err := s.Current("pet_tabby")
	if err != nil {
		t.Fatal(err)
	}
	if c.Manifest.ID != "pet_tabby" || c.Pet.Revision != 1 {
		t.Fatalf("manifest %q, revision %d", c.Manifest.ID, c.Pet.Revision)
	}
	for _, st := range c.Manifest.States {
		fs := c.Frames[st.Name]
		if len(fs) != len(st.FrameDurationsMS) {
			t.Fatalf("%s: %d frames, %d durations", st.Name, len(fs), len(st.FrameDurationsMS))
		}
		for i, f := range fs {
			if want := filepath.Join(s.Root(), "pets", "pet_tabby", "revisions", "1", "frames", string(st.Name)); filepath.Dir(f) != want {
				t.Fatalf("%s frame %d is %s, not in %s", st.Name, i, f, want)
			}
			if i > 0 && !petpack.NaturalLess(filepath.Base(fs[i-1]), filepath.Base(f)) {
				t.Fatalf("%s frames out of order: %s before %s", st.Name, fs[i-1], f)
			}
			if _, err := os.Stat(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	renamed := variant(t, t.TempDir(), "pet_tabby", "Tabby Two", "")
	mustImport(t, s, renamed, ImportOptions{})
	if c, err = s.Current("pet_tabby"); err != nil || c.Pet.Revision != 2 || c.Manifest.Name != "Tabby Two" {
		t.Fatalf("after a second import: %+v, %v", c, err)
	}
	if _, err := s.Current("pet_none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown pet: %v", err)
	}
}
