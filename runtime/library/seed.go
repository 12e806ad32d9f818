package library

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// BundledPet is one entry of the build's closed bundled inventory.
type BundledPet struct {
	// ID is the manifest ID; the archive is <ID>.petpack.
	ID string
	// SHA256 is the archive's digest, hex.
	SHA256 string
}

// SeedResult says what a seed did with each bundled pet.
type SeedResult struct {
	// ID is the bundled pet's.
	ID string `json:"id"`
	// Action is "installed", "appended" (a changed bundled archive),
	// "unchanged" or "kept-user-pet" (an ordinary pet with the ID is left
	// byte for byte alone).
	Action string `json:"action"`
	// Revision is the pet's current revision afterwards.
	Revision int `json:"revision"`
}

// Seed installs the bundled inventory from dir, which must hold exactly
// the inventory's archives, <id>.petpack each, as regular files whose
// digests match: a missing, extra, linked or mismatched file refuses the
// whole seed before anything is installed. Then each pet is installed on
// its own, atomically, so a rerun completes an interrupted seed. Seeding
// never changes which pet is active (the first pet of an empty library
// becomes active, as always).
func (s *Store) Seed(inv []BundledPet, dir string) ([]SeedResult, error) {
	want := map[string]BundledPet{}
	for _, b := range inv {
		if !validID(b.ID) {
			return nil, fmt.Errorf("seed: inventory ID %q is not a pet ID", b.ID)
		}
		want[b.ID+".petpack"] = b
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok {
			return nil, fmt.Errorf("seed: %s: not in the bundled inventory", filepath.Join(dir, e.Name()))
		}
		seen[e.Name()] = true
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	vals := map[string]*validated{}
	for _, n := range names {
		b := want[n]
		path := filepath.Join(dir, n)
		if !seen[n] {
			return nil, fmt.Errorf("seed: %s: missing", path)
		}
		info, err := os.Lstat(path)
		if err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("seed: %s: not a regular file (a link or another file type)", path)
		}
		v, err := s.validate(path)
		if err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		if v.digest != b.SHA256 {
			return nil, fmt.Errorf("seed: %s: SHA-256 %s, the inventory says %s", path, v.digest, b.SHA256)
		}
		if v.manifest.ID != b.ID {
			return nil, fmt.Errorf("seed: %s: the manifest ID is %s", path, v.manifest.ID)
		}
		vals[n] = v
	}
	var out []SeedResult
	for _, n := range names {
		v := vals[n]
		var res SeedResult
		err := s.locked(true, func() error {
			old, err := getPet(s.db, v.manifest.ID)
			if err != nil {
				return err
			}
			res = SeedResult{ID: v.manifest.ID}
			switch {
			case old != nil && old.Origin == OriginUser:
				res.Action, res.Revision = "kept-user-pet", old.Revision
				return nil
			case old != nil && old.Digest == v.digest:
				res.Action, res.Revision = "unchanged", old.Revision
				return nil
			case old != nil:
				res.Action = "appended"
			default:
				res.Action = "installed"
			}
			p, err := s.installLocked(v, ImportOptions{}, OriginBundled)
			if err != nil {
				return err
			}
			res.Revision = p.Revision
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("seed: %s: %w", v.manifest.ID, err)
		}
		out = append(out, res)
	}
	return out, nil
}
