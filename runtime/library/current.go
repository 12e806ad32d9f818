package library

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Current is what a desktop pet plays of an installed pet: its current
// revision's manifest and the frame files of each state.
type Current struct {
	// Pet is the committed row read under the shared lock.
	Pet *Pet
	// Manifest is the revision's manifest.json, decoded.
	Manifest *petpack.Manifest
	// Frames holds each state's frame files in the revision directory,
	// in the contract's natural order. Revisions are immutable once
	// published, so the files can be read after the call returns.
	Frames map[petpack.Action][]string
}

// Current returns pet id's current revision for playing. The revision was
// validated when it was imported, so it is not validated again: manifest.json
// is read from the installed archive through internal/strictzip and decoded,
// and the frames are listed in the revision's frames/ directory.
func (s *Store) Current(id string) (*Current, error) {
	var c *Current
	err := s.locked(false, func() error {
		p, err := s.mustGet(id)
		if err != nil {
			return err
		}
		m, err := readManifest(s.ArchivePath(id, p.Revision))
		if err != nil {
			return err
		}
		c = &Current{Pet: p, Manifest: m, Frames: map[petpack.Action][]string{}}
		dir := s.revisionDir(id, p.Revision)
		for _, st := range m.States {
			d := filepath.Join(dir, framesName, string(st.Name))
			ents, err := os.ReadDir(d)
			if err != nil {
				return fmt.Errorf("%s revision %d: %w", id, p.Revision, err)
			}
			var names []string
			for _, e := range ents {
				if e.Type().IsRegular() && strings.HasSuffix(strings.ToLower(e.Name()), ".png") {
					names = append(names, e.Name())
				}
			}
			sort.Slice(names, func(i, j int) bool { return petpack.NaturalLess(names[i], names[j]) })
			for _, n := range names {
				c.Frames[st.Name] = append(c.Frames[st.Name], filepath.Join(d, n))
			}
		}
		return nil
	})
	return c, err
}

// readManifest decodes manifest.json of an installed archive.
func readManifest(archive string) (*petpack.Manifest, error) {
	f, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	za, err := strictzip.Open(f, fi.Size(), strictzip.Limits{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	for _, e := range za.Entries() {
		if e.Name != "manifest.json" {
			continue
		}
		r, err := e.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: manifest.json: %w", archive, err)
		}
		defer r.Close()
		data, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("%s: manifest.json: %w", archive, err)
		}
		var m petpack.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: manifest.json: %w", archive, err)
		}
		return &m, nil
	}
	return nil, fmt.Errorf("%s: no manifest.json", archive)
}
