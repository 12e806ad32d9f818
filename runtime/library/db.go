package library

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	// The pure-Go SQLite driver (see README, "Pet library"): no cgo, so
	// petasset, which links this package, stays buildable for any
	// execution platform the toolchain targets.
	_ "modernc.org/sqlite"
)

// SchemaVersion is the database schema this package writes, kept in
// PRAGMA user_version.
const SchemaVersion = 2

// petColumns are the pets table's columns, in the order scanPet reads
// them; quarantine has the same ones plus its reason.
const petColumns = "id, name, style, quality, origin, generator, provenance, active, revision, digest, created_at, updated_at, state_names"

// schemaV1 is the first schema: the pets table alone. It is kept to
// migrate from (and the legacy test database is written in it).
const schemaV1 = `
CREATE TABLE pets (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	style TEXT NOT NULL,
	quality TEXT NOT NULL,
	origin TEXT NOT NULL CHECK (origin IN ('bundled', 'user')),
	generator TEXT NOT NULL,
	provenance TEXT NOT NULL,
	active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
	revision INTEGER NOT NULL CHECK (revision >= 1),
	digest TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	state_names TEXT NOT NULL
);
CREATE UNIQUE INDEX pets_one_active ON pets (active) WHERE active = 1;
`

// schemaV2 adds every published revision, the revision counter that
// outlives a delete (revision names are never reused) and the quarantine.
const schemaV2 = `
CREATE TABLE revisions (
	pet_id TEXT NOT NULL,
	revision INTEGER NOT NULL,
	digest TEXT NOT NULL,
	size INTEGER NOT NULL,
	installed_at TEXT NOT NULL,
	PRIMARY KEY (pet_id, revision)
);
CREATE TABLE revision_counters (
	pet_id TEXT PRIMARY KEY,
	last_revision INTEGER NOT NULL
);
CREATE TABLE quarantine (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	style TEXT NOT NULL,
	quality TEXT NOT NULL,
	origin TEXT NOT NULL,
	generator TEXT NOT NULL,
	provenance TEXT NOT NULL,
	active INTEGER NOT NULL,
	revision INTEGER NOT NULL,
	digest TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	state_names TEXT NOT NULL,
	reason TEXT NOT NULL,
	quarantined_at TEXT NOT NULL
);
`

// openDB opens (creating if needed) the SQLite file with full
// synchronous commits: the committed row is the commit point, so it must
// be on disk when Commit returns.
func openDB(path string) (*sql.DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=synchronous(FULL)&_pragma=journal_mode(DELETE)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("library: %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("library: %s: %w", path, err)
	}
	return db, nil
}

// migrate brings the database to SchemaVersion in one transaction, or
// refuses one from a newer version.
func migrate(db *sql.DB, root, now string) error {
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("library: %s: %w", dbName, err)
	}
	switch {
	case v == SchemaVersion:
		return nil
	case v > SchemaVersion:
		return fmt.Errorf("library: %s: schema version %d, this store reads up to %d: %w", dbName, v, SchemaVersion, ErrNewerSchema)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if v == 0 {
		var n int
		if err := tx.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			return err
		}
		if n != 0 {
			return fmt.Errorf("library: %s: tables without a schema version; not a library database", dbName)
		}
		if _, err := tx.Exec(schemaV1); err != nil {
			return err
		}
		v = 1
	}
	if v == 1 {
		if _, err := tx.Exec(schemaV2); err != nil {
			return err
		}
		if err := migrateRevisions(tx, root, now); err != nil {
			return err
		}
	}
	if _, err := tx.Exec("PRAGMA user_version = " + strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("library: migrating %s: %w", dbName, err)
	}
	return nil
}

