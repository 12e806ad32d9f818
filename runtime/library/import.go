package library

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/internal/petpackzip"
	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// The named steps of a write, in the order they run; Options.Hook is
// called before each.
const (
	StepValidated      = "validated"       // the archive validated; its hash is about to be taken again
	StepStage          = "stage"           // the candidate directory is about to be made in staging/
	StepStageArchive   = "stage-archive"   // the archive is about to be copied
	StepStageMedia     = "stage-media"     // cover and frames are about to be extracted
	StepStageSync      = "stage-sync"      // the candidate is about to be synced
	StepChecks         = "checks"          // the ID checks are about to run
	StepIntent         = "intent"          // the intent is about to be written
	StepPublish        = "publish"         // the revision is about to be renamed into pets/
	StepPointer        = "pointer"         // active.json is about to be replaced
	StepCommit         = "commit"          // the row's transaction is about to commit
	StepTrash          = "trash"           // a deleted pet's directory is about to move to staging/
	StepExportCopy     = "export-copy"     // the installed archive is about to be copied beside DEST
	StepExportValidate = "export-validate" // the staged copy is about to be validated and compared
	StepExportPublish  = "export-publish"  // the staged copy is about to be renamed over DEST
)

// ImportOptions are the guards of an import.
type ImportOptions struct {
	// ExpectAbsent fails the import when the ID is installed.
	ExpectAbsent bool
	// BaseRevision and BaseDigest, when either is set, pin an edit to
	// the revision it was made from: the import fails unless that is
	// still the pet's current revision.
	BaseRevision int
	BaseDigest   string
}

// RejectedError is an archive the validator refused.
type RejectedError struct {
	// Path is the archive as given.
	Path string
	// Verdict is the validator's, with at least one error.
	Verdict *petpack.Verdict
}

func (e *RejectedError) Error() string { return e.Path + ": " + e.Verdict.Err().Error() }

// Import installs the .petpack archive at path as a new revision of the
// pet its manifest names and returns the committed row. See the package
// documentation for the order of steps.
func (s *Store) Import(archive string, opt ImportOptions) (*Pet, error) {
	return s.install(archive, opt, OriginUser)
}

// source is the part of source/source.json the row keeps. generator and
// provenance are plain strings in V3; another form is kept as its compact
// JSON text rather than dropped.
type source struct {
	Generator  json.RawMessage `json:"generator"`
	Provenance json.RawMessage `json:"provenance"`
}

func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// validated is an archive that passed the validator, with the hash its
// bytes had before and after.
type validated struct {
	path     string
	digest   string
	size     int64
	manifest *petpack.Manifest
}

// validate runs steps 1 to 5 of section 8 through the validator, hashing
// the source before and after: bytes that changed in between are refused.
func (s *Store) validate(archive string) (*validated, error) {
	info, err := os.Lstat(archive)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s: %w", archive, ErrDirectory)
	}
	before, size, err := hashFile(archive)
	if err != nil {
		return nil, err
	}
	v := petpack.ValidatePath(archive)
	if !v.OK() {
		return nil, &RejectedError{Path: archive, Verdict: v}
	}
	if err := s.step(StepValidated); err != nil {
		return nil, err
	}
	after, _, err := hashFile(archive)
	if err != nil {
		return nil, err
	}
	if before != after {
		return nil, fmt.Errorf("%s: %w", archive, ErrSourceChanged)
	}
	if !validID(v.Manifest.ID) {
		return nil, fmt.Errorf("%s: manifest id %q cannot name a pet directory", archive, v.Manifest.ID)
	}
	return &validated{path: archive, digest: before, size: size, manifest: v.Manifest}, nil
}

// install validates, then stages, checks, publishes and commits under the
// exclusive lock.
func (s *Store) install(archive string, opt ImportOptions, origin Origin) (*Pet, error) {
	val, err := s.validate(archive)
	if err != nil {
		return nil, err
	}
	var out *Pet
	err = s.locked(true, func() error {
		var err error
		out, err = s.installLocked(val, opt, origin)
		return err
	})
	return out, err
}

