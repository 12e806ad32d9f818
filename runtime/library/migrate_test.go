package library

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func execScript(t *testing.T, dbPath, script string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
}

// TestLegacyDatabase opens the checked-in version 1 database: it is
// migrated in one transaction (every revision on disk gets its row), the
// rows with removed state names move to the quarantine with their files
// untouched, the remaining pet becomes active, and a second open changes
// nothing.
func TestLegacyDatabase(t *testing.T) {
	dir := t.TempDir()
	// Revision directories of a current pet, made by an ordinary store.
	donor := openTest(t, filepath.Join(dir, "donor"), Options{})
	mustImport(t, donor, variant(t, dir, "pet_real", "Real", ""), ImportOptions{})
	r2 := mustImport(t, donor, variant(t, dir, "pet_real", "Real", "two"), ImportOptions{})
	donor.Close()

	root := filepath.Join(dir, "store")
	os.MkdirAll(filepath.Join(root, petsDir), 0o755)
	copyTree(t, filepath.Join(dir, "donor", petsDir, "pet_real"), filepath.Join(root, petsDir, "pet_real"))
	for _, id := range []string{"pet_legacyone", "pet_legacytwo"} {
		d := filepath.Join(root, petsDir, id, revsDir, "1")
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, archiveName), []byte("a V2 archive, never read"), 0o644)
		os.WriteFile(filepath.Join(root, petsDir, id, pointerName), []byte("{}\n"), 0o644)
	}
	script, err := os.ReadFile("testdata/legacy_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(root, dbName)
	execScript(t, dbPath, string(script))
	r2.Active = false
	execScript(t, dbPath, "INSERT INTO pets VALUES ('pet_real', 'Real', '"+r2.Style+"', 'low', 'user', 'g', 'deterministic', 0, 2, '"+r2.Digest+"', '"+r2.CreatedAt+"', '"+r2.UpdatedAt+"', '"+strings.Join(r2.States, ",")+"')")
	legacyFiles := func() string {
		return snapshotFiles(t, filepath.Join(root, petsDir, "pet_legacyone")) + snapshotFiles(t, filepath.Join(root, petsDir, "pet_legacytwo"))
	}
	beforeFiles := legacyFiles()

	s := openTest(t, root, Options{})
	pets, quar, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(pets) != 1 || pets[0].ID != "pet_real" || !pets[0].Active {
		t.Fatalf("pets %+v", pets)
	}
	if len(quar) != 2 || quar[0].ID != "pet_legacyone" || !strings.Contains(quar[0].Reason, "start") || !strings.Contains(quar[1].Reason, "review") {
		t.Fatalf("quarantine %+v", quar)
	}
	revs, err := s.Revisions("pet_real")
	if err != nil || len(revs) != 2 {
		t.Fatalf("migrated revisions %+v %v", revs, err)
	}
	if legacyFiles() != beforeFiles {
		t.Fatal("quarantine touched the legacy files")
	}
	if _, err := s.Show("pet_legacyone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a quarantined row was projected: %v", err)
	}
	// The pointer of pet_real came from the donor with another updated_at
	// than the row the test wrote; Check compares them only for rows.
	os.WriteFile(s.pointerPath("pet_real"), pointerBytes(&pets[0]), 0o644)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := snapshot(t, root)
	s = openTest(t, root, Options{})
	s.Close()
	if after := snapshot(t, root); after != before {
		t.Fatalf("a second open changed the store:\n%s\nwant\n%s", after, before)
	}
	if _, err := s.Import(variant(t, dir, "pet_legacyone", "Again", ""), ImportOptions{}); err == nil {
		t.Fatal("closed store imported")
	}
	s = openTest(t, root, Options{})
	if _, err := s.Import(variant(t, dir, "pet_legacyone", "Again", ""), ImportOptions{}); !errors.Is(err, ErrQuarantined) {
		t.Fatalf("import over a quarantined ID: %v", err)
	}
}

func TestSchemaVersions(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   error
	}{
		{"newer", "PRAGMA user_version = 99;", ErrNewerSchema},
		{"foreign tables", "CREATE TABLE other (x);", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			execScript(t, filepath.Join(root, dbName), tt.script)
			_, err := Open(root, Options{})
			if err == nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

// snapshotFiles is snapshot for a tree without a database.
func snapshotFiles(t *testing.T, root string) string { return snapshot(t, root) }
