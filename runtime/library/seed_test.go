package library

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bundle writes <id>.petpack files into a new directory and returns it
// with their inventory.
func bundle(t *testing.T, dir string, pets ...[2]string) (string, []BundledPet) {
	t.Helper()
	d, err := os.MkdirTemp(dir, "bundle")
	if err != nil {
		t.Fatal(err)
	}
	var inv []BundledPet
	for _, p := range pets {
		v := variant(t, d, p[0], "Bundled "+p[0], p[1])
		final := filepath.Join(d, p[0]+".petpack")
		if err := os.Rename(v, final); err != nil {
			t.Fatal(err)
		}
		digest, _, _ := hashFile(final)
		inv = append(inv, BundledPet{ID: p[0], SHA256: digest})
	}
	return d, inv
}

func TestSeed(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, filepath.Join(dir, "store"), Options{})
	user := variant(t, dir, "pet_mine", "Mine", "")
	mustImport(t, s, user, ImportOptions{})
	mine := s.revisionDir("pet_mine", 1)
	mineBefore := snapshot(t, filepath.Dir(filepath.Dir(mine)))

	d1, inv1 := bundle(t, dir, [2]string{"pet_cat", ""}, [2]string{"pet_dog", ""}, [2]string{"pet_mine", ""})
	res, err := s.Seed(inv1, d1)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, r := range res {
		got = append(got, r.ID+":"+r.Action)
	}
	if strings.Join(got, " ") != "pet_cat:installed pet_dog:installed pet_mine:kept-user-pet" {
		t.Fatalf("seed %v", got)
	}
	if after := snapshot(t, filepath.Dir(filepath.Dir(mine))); after != mineBefore {
		t.Fatal("seeding touched the ordinary pet with a bundled ID")
	}
	cat, _ := s.Show("pet_cat")
	if cat.Origin != OriginBundled || cat.Generator != BundledGenerator || cat.Provenance != BundledProvenance || cat.Active {
		t.Fatalf("bundled row %+v", cat)
	}
	// A rerun changes nothing; a changed bundled archive appends a
	// revision and leaves the active pet alone.
	before := snapshot(t, s.Root())
	if _, err := s.Seed(inv1, d1); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, s.Root()); after != before {
		t.Fatal("a second seed changed the store")
	}
	d2, inv2 := bundle(t, dir, [2]string{"pet_cat", "new art"}, [2]string{"pet_dog", ""}, [2]string{"pet_mine", ""})
	res, err = s.Seed(inv2, d2)
	if err != nil || res[0].Action != "appended" || res[0].Revision != 2 || res[1].Action != "unchanged" {
		t.Fatalf("changed seed %+v %v", res, err)
	}
	if p, _ := s.Show("pet_mine"); !p.Active {
		t.Fatal("seeding changed the active pet")
	}
	if revs, _ := s.Revisions("pet_cat"); len(revs) != 2 {
		t.Fatalf("older bundled revision gone: %+v", revs)
	}

	// Bundled pets: never modified or deleted, but enabled and exported.
	tests := []struct {
		name string
		op   func() error
	}{
		{"import", func() error {
			_, err := s.Import(variant(t, dir, "pet_cat", "Impostor", ""), ImportOptions{})
			return err
		}},
		{"import of an inventory ID not yet seeded", func() error {
			s2 := openTest(t, filepath.Join(dir, "other"), Options{Bundled: []string{"pet_cat"}})
			_, err := s2.Import(variant(t, dir, "pet_cat", "Impostor", ""), ImportOptions{})
			return err
		}},
		{"delete", func() error { return s.Delete("pet_cat") }},
		{"current", func() error { _, err := s.SetCurrent("pet_cat", 1); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, s.Root())
			if err := tt.op(); !errors.Is(err, ErrBundledReadOnly) || !strings.Contains(err.Error(), "bundled pet ID is read-only") {
				t.Fatalf("got %v", err)
			}
			if after := snapshot(t, s.Root()); after != before {
				t.Fatal("the store changed")
			}
		})
	}
	if err := s.Activate("pet_cat"); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cat.petpack")
	if err := s.Export("pet_cat", out, 1); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(s.ArchivePath("pet_cat", 1))
	if !bytes.Equal(a, b) {
		t.Fatal("export is not the installed bytes")
	}
	// Package metadata cannot make a pet bundled: a user import claiming
	// the store's bundled generator and provenance stays a user pet.
	// (brief.json restates the generator, so both documents claim it.)
	claim := rewrite(t, variant(t, dir, "pet_claim", "Claim", ""), "source/source.json", `"rules_pet-petframes"`, `"`+BundledGenerator+`"`)
	claim = rewrite(t, claim, "brief.json", `"rules_pet-petframes"`, `"`+BundledGenerator+`"`)
	p, err := s.Import(claim, ImportOptions{})
	if err != nil || p.Origin != OriginUser {
		t.Fatalf("metadata made a bundled pet: %+v %v", p, err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestSeedRefusesWholeInventory: a missing, extra, linked or mismatched
// file refuses the seed before anything is installed.
func TestSeedRefusesWholeInventory(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, filepath.Join(dir, "store"), Options{})
	tests := []struct {
		name  string
		spoil func(d string, inv []BundledPet) []BundledPet
		want  string
	}{
		{"missing", func(d string, inv []BundledPet) []BundledPet {
			os.Remove(filepath.Join(d, "pet_dog.petpack"))
			return inv
		}, "missing"},
		{"extra", func(d string, inv []BundledPet) []BundledPet {
			os.WriteFile(filepath.Join(d, "notes.txt"), []byte("x"), 0o644)
			return inv
		}, "not in the bundled inventory"},
		{"linked", func(d string, inv []BundledPet) []BundledPet {
			p := filepath.Join(d, "pet_dog.petpack")
			outside := filepath.Join(dir, filepath.Base(d)+"-dog.petpack")
			os.Rename(p, outside)
			os.Symlink(outside, p)
			return inv
		}, "not a regular file"},
		{"mismatched", func(d string, inv []BundledPet) []BundledPet {
			inv[1].SHA256 = strings.Repeat("a", 64)
			return inv
		}, "the inventory says"},
		{"wrong manifest ID", func(d string, inv []BundledPet) []BundledPet {
			os.Rename(filepath.Join(d, "pet_dog.petpack"), filepath.Join(d, "pet_emu.petpack"))
			inv[1].ID = "pet_emu"
			return inv
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, inv := bundle(t, dir, [2]string{"pet_cat", ""}, [2]string{"pet_dog", ""})
			inv = tt.spoil(d, inv)
			if tt.name == "wrong manifest ID" {
				digest, _, _ := hashFile(filepath.Join(d, "pet_emu.petpack"))
				inv[1].SHA256 = digest
			}
			before := snapshot(t, s.Root())
			_, err := s.Seed(inv, d)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if after := snapshot(t, s.Root()); after != before {
				t.Fatal("a refused seed changed the store")
			}
		})
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, filepath.Join(dir, "store"), Options{})
	a1 := variant(t, dir, "pet_alpha", "Alpha", "")
	a2 := variant(t, dir, "pet_alpha", "Alpha", "two")
	mustImport(t, s, a1, ImportOptions{})
	mustImport(t, s, a2, ImportOptions{})
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	existing := filepath.Join(out, "existing.petpack")
	os.WriteFile(existing, []byte("older"), 0o644)
	os.Mkdir(filepath.Join(out, "adir"), 0o755)
	tests := []struct {
		name, dest string
		rev        int
		want       string // the source whose bytes dest must hold; "" for an error
	}{
		{"current", filepath.Join(out, "a.petpack"), 0, a2},
		{"older revision", filepath.Join(out, "a1.petpack"), 1, a1},
		{"replaces a regular file", existing, 0, a2},
		{"inside the root", filepath.Join(s.Root(), "pets", "x.petpack"), 0, ""},
		{"the root itself", s.Root(), 0, ""},
		{"a directory", filepath.Join(out, "adir"), 0, ""},
		{"no such revision", filepath.Join(out, "r9.petpack"), 9, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, out) + snapshot(t, s.Root())
			err := s.Export("pet_alpha", tt.dest, tt.rev)
			if tt.want == "" {
				if err == nil {
					t.Fatal("exported")
				}
				if after := snapshot(t, out) + snapshot(t, s.Root()); after != before {
					t.Fatal("a failed export changed something")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(tt.dest)
			want, _ := os.ReadFile(tt.want)
			if !bytes.Equal(got, want) {
				t.Fatal("the exported bytes are not the imported ones")
			}
		})
	}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("leftover %s", e.Name())
		}
	}
}

// TestSeedResume: a seed that fails on its second pet has installed the
// first; a rerun installs the rest and leaves the first alone.
func TestSeedResume(t *testing.T) {
	dir := t.TempDir()
	commits := 0
	fail := true
	s := openTest(t, filepath.Join(dir, "store"), Options{Hook: func(step string) error {
		if step == StepCommit {
			commits++
			if fail && commits == 2 {
				return errInjected
			}
		}
		return nil
	}})
	d, inv := bundle(t, dir, [2]string{"pet_cat", ""}, [2]string{"pet_dog", ""}, [2]string{"pet_emu", ""})
	res, err := s.Seed(inv, d)
	if !errors.Is(err, errInjected) || len(res) != 1 || res[0].Action != "installed" {
		t.Fatalf("interrupted seed: %+v %v", res, err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	fail = false
	res, err = s.Seed(inv, d)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, r := range res {
		got = append(got, r.ID+":"+r.Action)
	}
	if strings.Join(got, " ") != "pet_cat:unchanged pet_dog:installed pet_emu:installed" {
		t.Fatalf("rerun %v", got)
	}
	if p, _ := s.Show("pet_cat"); !p.Active {
		t.Fatal("the first seeded pet of an empty library is not active")
	}
}
