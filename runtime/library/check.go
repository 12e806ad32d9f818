package library

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Check verifies the store's invariants under the shared lock and returns
// the first one broken: a non-empty library has exactly one active pet;
// every row's active.json is the pointer the row implies; every revision
// a row names is a complete directory whose archive matches its digest
// (its cover and frames are the archive's entries, byte for byte, and it
// holds nothing else), and no other revision directory exists; every pet directory has a row
// (or a quarantine entry) and holds only active.json and revisions/;
// staging/ is empty. It reads
// every archive, so it costs what a full backup read does.
func (s *Store) Check() error {
	return s.locked(false, func() error {
		pets, _, err := s.listLocked()
		if err != nil {
			return err
		}
		active := 0
		for i := range pets {
			p := &pets[i]
			if p.Active {
				active++
			}
			got, err := os.ReadFile(s.pointerPath(p.ID))
			if err != nil {
				return err
			}
			if !bytes.Equal(got, pointerBytes(p)) {
				return fmt.Errorf("%s: active.json does not match the committed row", p.ID)
			}
			top, err := os.ReadDir(s.petDir(p.ID))
			if err != nil {
				return err
			}
			for _, e := range top {
				if e.Name() != pointerName && e.Name() != revsDir {
					return fmt.Errorf("%s: %s is neither %s nor %s/", p.ID, e.Name(), pointerName, revsDir)
				}
			}
			revs, err := s.db.Query("SELECT revision, digest FROM revisions WHERE pet_id = ?", p.ID)
			if err != nil {
				return err
			}
			want := map[string]string{}
			for revs.Next() {
				var r int
				var d string
				if err := revs.Scan(&r, &d); err != nil {
					revs.Close()
					return err
				}
				want[strconv.Itoa(r)] = d
			}
			revs.Close()
			if want[strconv.Itoa(p.Revision)] != p.Digest {
				return fmt.Errorf("%s: the current revision %d is not a published revision with the row's digest", p.ID, p.Revision)
			}
			entries, err := os.ReadDir(filepath.Join(s.petDir(p.ID), revsDir))
			if err != nil {
				return err
			}
			if len(entries) != len(want) {
				return fmt.Errorf("%s: %d revision directories, %d published revisions", p.ID, len(entries), len(want))
			}
			for _, e := range entries {
				d, ok := want[e.Name()]
				if !ok {
					return fmt.Errorf("%s: revision directory %s is not published", p.ID, e.Name())
				}
				rd := filepath.Join(s.petDir(p.ID), revsDir, e.Name())
				got, _, err := hashFile(filepath.Join(rd, archiveName))
				if err != nil {
					return err
				}
				if got != d {
					return fmt.Errorf("%s: revision %s's archive does not match its digest", p.ID, e.Name())
				}
				if err := checkMedia(rd); err != nil {
					return fmt.Errorf("%s: revision %s: %w", p.ID, e.Name(), err)
				}
			}
		}
		dirs, err := os.ReadDir(filepath.Join(s.root, petsDir))
		if err != nil {
			return err
		}
		for _, d := range dirs {
			if _, err := s.mustGet(d.Name()); err != nil {
				if q, qerr := isQuarantined(s.db, d.Name()); qerr != nil || !q {
					return fmt.Errorf("pets/%s: no committed row or quarantine entry names it", d.Name())
				}
			}
		}
		if len(pets) > 0 && active != 1 {
			return fmt.Errorf("%d active pets in a library of %d", active, len(pets))
		}
		ents, err := os.ReadDir(s.stagingPath())
		if err != nil {
			return err
		}
		if len(ents) > 0 {
			return fmt.Errorf("staging/ holds %d leftovers, first %s", len(ents), ents[0].Name())
		}
		return nil
	})
}

// checkMedia compares a revision directory with its archive: every entry
// mediaPath places must be there as a regular file with the entry's size
// and CRC-32, and the directory holds nothing else but the archive itself.
// Existence alone would pass a revision whose extraction a crash cut short.
func checkMedia(rd string) error {
	entries, err := containerOf(filepath.Join(rd, archiveName))
	if err != nil {
		return err
	}
	want := map[string]*petpack.PackageEntry{}
	dirs := map[string]bool{".": true}
	for i := range entries {
		e := &entries[i]
		dst, ok := mediaPath(e.Path)
		if !ok {
			continue
		}
		want[dst] = e
		for d := path.Dir(dst); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	if want[coverName] == nil {
		return fmt.Errorf("%s has no assets/preview/cover.png", archiveName)
	}
	err = filepath.WalkDir(rd, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(rd, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if !dirs[rel] {
				return fmt.Errorf("%s/ holds no entry of %s", rel, archiveName)
			}
			return nil
		case rel == archiveName:
			return nil
		}
		e := want[rel]
		if e == nil {
			return fmt.Errorf("%s is no entry of %s", rel, archiveName)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if int64(len(data)) != e.Size || crc32.ChecksumIEEE(data) != e.CRC32 {
			return fmt.Errorf("%s differs from %s's %s", rel, archiveName, e.Path)
		}
		delete(want, rel)
		return nil
	})
	if err != nil {
		return err
	}
	if len(want) > 0 {
		missing := make([]string, 0, len(want))
		for k := range want {
			missing = append(missing, k)
		}
		sort.Strings(missing)
		return fmt.Errorf("%d of %s's cover and frames are missing, first %s", len(missing), archiveName, missing[0])
	}
	return nil
}

// containerOf lists an installed archive's files with their sizes and CRCs
// through the strict ZIP reader alone (petpack.ReadContainer): the
// revision was validated when it was imported, and a full validation per
// pet would cost every check hundreds of milliseconds.
func containerOf(path string) ([]petpack.PackageEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	entries, v := petpack.ReadContainer(f, info.Size())
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}