func (s *Store) installLocked(val *validated, opt ImportOptions, origin Origin) (*Pet, error) {
	id := val.manifest.ID
	if err := s.step(StepStage); err != nil {
		return nil, err
	}
	stage := filepath.Join(s.stagingPath(), "candidate-"+randomName())
	if err := os.Mkdir(stage, 0o755); err != nil {
		return nil, err
	}
	published := false
	defer func() {
		if !published {
			os.RemoveAll(stage)
			durable.SyncDir(s.stagingPath())
		}
	}()
	src, err := s.stageRevision(val, stage)
	if err != nil {
		return nil, err
	}
	if err := s.step(StepStageSync); err != nil {
		return nil, err
	}
	if err := syncTree(stage); err != nil {
		return nil, err
	}

	// The ID checks, immediately before publication.
	if err := s.step(StepChecks); err != nil {
		return nil, err
	}
	old, err := getPet(s.db, id)
	if err != nil {
		return nil, err
	}
	if err := s.checkID(id, old, opt, origin); err != nil {
		return nil, err
	}
	var last, nActive int
	if err := s.db.QueryRow("SELECT coalesce((SELECT last_revision FROM revision_counters WHERE pet_id = ?), 0)", id).Scan(&last); err != nil {
		return nil, err
	}
	if err := s.db.QueryRow("SELECT count(*) FROM pets WHERE active = 1").Scan(&nActive); err != nil {
		return nil, err
	}
	rev := last + 1
	now := s.now()
	m := val.manifest
	row := &Pet{
		ID: id, Name: m.Name, Style: m.Style, Quality: string(m.Quality), Origin: origin,
		Generator: jsonText(src.Generator), Provenance: jsonText(src.Provenance),
		Active: nActive == 0, Revision: rev, Digest: val.digest, CreatedAt: now, UpdatedAt: now,
	}
	for _, st := range m.States {
		row.States = append(row.States, string(st.Name))
	}
	if origin == OriginBundled {
		row.Generator, row.Provenance = BundledGenerator, BundledProvenance
	}
	if old != nil {
		row.Active, row.CreatedAt = old.Active, old.CreatedAt
	}

	if err := s.step(StepIntent); err != nil {
		return nil, err
	}
	intentPath, err := s.writeIntent(intent{Op: "import", PetID: id})
	if err != nil {
		return nil, err
	}
	defer clearIntent(intentPath)

	// Publication: the revision, then the pointer, then the row. Until
	// the row commits, undo removes only what this import created.
	petDir := s.petDir(id)
	newPet := !exists(petDir)
	if old == nil && !newPet {
		return nil, fmt.Errorf("%s exists although no committed row names the pet", petDir)
	}
	revDir := s.revisionDir(id, rev)
	undo := func() error {
		if newPet {
			return removeAll(petDir)
		}
		if err := replaceFile(s.pointerPath(id), pointerBytes(old)); err != nil {
			return err
		}
		return removeAll(revDir)
	}
	fail := func(err error) (*Pet, error) {
		if uerr := undo(); uerr != nil {
			return nil, fmt.Errorf("%w (and rolling back: %v; the next open recovers)", err, uerr)
		}
		return nil, err
	}
	if err := s.step(StepPublish); err != nil {
		return fail(err)
	}
	if err := mkdirSynced(petDir); err != nil {
		return fail(err)
	}
	if err := mkdirSynced(filepath.Join(petDir, revsDir)); err != nil {
		return fail(err)
	}
	if exists(revDir) {
		return fail(fmt.Errorf("%s exists although no row names it", revDir))
	}
	if err := os.Rename(stage, revDir); err != nil {
		return fail(err)
	}
	published = true
	if err := durable.SyncDir(filepath.Dir(revDir)); err != nil {
		return fail(err)
	}
	if err := durable.SyncDir(s.stagingPath()); err != nil {
		return fail(err)
	}
	if err := s.step(StepPointer); err != nil {
		return fail(err)
	}
	if err := replaceFile(s.pointerPath(id), pointerBytes(row)); err != nil {
		return fail(err)
	}
	err = s.commit(func(tx *sql.Tx) error {
		if err := upsertPet(tx, row); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO revisions (pet_id, revision, digest, size, installed_at) VALUES (?, ?, ?, ?, ?)", id, rev, val.digest, val.size, now); err != nil {
			return err
		}
		_, err := tx.Exec("INSERT INTO revision_counters (pet_id, last_revision) VALUES (?, ?) ON CONFLICT (pet_id) DO UPDATE SET last_revision = excluded.last_revision", id, rev)
		return err
	})
	if err != nil {
		return fail(err)
	}
	return row, nil
}

