package library

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentpet/rules_pet/internal/durable"
)

// The store's fixed names below its root.
const (
	dbName      = "library.sqlite"
	lockName    = "library.lock"
	petsDir     = "pets"
	stagingDir  = "staging"
	pointerName = "active.json"
	revsDir     = "revisions"
	archiveName = "pet.petpack"
	coverName   = "cover.png"
	framesName  = "frames"
)

// PointerSchemaVersion identifies the form of active.json.
const PointerSchemaVersion = "apc.pet-active-revision.v1"

// Origin says where a pet came from: the app's closed bundled inventory,
// or the user.
type Origin string

// The two origins.
const (
	OriginBundled Origin = "bundled"
	OriginUser    Origin = "user"
)

// The generator and provenance the store assigns to every bundled pet,
// whatever its package metadata says: bundled identity comes from the
// build's inventory, never from a claim inside the archive.
const (
	BundledGenerator  = "rules_pet pet_bundle"
	BundledProvenance = "bundled"
)

// DefaultLockWait is how long an operation waits for the store's lock
// before it fails with ErrBusy.
const DefaultLockWait = 5 * time.Second

// Errors an operation can return; test for them with errors.Is.
var (
	// ErrBusy: another process held the store's lock for longer than the
	// wait.
	ErrBusy = errors.New("store busy")
	// ErrNotFound: no pet (or revision) with that ID.
	ErrNotFound = errors.New("no such pet")
	// ErrExists: --expect-absent, and the ID is installed.
	ErrExists = errors.New("a pet with this ID is already installed")
	// ErrBundledReadOnly: the ID is a bundled pet's.
	ErrBundledReadOnly = errors.New("bundled pet ID is read-only")
	// ErrBaseChanged: an edit's pinned base is no longer the current
	// revision.
	ErrBaseChanged = errors.New("the pet's current revision is no longer the edit's base")
	// ErrSourceChanged: the archive's bytes changed while it was imported.
	ErrSourceChanged = errors.New("the archive changed during import")
	// ErrDirectory: import takes an archive, not a package directory.
	ErrDirectory = errors.New("import takes a .petpack archive; a package directory is only a trusted local build input (contract section 2)")
	// ErrQuarantined: the ID is held in quarantine.
	ErrQuarantined = errors.New("the pet is quarantined")
	// ErrNewerSchema: the database was written by a newer version.
	ErrNewerSchema = errors.New("the library database is from a newer version of the store")
	// ErrDestInRoot: an export destination inside the store.
	ErrDestInRoot = errors.New("the export destination is inside the store root")
)

// Options configure a Store.
type Options struct {
	// LockWait bounds the wait for the store's lock; 0 means
	// DefaultLockWait.
	LockWait time.Duration
	// Now is the clock for creation and update times; nil means
	// time.Now.
	Now func() time.Time
	// Bundled lists the IDs of the app's bundled inventory, so a user
	// import of one is refused even before it is seeded. The generic
	// petasset command knows none; the store also refuses IDs whose row
	// is bundled.
	Bundled []string
	// Hook, when not nil, is called before each named step of a write
	// (see the Step constants); an error fails the operation at that step
	// exactly as a failure of the step would. It exists for fault
	// injection and crash tests.
	Hook func(step string) error
}

// Store is an open pet library. Its methods are safe for concurrent use,
// and any number of Stores (in any number of processes) may share a root.
type Store struct {
	root string
	db   *sql.DB
	opt  Options
	lock *os.File
	mu   sync.RWMutex // the file lock does not exclude goroutines sharing its descriptor
}

// Pet is a pet's committed row: what every reader answers from.
type Pet struct {
	// ID is the manifest ID, the pet's only logical identity.
	ID string `json:"id"`
	// Name, Style and Quality are the current revision's manifest fields.
	Name    string `json:"name"`
	Style   string `json:"style"`
	Quality string `json:"quality"`
	// Origin is bundled or user.
	Origin Origin `json:"origin"`
	// Generator and Provenance are source/source.json's for a user pet,
	// BundledGenerator and BundledProvenance for a bundled one.
	Generator  string `json:"generator"`
	Provenance string `json:"provenance"`
	// Active says this is the one pet the app shows.
	Active bool `json:"active"`
	// Revision is the current revision, the one active.json names, and
	// Digest its archive's SHA-256 (hex).
	Revision int    `json:"revision"`
	Digest   string `json:"petpack_sha256"`
	// CreatedAt is the first install's time, UpdatedAt the last change's
	// (RFC 3339, UTC).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// States are the package's state names in manifest order.
	States []string `json:"states"`
}

