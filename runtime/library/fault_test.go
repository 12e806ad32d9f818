package library

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
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
	ops := []struct {
		name string
		run  func(s *Store) error
	}{
		{"import new pet", func(s *Store) error { _, err := s.Import(gamma, ImportOptions{}); return err }},
		{"import same ID", func(s *Store) error { _, err := s.Import(alpha3, ImportOptions{}); return err }},
		{"seed changed bundled pet", func(s *Store) error { _, err := s.Seed(inv2, b2); return err }},
		{"current", func(s *Store) error { _, err := s.SetCurrent("pet_alpha", 1); return err }},
		{"delete", func(s *Store) error { return s.Delete("pet_alpha") }},
		{"activate", func(s *Store) error { return s.Activate("pet_bundled") }},
		{"export", func(s *Store) error { return s.Export("pet_alpha", filepath.Join(exportDir, "alpha.petpack"), 0) }},
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
		if len(steps) == 0 {
			t.Fatalf("%s: no steps", op.name)
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
	t.Logf("%d injected faults", n)
}
