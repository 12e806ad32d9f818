package library

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecovery leaves behind each kind of leftover recoverLocked handles,
// as a process killed at that moment would, reopens the store and
// requires Check to pass and the store to equal, file for file and row
// for row, the state before the interrupted write (it had not committed)
// or after it (it had). A crash before a hook is taken as a copy of the
// store's tree made in the hook: the write is stopped there, the copy is
// what a kill would leave. A crash after the commit, which has no hook,
// is the completed write's tree with its leftovers added.
func TestRecovery(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	alpha1 := variant(t, dir, "pet_alpha", "Alpha", "")
	alpha2 := variant(t, dir, "pet_alpha", "Alpha", "two")
	alpha3 := variant(t, dir, "pet_alpha", "Alpha", "three")
	beta := variant(t, dir, "pet_beta", "Beta", "")
	gamma := variant(t, dir, "pet_gamma", "Gamma", "")
	s := openTest(t, base, Options{})
	mustImport(t, s, alpha1, ImportOptions{})
	mustImport(t, s, alpha2, ImportOptions{})
	mustImport(t, s, beta, ImportOptions{})
	s.Close()
	before := snapshot(t, base)

	importGamma := func(s *Store) error { _, err := s.Import(gamma, ImportOptions{}); return err }
	importAlpha := func(s *Store) error { _, err := s.Import(alpha3, ImportOptions{}); return err }
	current := func(s *Store) error { _, err := s.SetCurrent("pet_alpha", 1); return err }
	deleteBeta := func(s *Store) error { return s.Delete("pet_beta") }
	intentFile := func(t *testing.T, root, name string, in intent) {
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		plant(t, root, "staging/"+intentPrefix+name+".json", data)
	}
	tests := []struct {
		name string
		op   func(*Store) error
		// op is the interrupted write (nil: none, only planted leftovers).
		// at is the step the process dies at; "" means after the write
		// returned, with plant adding what it had not yet cleaned up.
		at    string
		plant func(t *testing.T, root string)
		// left are the leftovers the crash must have left (a glob below
		// the root, optionally "=TEXT" the file contains), so a case
		// cannot pass by missing its window.
		left      []string
		committed bool
	}{
		{name: "candidate, no intent", op: importGamma, at: StepIntent,
			left: []string{"staging/candidate-*/pet.petpack", "staging/candidate-*/frames/idle/0000.png"}},
		{name: "intent, nothing published", op: importGamma, at: StepPublish,
			left: []string{"staging/intent-*.json=pet_gamma", "staging/candidate-*"}},
		{name: "intent, orphan revision of a new pet", op: importGamma, at: StepPointer,
			left: []string{"staging/intent-*.json=pet_gamma", "pets/pet_gamma/revisions/1/pet.petpack"}},
		{name: "intent, orphan revision and pointer of a new pet", op: importGamma, at: StepCommit,
			left: []string{"staging/intent-*.json=pet_gamma", "pets/pet_gamma/revisions/1/cover.png", `pets/pet_gamma/active.json="revision": 1`}},
		{name: "intent, orphan revision", op: importAlpha, at: StepPointer,
			left: []string{"staging/intent-*.json=pet_alpha", "pets/pet_alpha/revisions/3/pet.petpack", `pets/pet_alpha/active.json="revision": 2`}},
		{name: "intent, orphan revision and its pointer", op: importAlpha, at: StepCommit,
			left: []string{"staging/intent-*.json=pet_alpha", "pets/pet_alpha/revisions/3/pet.petpack", `pets/pet_alpha/active.json="revision": 3`}},
		{name: "intent, pointer to an uncommitted current", op: current, at: StepCommit,
			left: []string{"staging/intent-*.json=current", `pets/pet_alpha/active.json="revision": 1`}},
		{name: "delete intent, directory not yet moved", op: deleteBeta, at: StepTrash,
			left: []string{"staging/intent-*.json=trash-", "pets/pet_beta/revisions/1/pet.petpack"}},
		{name: "delete intent, trash of a surviving row", op: deleteBeta, at: StepCommit,
			left: []string{"staging/intent-*.json=trash-", "staging/trash-*/revisions/1/pet.petpack"}},
		{name: "delete intent, trash of a deleted row", op: deleteBeta, committed: true,
			plant: func(t *testing.T, root string) {
				copyTree(t, filepath.Join(base, "pets", "pet_beta"), filepath.Join(root, "staging", "trash-left"))
				intentFile(t, root, "left", intent{Op: "delete", PetID: "pet_beta", Trash: "trash-left"})
			},
			left: []string{"staging/intent-left.json", "staging/trash-left/revisions/1/pet.petpack"}},
		{name: "intent of a committed import", op: importAlpha, committed: true,
			plant: func(t *testing.T, root string) {
				intentFile(t, root, "left", intent{Op: "import", PetID: "pet_alpha"})
			},
			left: []string{"staging/intent-left.json", "pets/pet_alpha/revisions/3/pet.petpack"}},
		{name: "intent, temporary pointer and stray revision names", op: importGamma, committed: true,
			plant: func(t *testing.T, root string) {
				intentFile(t, root, "left", intent{Op: "import", PetID: "pet_gamma"})
				plant(t, root, "pets/pet_gamma/.active.json.tmp-left", []byte("{"))
				plant(t, root, "pets/pet_gamma/revisions/01/pet.petpack", []byte("x"))
				plant(t, root, "pets/pet_gamma/revisions/2.tmp/pet.petpack", []byte("x"))
			},
			left: []string{"pets/pet_gamma/.active.json.tmp-left", "pets/pet_gamma/revisions/01/pet.petpack", "pets/pet_gamma/revisions/2.tmp"}},
		{name: "torn intent and a candidate",
			plant: func(t *testing.T, root string) {
				plant(t, root, "staging/intent-torn.json", []byte(`{"op":"imp`))
				plant(t, root, "staging/candidate-left/pet.petpack", []byte("x"))
			},
			left: []string{"staging/intent-torn.json", "staging/candidate-left/pet.petpack"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := filepath.Join(dir, "work", strings.ReplaceAll(tt.name, " ", "_"))
			crash := filepath.Join(dir, "crash", strings.ReplaceAll(tt.name, " ", "_"))
			copyTree(t, base, work)
			copied := false
			if tt.op != nil {
				ws := openTest(t, work, Options{Hook: func(step string) error {
					if step == tt.at && !copied {
						copyTree(t, work, crash)
						copied = true
					}
					return nil
				}})
				if err := tt.op(ws); err != nil {
					t.Fatal(err)
				}
				ws.Close()
			}
			switch {
			case tt.at != "" && !copied:
				t.Fatalf("the write never reached step %s", tt.at)
			case tt.at == "":
				copyTree(t, work, crash)
			}
			want := before
			if tt.committed {
				if want = snapshot(t, work); want == before {
					t.Fatal("the write changed nothing")
				}
			}
			if tt.plant != nil {
				tt.plant(t, crash)
			}
			for _, l := range tt.left {
				requireLeftover(t, crash, l)
			}
			s := openTest(t, crash, Options{})
			if err := s.Check(); err != nil {
				t.Fatalf("after recovery: %v", err)
			}
			s.Close()
			if diff := cmp.Diff(withoutJournal(want), withoutJournal(snapshot(t, crash))); diff != "" {
				t.Fatalf("after recovery the store differs from the one %s the write (-want +got):\n%s", map[bool]string{false: "before", true: "after"}[tt.committed], diff)
			}
		})
	}
}

