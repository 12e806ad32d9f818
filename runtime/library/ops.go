package library

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/internal/durable"
)

// commit runs f in one transaction and commits it: the commit point of
// every write.
func (s *Store) commit(f func(tx *sql.Tx) error) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	if err := s.step(StepCommit); err != nil {
		return err
	}
	return tx.Commit()
}

// List returns every pet's committed row, by ID, and the quarantined rows
// apart.
func (s *Store) List() ([]Pet, []Quarantined, error) {
	var pets []Pet
	var quar []Quarantined
	err := s.locked(false, func() error {
		var err error
		pets, quar, err = s.listLocked()
		return err
	})
	return pets, quar, err
}

func (s *Store) listLocked() ([]Pet, []Quarantined, error) {
	var pets []Pet
	var quar []Quarantined
	err := func() error {
		rows, err := s.db.Query("SELECT " + petColumns + " FROM pets ORDER BY id")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPet(rows)
			if err != nil {
				return err
			}
			pets = append(pets, *p)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		qrows, err := s.db.Query("SELECT id, name, reason, state_names FROM quarantine ORDER BY id")
		if err != nil {
			return err
		}
		defer qrows.Close()
		for qrows.Next() {
			var q Quarantined
			var states string
			if err := qrows.Scan(&q.ID, &q.Name, &q.Reason, &states); err != nil {
				return err
			}
			q.States = splitStates(states)
			quar = append(quar, q)
		}
		return qrows.Err()
	}()
	return pets, quar, err
}

// Show returns one pet's committed row.
func (s *Store) Show(id string) (*Pet, error) {
	var p *Pet
	err := s.locked(false, func() error {
		var err error
		p, err = s.mustGet(id)
		return err
	})
	return p, err
}

func (s *Store) mustGet(id string) (*Pet, error) {
	p, err := getPet(s.db, id)
	if err == nil && p == nil {
		err = fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	return p, err
}

// Revisions returns a pet's published revisions, oldest first.
func (s *Store) Revisions(id string) ([]Revision, error) {
	var out []Revision
	err := s.locked(false, func() error {
		p, err := s.mustGet(id)
		if err != nil {
			return err
		}
		rows, err := s.db.Query("SELECT revision, digest, size, installed_at FROM revisions WHERE pet_id = ? ORDER BY revision", id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Revision
			if err := rows.Scan(&r.Revision, &r.Digest, &r.Size, &r.InstalledAt); err != nil {
				return err
			}
			r.Current = r.Revision == p.Revision
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// Activate makes id the app's active pet (bundled pets included: enabling
// one is not modifying it).
func (s *Store) Activate(id string) error {
	return s.locked(true, func() error {
		if _, err := s.mustGet(id); err != nil {
			return err
		}
		return s.commit(func(tx *sql.Tx) error {
			if _, err := tx.Exec("UPDATE pets SET active = 0 WHERE active = 1 AND id != ?", id); err != nil {
				return err
			}
			_, err := tx.Exec("UPDATE pets SET active = 1 WHERE id = ?", id)
			return err
		})
	})
}

// SetCurrent makes an older (or newer) published revision the pet's
// current one, through the same pointer-then-row commit as an import.
func (s *Store) SetCurrent(id string, rev int) (*Pet, error) {
	var out *Pet
	err := s.locked(true, func() error {
		old, err := s.mustGet(id)
		if err != nil {
			return err
		}
		if old.Origin == OriginBundled {
			return fmt.Errorf("%s: %w", id, ErrBundledReadOnly)
		}
		var digest string
		if err := s.db.QueryRow("SELECT digest FROM revisions WHERE pet_id = ? AND revision = ?", id, rev).Scan(&digest); err == sql.ErrNoRows {
			return fmt.Errorf("%s: revision %d: %w", id, rev, ErrNotFound)
		} else if err != nil {
			return err
		}
		row := *old
		row.Revision, row.Digest, row.UpdatedAt = rev, digest, s.now()
		if err := s.step(StepIntent); err != nil {
			return err
		}
		ip, err := s.writeIntent(intent{Op: "current", PetID: id})
		if err != nil {
			return err
		}
		defer clearIntent(ip)
		restore := func(err error) error {
			if rerr := replaceFile(s.pointerPath(id), pointerBytes(old)); rerr != nil {
				return fmt.Errorf("%w (and restoring the pointer: %v; the next open recovers)", err, rerr)
			}
			return err
		}
		if err := s.step(StepPointer); err != nil {
			return restore(err)
		}
		if err := replaceFile(s.pointerPath(id), pointerBytes(&row)); err != nil {
			return restore(err)
		}
		if err := s.commit(func(tx *sql.Tx) error { return upsertPet(tx, &row) }); err != nil {
			return restore(err)
		}
		out = &row
		return nil
	})
	return out, err
}

// Delete removes a user pet with all its revisions: its directory moves to
// a trash name in staging/, the rows are deleted, then the trash is
// removed; if the rows cannot be deleted the directory moves back. When
// the active pet is deleted the most recently updated remaining pet
// becomes active.
func (s *Store) Delete(id string) error {
	return s.locked(true, func() error {
		p, err := s.mustGet(id)
		if err != nil {
			return err
		}
		if p.Origin == OriginBundled {
			return fmt.Errorf("%s: %w", id, ErrBundledReadOnly)
		}
		if err := s.step(StepIntent); err != nil {
			return err
		}
		trashName := "trash-" + randomName()
		trash := filepath.Join(s.stagingPath(), trashName)
		ip, err := s.writeIntent(intent{Op: "delete", PetID: id, Trash: trashName})
		if err != nil {
			return err
		}
		defer clearIntent(ip)
		if err := s.step(StepTrash); err != nil {
			return err
		}
		dir := s.petDir(id)
		if err := os.Rename(dir, trash); err != nil {
			return err
		}
		back := func(err error) error {
			if rerr := os.Rename(trash, dir); rerr != nil {
				return fmt.Errorf("%w (and moving %s back: %v; the next open recovers)", err, dir, rerr)
			}
			durable.SyncDir(filepath.Dir(dir))
			durable.SyncDir(s.stagingPath())
			return err
		}
		if err := durable.SyncDir(filepath.Dir(dir)); err != nil {
			return back(err)
		}
		if err := durable.SyncDir(s.stagingPath()); err != nil {
			return back(err)
		}
		err = s.commit(func(tx *sql.Tx) error {
			if _, err := tx.Exec("DELETE FROM pets WHERE id = ?", id); err != nil {
				return err
			}
			if _, err := tx.Exec("DELETE FROM revisions WHERE pet_id = ?", id); err != nil {
				return err
			}
			return ensureActive(tx)
		})
		if err != nil {
			return back(err)
		}
		return removeAll(trash)
	})
}