// checkID applies the ID rules of section 8 to an import of id.
func (s *Store) checkID(id string, old *Pet, opt ImportOptions, origin Origin) error {
	if q, err := isQuarantined(s.db, id); err != nil {
		return err
	} else if q {
		return fmt.Errorf("%s: %w", id, ErrQuarantined)
	}
	if origin == OriginUser {
		if old != nil && old.Origin == OriginBundled {
			return fmt.Errorf("%s: %w", id, ErrBundledReadOnly)
		}
		for _, b := range s.opt.Bundled {
			if b == id {
				return fmt.Errorf("%s: %w", id, ErrBundledReadOnly)
			}
		}
	}
	if opt.ExpectAbsent && old != nil {
		return fmt.Errorf("%s: %w", id, ErrExists)
	}
	if opt.BaseRevision != 0 || opt.BaseDigest != "" {
		if old == nil {
			return fmt.Errorf("%s: %w (the pet is not installed)", id, ErrBaseChanged)
		}
		if old.Revision != opt.BaseRevision || old.Digest != opt.BaseDigest {
			return fmt.Errorf("%s: %w (base revision %d %s, current revision %d %s)", id, ErrBaseChanged, opt.BaseRevision, opt.BaseDigest, old.Revision, old.Digest)
		}
	}
	return nil
}

// stageRevision fills the candidate directory: the archive byte for byte
// (its hash must be the validated one), then cover.png and the runtime
// frames taken from that staged copy, never from the source again.
func (s *Store) stageRevision(val *validated, stage string) (*source, error) {
	if err := s.step(StepStageArchive); err != nil {
		return nil, err
	}
	f, err := os.Open(val.path)
	if err != nil {
		return nil, err
	}
	staged := filepath.Join(stage, archiveName)
	digest, err := copyFile(staged, f, false) // synced with the tree
	f.Close()
	if err != nil {
		return nil, err
	}
	if digest != val.digest {
		return nil, fmt.Errorf("%s: %w (the staged copy differs from the validated bytes)", val.path, ErrSourceChanged)
	}
	if err := s.step(StepStageMedia); err != nil {
		return nil, err
	}
	// The staged copy's digest is the validated one, so its container
	// passed stage 1 already: internal/petpackzip, the strict reader under
	// the validator's budgets (what petpack.ReadContainer runs), reads it again, with each
	// entry bounded and CRC-checked, rather than a second ZIP reader with
	// rules of its own or a second full validation.
	sf, err := os.Open(staged)
	if err != nil {
		return nil, err
	}
	defer sf.Close()
	za, err := petpackzip.Open(sf, val.size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", staged, err)
	}
	var src source
	entries := za.Entries()
	for i := range entries {
		e := &entries[i]
		if e.IsDir() {
			continue
		}
		if e.Name == "source/source.json" {
			data, err := readEntry(e, petpack.MaxManifestBytes)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(data, &src); err != nil {
				return nil, fmt.Errorf("source/source.json: %w", err)
			}
			continue
		}
		dst, ok := mediaPath(e.Name)
		if !ok {
			continue
		}
		if err := extract(e, filepath.Join(stage, filepath.FromSlash(dst))); err != nil {
			return nil, err
		}
	}
	if !exists(filepath.Join(stage, coverName)) {
		return nil, errors.New("the validated archive has no assets/preview/cover.png")
	}
	return &src, nil
}

// mediaPath is where a revision directory keeps its own copy of an
// archive entry (slash-separated, relative to the directory): cover.png
// for the cover, frames/<action>/<name> for a runtime frame. ok is false
// for every other entry. Import extracts by it and Check compares by it,
// so the two cannot disagree on what a complete revision holds.
func mediaPath(entry string) (dst string, ok bool) {
	if entry == "assets/preview/cover.png" {
		return coverName, true
	}
	rest := strings.TrimPrefix(entry, "assets/frames/")
	if rest == entry {
		return "", false
	}
	action, name, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(name, "/") || !strings.HasSuffix(strings.ToLower(name), ".png") || petpack.Action(action).FramesDir() == "" {
		return "", false
	}
	return path.Join(framesName, action, name), true
}

func readEntry(e *strictzip.Entry, limit int64) ([]byte, error) {
	rc, err := e.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, limit))
}

func extract(e *strictzip.Entry, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rc, err := e.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = copyFile(dst, rc, false) // synced with the tree
	return err
}