// plant writes a file below root, making its directories.
func plant(t *testing.T, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// requireLeftover fails unless the glob pattern (below root, with an
// optional "=TEXT" the matched file must contain) matches.
func requireLeftover(t *testing.T, root, pattern string) {
	t.Helper()
	glob, text, hasText := strings.Cut(pattern, "=")
	matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(glob)))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range matches {
		if !hasText {
			return
		}
		if data, err := os.ReadFile(m); err == nil && strings.Contains(string(data), text) {
			return
		}
	}
	t.Fatalf("the crash left no %s", pattern)
}

// withoutJournal drops a snapshot's line for SQLite's rollback journal. A
// kill inside the row's transaction leaves the journal of a transaction
// that never committed; SQLite, not the store's recovery, owns that file
// (it ignores a journal that is not hot and reuses the name at the next
// write), and the rows it protects are compared in full.
func withoutJournal(snap string) string {
	return strings.Replace(snap, dbName+"-journal (database side file)\n", "", 1)
}

// TestCheckRevisionContents tampers with one published revision's
// extracted files at a time: Check must compare them with the archive's
// entries, not only find a cover.png and a frames/ directory. It must also
// find a file beside active.json that recovery should have removed.
func TestCheckRevisionContents(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	s := openTest(t, base, Options{})
	mustImport(t, s, variant(t, dir, "pet_alpha", "Alpha", ""), ImportOptions{})
	s.Close()
	const rd = "pets/pet_alpha/revisions/1/"
	frame := rd + "frames/idle/0001.png"
	tests := []struct {
		name   string
		tamper func(root string) error
		want   string
	}{
		{"frame missing", func(root string) error { return os.Remove(filepath.Join(root, frame)) }, "1 of pet.petpack's cover and frames are missing, first frames/idle/0001.png"},
		{"action missing", func(root string) error { return os.RemoveAll(filepath.Join(root, rd, "frames/waiting")) }, "8 of pet.petpack's cover and frames are missing, first frames/waiting/0000.png"},
		{"cover missing", func(root string) error { return os.Remove(filepath.Join(root, rd, coverName)) }, "1 of pet.petpack's cover and frames are missing, first cover.png"},
		{"frame truncated", func(root string) error { return os.Truncate(filepath.Join(root, frame), 10) }, "frames/idle/0001.png differs from pet.petpack's assets/frames/idle/0001.png"},
		{"frame byte flipped", func(root string) error {
			p := filepath.Join(root, frame)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			data[len(data)/2] ^= 1
			return os.WriteFile(p, data, 0o644)
		}, "frames/idle/0001.png differs from pet.petpack's assets/frames/idle/0001.png"},
		{"extra frame", func(root string) error {
			return os.WriteFile(filepath.Join(root, rd, "frames/idle/0099.png"), nil, 0o644)
		}, "frames/idle/0099.png is no entry of pet.petpack"},
		{"extra directory", func(root string) error { return os.Mkdir(filepath.Join(root, rd, "frames/sleep"), 0o755) }, "frames/sleep/ holds no entry of pet.petpack"},
		{"frame a symbolic link", func(root string) error {
			p := filepath.Join(root, frame)
			if err := os.Rename(p, p+".real"); err != nil {
				return err
			}
			return os.Symlink(p+".real", p)
		}, "frames/idle/0001.png is not a regular file"},
		{"temporary file beside active.json", func(root string) error {
			return os.WriteFile(filepath.Join(root, "pets/pet_alpha/.active.json.tmp-x"), nil, 0o644)
		}, "pet_alpha: .active.json.tmp-x is neither active.json nor revisions/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			copyTree(t, base, root)
			s := openTest(t, root, Options{})
			if err := s.Check(); err != nil {
				t.Fatalf("before tampering: %v", err)
			}
			if err := tt.tamper(root); err != nil {
				t.Fatal(err)
			}
			err := s.Check()
			want := "pet_alpha: revision 1: " + tt.want
			if strings.HasPrefix(tt.want, "pet_alpha: ") { // not about a revision
				want = tt.want
			}
			if err == nil || err.Error() != want {
				t.Fatalf("Check = %v, want %s", err, want)
			}
		})
	}
}