// migrateRevisions fills the revisions table of a version 1 database from
// the revision directories on disk (version 1 kept only the current one
// in its row), so recovery never mistakes an older published revision for
// a leftover.
func migrateRevisions(tx *sql.Tx, root, now string) error {
	rows, err := tx.Query("SELECT id, revision, digest, state_names FROM pets")
	if err != nil {
		return err
	}
	type cur struct {
		id     string
		rev    int
		digest string
	}
	var pets []cur
	for rows.Next() {
		var c cur
		var states string
		if err := rows.Scan(&c.id, &c.rev, &c.digest, &states); err != nil {
			rows.Close()
			return err
		}
		if removedState(states) == "" { // quarantined next, files untouched
			pets = append(pets, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range pets {
		last := p.rev
		for rev := 1; rev <= p.rev; rev++ {
			file := filepath.Join(root, petsDir, p.id, revsDir, strconv.Itoa(rev), archiveName)
			digest, size, err := hashFile(file)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			if rev == p.rev && digest != p.digest {
				return fmt.Errorf("library: migrating %s: revision %d's archive does not match the row's digest", p.id, rev)
			}
			if _, err := tx.Exec("INSERT INTO revisions (pet_id, revision, digest, size, installed_at) VALUES (?, ?, ?, ?, ?)", p.id, rev, digest, size, now); err != nil {
				return err
			}
		}
		if _, err := tx.Exec("INSERT INTO revision_counters (pet_id, last_revision) VALUES (?, ?)", p.id, last); err != nil {
			return err
		}
	}
	return nil
}

// removedStates are the state names of older packages that V3 neither
// migrates nor aliases (contract section 10).
var removedStates = []string{"start", "review"}

// quarantine moves every row whose package uses a removed state name to
// the quarantine table, in one transaction. It is idempotent (a second run
// finds nothing) and reads no archive: the rows carry their state names.
func (s *Store) quarantine() error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.Query("SELECT id, state_names FROM pets")
	if err != nil {
		return err
	}
	type hit struct{ id, reason string }
	var hits []hit
	for rows.Next() {
		var id, names string
		if err := rows.Scan(&id, &names); err != nil {
			rows.Close()
			return err
		}
		if r := removedState(names); r != "" {
			hits = append(hits, hit{id, "the package uses the removed state name " + r + "; recreate the pet with the nine current actions"})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(hits) == 0 {
		return nil
	}
	now := s.now()
	for _, h := range hits {
		if _, err := tx.Exec("INSERT OR REPLACE INTO quarantine ("+petColumns+", reason, quarantined_at) SELECT "+petColumns+", ?, ? FROM pets WHERE id = ?", h.reason, now, h.id); err != nil {
			return err
		}
		if _, err := tx.Exec("DELETE FROM pets WHERE id = ?", h.id); err != nil {
			return err
		}
	}
	if err := ensureActive(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// ensureActive makes the most recently updated pet active when none is, so
// a non-empty library always has exactly one active pet.
func ensureActive(tx *sql.Tx) error {
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM pets WHERE active = 1").Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := tx.Exec("UPDATE pets SET active = 1 WHERE id = (SELECT id FROM pets ORDER BY updated_at DESC, id LIMIT 1)")
	return err
}

// removedState returns the first removed state name of a row's state
// names, or "".
func removedState(names string) string {
	for _, n := range splitStates(names) {
		for _, r := range removedStates {
			if n == r {
				return r
			}
		}
	}
	return ""
}

func splitStates(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

type scanner interface {
	Scan(dest ...interface{}) error
}

func scanPet(r scanner) (*Pet, error) {
	var p Pet
	var active int
	var states string
	if err := r.Scan(&p.ID, &p.Name, &p.Style, &p.Quality, &p.Origin, &p.Generator, &p.Provenance, &active, &p.Revision, &p.Digest, &p.CreatedAt, &p.UpdatedAt, &states); err != nil {
		return nil, err
	}
	p.Active = active == 1
	p.States = splitStates(states)
	return &p, nil
}

type querier interface {
	QueryRow(query string, args ...interface{}) *sql.Row
}

// getPet returns the committed row of id, or nil.
func getPet(q querier, id string) (*Pet, error) {
	p, err := scanPet(q.QueryRow("SELECT "+petColumns+" FROM pets WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return p, err
}

func isQuarantined(q querier, id string) (bool, error) {
	var n int
	err := q.QueryRow("SELECT count(*) FROM quarantine WHERE id = ?", id).Scan(&n)
	return n > 0, err
}

// committedRevisions is the set of id's revisions a committed row names.
func committedRevisions(db *sql.DB, id string) (map[int]bool, error) {
	rows, err := db.Query("SELECT revision FROM revisions WHERE pet_id = ?", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := map[int]bool{}
	for rows.Next() {
		var r int
		if err := rows.Scan(&r); err != nil {
			return nil, err
		}
		set[r] = true
	}
	return set, rows.Err()
}

// upsertPet writes p's row. It is an upsert on the ID alone, so a second
// active row is an error rather than a replaced row.
func upsertPet(tx *sql.Tx, p *Pet) error {
	active := 0
	if p.Active {
		active = 1
	}
	_, err := tx.Exec("INSERT INTO pets ("+petColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "+
		"name = excluded.name, style = excluded.style, quality = excluded.quality, origin = excluded.origin, generator = excluded.generator, "+
		"provenance = excluded.provenance, active = excluded.active, revision = excluded.revision, digest = excluded.digest, "+
		"created_at = excluded.created_at, updated_at = excluded.updated_at, state_names = excluded.state_names",
		p.ID, p.Name, p.Style, p.Quality, string(p.Origin), p.Generator, p.Provenance, active, p.Revision, p.Digest, p.CreatedAt, p.UpdatedAt, strings.Join(p.States, ","))
	return err
}
