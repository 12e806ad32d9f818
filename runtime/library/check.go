package library

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Check verifies the store's invariants under the shared lock and returns
// the first one broken: a non-empty library has exactly one active pet;
// every row's active.json is the pointer the row implies; every revision
// a row names is a complete directory whose archive matches its digest,
// and no other revision directory exists; every pet directory has a row
// (or a quarantine entry); staging/ is empty. It reads
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
				if _, err := os.Stat(filepath.Join(rd, coverName)); err != nil {
					return fmt.Errorf("%s: revision %s: %w", p.ID, e.Name(), err)
				}
				if _, err := os.Stat(filepath.Join(rd, framesName)); err != nil {
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