// Revision is one published revision of a pet.
type Revision struct {
	// Revision is the revision's number, from 1.
	Revision int `json:"revision"`
	// Digest is the SHA-256 of its pet.petpack, hex; Size its length.
	Digest string `json:"petpack_sha256"`
	Size   int64  `json:"size"`
	// InstalledAt is when it was published (RFC 3339, UTC).
	InstalledAt string `json:"installed_at"`
	// Current says the pet's pointer names it.
	Current bool `json:"current"`
}

// Quarantined is a stored row whose package uses removed state names: it
// is kept apart and never projected into Pet.
type Quarantined struct {
	// ID and Name are the row's.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Reason names the removed state name and what to do.
	Reason string `json:"reason"`
	// States are the stored package's state names.
	States []string `json:"states"`
}

// Open opens the store at root, creating its layout when root is new or
// empty, migrates an older database, refuses a newer one, recovers from
// an interrupted write and quarantines rows with removed state names, all
// under the exclusive lock.
func Open(root string, opt Options) (*Store, error) {
	if opt.LockWait == 0 {
		opt.LockWait = DefaultLockWait
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{abs, filepath.Join(abs, petsDir), filepath.Join(abs, stagingDir)} {
		if err := mkdirSynced(d); err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
	}
	lf, err := os.OpenFile(filepath.Join(abs, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	s := &Store{root: abs, opt: opt, lock: lf}
	if err := flock(lf, true, opt.LockWait); err != nil {
		lf.Close()
		return nil, err
	}
	err = s.openLocked()
	funlock(lf)
	if err != nil {
		if s.db != nil {
			s.db.Close()
		}
		lf.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) openLocked() error {
	db, err := openDB(filepath.Join(s.root, dbName))
	if err != nil {
		return err
	}
	s.db = db
	if err := migrate(db, s.root, s.now()); err != nil {
		return err
	}
	if err := s.recoverLocked(); err != nil {
		return fmt.Errorf("library: recovery: %w", err)
	}
	return s.quarantine()
}

// mkdirSynced creates dir when missing and syncs its parent, so the new
// entry survives a crash.
func mkdirSynced(dir string) error {
	if info, err := os.Stat(dir); err == nil {
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	return durable.SyncDir(filepath.Dir(dir))
}

// Close releases the database and the lock file.
func (s *Store) Close() error {
	err := s.db.Close()
	if cerr := s.lock.Close(); err == nil {
		err = cerr
	}
	return err
}

// Root is the store's absolute root.
func (s *Store) Root() string { return s.root }

func (s *Store) now() string { return s.opt.Now().UTC().Format(time.RFC3339Nano) }

// locked runs f under the store's lock: shared for reads, exclusive (with
// recovery first) for writes.
func (s *Store) locked(exclusive bool, f func() error) error {
	if exclusive {
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	if err := flock(s.lock, exclusive, s.opt.LockWait); err != nil {
		return err
	}
	defer funlock(s.lock)
	if exclusive {
		if err := s.recoverLocked(); err != nil {
			return fmt.Errorf("library: recovery: %w", err)
		}
	}
	return f()
}

// step calls the hook before a named step.
func (s *Store) step(name string) error {
	if s.opt.Hook == nil {
		return nil
	}
	if err := s.opt.Hook(name); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (s *Store) petDir(id string) string      { return filepath.Join(s.root, petsDir, id) }
func (s *Store) stagingPath() string          { return filepath.Join(s.root, stagingDir) }
func (s *Store) pointerPath(id string) string { return filepath.Join(s.petDir(id), pointerName) }
func (s *Store) revisionDir(id string, rev int) string {
	return filepath.Join(s.petDir(id), revsDir, strconv.Itoa(rev))
}

// ArchivePath is the installed archive of a pet's revision.
func (s *Store) ArchivePath(id string, rev int) string {
	return filepath.Join(s.revisionDir(id, rev), archiveName)
}

// pointer is active.json.
type pointer struct {
	SchemaVersion string `json:"schema_version"`
	PetID         string `json:"pet_id"`
	Revision      int    `json:"revision"`
	PetpackSHA256 string `json:"petpack_sha256"`
	UpdatedAt     string `json:"updated_at"`
}

// pointerBytes is the pointer a committed row implies. It is a function of
// the row alone, so recovery restores the previous pointer byte for byte.
func pointerBytes(p *Pet) []byte {
	b, err := json.MarshalIndent(pointer{PointerSchemaVersion, p.ID, p.Revision, p.Digest, p.UpdatedAt}, "", "  ")
	if err != nil {
		panic(err) // a struct of strings and an int always marshals
	}
	return append(b, '\n')
}

// validID is the manifest ID form, checked again here because it becomes a
// directory name.
func validID(id string) bool {
	if !strings.HasPrefix(id, "pet_") || len(id) <= 4 || len(id) > 128 {
		return false
	}
	for _, c := range id[4:] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
