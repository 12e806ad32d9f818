package library

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyTree copies a closed store (or any tree) to dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

var errInjected = errors.New("injected fault")

// TestFaultInjection makes every step of every write fail in turn and
// compares the store (files, bytes and rows) and the export destination's
// directory with a snapshot taken before.
func TestFaultInjection(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	alpha1 := variant(t, dir, "pet_alpha", "Alpha", "")
	alpha2 := variant(t, dir, "pet_alpha", "Alpha", "two")
	alpha3 := variant(t, dir, "pet_alpha", "Alpha", "three")
	gamma := variant(t, dir, "pet_gamma", "Gamma", "")
	bundleDir := func(extra string) (string, []BundledPet) {
		d, err := os.MkdirTemp(dir, "bundle")
		if err != nil {
			t.Fatal(err)
		}
		p := variant(t, d, "pet_bundled", "Bundled", extra)
		final := filepath.Join(d, "pet_bundled.petpack")
		os.Rename(p, final)
		digest, _, _ := hashFile(final)
		return d, []BundledPet{{ID: "pet_bundled", SHA256: digest}}
	}
	b1, inv1 := bundleDir("")
	b2, inv2 := bundleDir("changed")
	s := openTest(t, base, Options{})
	mustImport(t, s, alpha1, ImportOptions{})
	mustImport(t, s, alpha2, ImportOptions{})
	if _, err := s.Seed(inv1, b1); err != nil {
		t.Fatal(err)
	}
	s.Close()

	exportDir := filepath.Join(dir, "exports")
	os.Mkdir(exportDir, 0o755)
	os.WriteFile(filepath.Join(exportDir, "alpha.petpack"), []byte("an older export"), 0o644)
	install := []string{StepValidated, StepStage, StepStageArchive, StepStageMedia, StepStageSync, StepChecks, StepIntent, StepPublish, StepPointer, StepCommit}
	ops := []struct {
		name string
		run  func(s *Store) error
		// steps are the hooks the operation passes, each failed in turn.
		steps []string
	}{
		{"import new pet", func(s *Store) error { _, err := s.Import(gamma, ImportOptions{}); return err }, install},
		{"import same ID", func(s *Store) error { _, err := s.Import(alpha3, ImportOptions{}); return err }, install},
		{"seed changed bundled pet", func(s *Store) error { _, err := s.Seed(inv2, b2); return err }, install},
		{"current", func(s *Store) error { _, err := s.SetCurrent("pet_alpha", 1); return err }, []string{StepIntent, StepPointer, StepCommit}},
		{"delete", func(s *Store) error { return s.Delete("pet_alpha") }, []string{StepIntent, StepTrash, StepCommit}},
		{"activate", func(s *Store) error { return s.Activate("pet_bundled") }, []string{StepCommit}},
		{"export", func(s *Store) error { return s.Export("pet_alpha", filepath.Join(exportDir, "alpha.petpack"), 0) },
			[]string{StepExportCopy, StepExportValidate, StepExportPublish}},
	}
	n := 0
	for _, op := range ops {
		// A first run learns the op's steps.
		var steps []string
		root := filepath.Join(dir, "learn-"+filepath.Base(t.TempDir()))
		copyTree(t, base, root)
		ls := openTest(t, root, Options{Hook: func(name string) error { steps = append(steps, name); return nil }})
		if err := op.run(ls); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		ls.Close()
		os.WriteFile(filepath.Join(exportDir, "alpha.petpack"), []byte("an older export"), 0o644)
		// A step the operation no longer passes would drop its fault
		// silently; a new one must be added here (and to the README's
		// count).
		if diff := cmp.Diff(op.steps, steps); diff != "" {
			t.Fatalf("%s passes other steps (-want +got):\n%s", op.name, diff)
		}
		for i, step := range steps {
			t.Run(op.name+"/"+step, func(t *testing.T) {
				root := filepath.Join(dir, "case-"+filepath.Base(t.TempDir()))
				copyTree(t, base, root)
				k := 0
				s := openTest(t, root, Options{Hook: func(name string) error {
					k++
					if k == i+1 {
						return errInjected
					}
					return nil
				}})
				before := snapshot(t, root) + snapshot(t, exportDir)
				if err := op.run(s); !errors.Is(err, errInjected) {
					t.Fatalf("got %v", err)
				}
				if after := snapshot(t, root) + snapshot(t, exportDir); after != before {
					t.Fatalf("the store changed:\n%s\nwant\n%s", after, before)
				}
				if err := s.Check(); err != nil {
					t.Fatal(err)
				}
				n++
			})
		}
	}
	// The README's figure: every step of the seven writes above.
	if n != 40 {
		t.Errorf("%d injected faults left the store as it was, want 40", n)
	}
}
