package library

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
)

// intent is written into staging/ (and synced) before a write touches
// pets/: it names the pet whose files may be between two states, so
// recovery reconciles exactly those pets instead of scanning the store.
type intent struct {
	Op    string `json:"op"`
	PetID string `json:"pet_id"`
	// Trash is the staging name a pet directory being deleted is moved to.
	Trash string `json:"trash,omitempty"`
}

const intentPrefix = "intent-"

// writeIntent records in and returns its path.
func (s *Store) writeIntent(in intent) (string, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	path := filepath.Join(s.stagingPath(), intentPrefix+randomName()+".json")
	if err := durable.WriteNew(path, data); err != nil {
		os.Remove(path)
		return "", err
	}
	if err := durable.SyncDir(s.stagingPath()); err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}

// clearIntent removes an intent once its write is committed or rolled
// back. A failure is left to the next recovery, which finds the pet
// already reconciled.
func clearIntent(path string) {
	if os.Remove(path) == nil {
		durable.SyncDir(filepath.Dir(path))
	}
}

// recoverLocked rolls back whatever no committed row references: for each
// pet a leftover intent names, it restores a pet directory a delete moved
// away (if the row survived) or removes it (if the row is gone or never
// was), removes revisions no row names and any temporary file, and
// rewrites active.json from the row; then it empties staging/. It runs
// under the exclusive lock.
func (s *Store) recoverLocked() error {
	staging := s.stagingPath()
	entries, err := os.ReadDir(staging)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), intentPrefix) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(staging, e.Name()))
		if err != nil {
			return err
		}
		var in intent
		if json.Unmarshal(data, &in) != nil || !validID(in.PetID) {
			// A torn intent: it was not synced, so nothing after it ran.
			continue
		}
		if err := s.reconcile(in); err != nil {
			return fmt.Errorf("%s: %w", in.PetID, err)
		}
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(staging, e.Name())); err != nil {
			return err
		}
	}
	return durable.SyncDir(staging)
}

// reconcile brings one pet's files into agreement with its committed row.
func (s *Store) reconcile(in intent) error {
	if q, err := isQuarantined(s.db, in.PetID); err != nil || q {
		return err // a quarantined pet's files stay untouched
	}
	row, err := getPet(s.db, in.PetID)
	if err != nil {
		return err
	}
	dir := s.petDir(in.PetID)
	if in.Trash != "" {
		trash := filepath.Join(s.stagingPath(), in.Trash)
		if row != nil && exists(trash) && !exists(dir) {
			if err := os.Rename(trash, dir); err != nil {
				return err
			}
			if err := durable.SyncDir(filepath.Dir(dir)); err != nil {
				return err
			}
		}
	}
	if row == nil {
		return removeAll(dir)
	}
	if !exists(dir) {
		return fmt.Errorf("the committed row names revision %d, but %s is missing", row.Revision, dir)
	}
	committed, err := committedRevisions(s.db, in.PetID)
	if err != nil {
		return err
	}
	revs := filepath.Join(dir, revsDir)
	entries, err := os.ReadDir(revs)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err == nil && strconv.Itoa(n) == e.Name() && committed[n] {
			continue
		}
		if err := removeAll(filepath.Join(revs, e.Name())); err != nil {
			return err
		}
	}
	top, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range top {
		if e.Name() != pointerName && e.Name() != revsDir {
			if err := removeAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	want := pointerBytes(row)
	if got, err := os.ReadFile(s.pointerPath(in.PetID)); err == nil && bytes.Equal(got, want) {
		return nil
	}
	return replaceFile(s.pointerPath(in.PetID), want)
}
