package library

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// BenchmarkImport imports the sample pet (a variant of the golden, as big
// as it) again and again, and reports the validator's share: ratio is an
// import's time over validating the same archive alone, which is what
// `petasset petpack verify` does. The difference is the copies, the
// extraction of cover and frames, and the syncs.
func BenchmarkImport(b *testing.B) {
	dir := b.TempDir()
	a := variant(b, dir, "pet_bench", "Bench", "")
	// The hook timestamps each step, so the import's time splits into
	// what runs between two steps (named by the step that starts it).
	var last time.Time
	var lastStep string
	phases := map[string]time.Duration{}
	s := openTest(b, filepath.Join(dir, "store"), Options{Hook: func(step string) error {
		now := time.Now()
		phases[lastStep] += now.Sub(last)
		last, lastStep = now, step
		return nil
	}})
	var validate time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if v := petpack.ValidatePath(a); !v.OK() {
			b.Fatal(v.Err())
		}
		validate += time.Since(start)
	}
	b.StopTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		last, lastStep = time.Now(), "validate"
		if _, err := s.Import(a, ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		phases[lastStep] += time.Since(last)
	}
	imp := time.Since(start)
	for step, d := range phases {
		b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), "ms-"+step)
	}
	b.ReportMetric(float64(validate.Nanoseconds())/float64(b.N), "validate-ns/op")
	b.ReportMetric(float64(imp.Nanoseconds())/float64(b.N), "import-ns/op")
	b.ReportMetric(float64(imp)/float64(validate), "import/validate")
}

// store1000 builds a store of n pets: one real import, and n-1 more
// pets sharing its archive bytes through hard links, each with its row,
// revision row and pointer, as n imports would leave them.
func store1000(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	root := filepath.Join(dir, "store")
	s := openTest(b, root, Options{})
	p, err := s.Import(variant(b, dir, "pet_seed", "Seed", ""), ImportOptions{})
	if err != nil {
		b.Fatal(err)
	}
	srcRev := s.revisionDir(p.ID, 1)
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i < n; i++ {
		q := *p
		q.ID = fmt.Sprintf("pet_bench%04d", i)
		q.Name = fmt.Sprintf("Bench %d", i)
		q.Active = false
		linkTree(b, srcRev, s.revisionDir(q.ID, 1))
		if err := os.WriteFile(s.pointerPath(q.ID), pointerBytes(&q), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := upsertPet(tx, &q); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO revisions VALUES (?, 1, ?, 0, ?)", q.ID, q.Digest, q.UpdatedAt); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	s.Close()
	return root
}

func linkTree(b *testing.B, src, dst string) {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dst, strings.TrimPrefix(p, src))
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		return os.Link(p, out)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOpen1000 opens a store of 1,000 pets: schema check, recovery
// (nothing to do) and the quarantine pass. Goal: well under 50 ms.
func BenchmarkOpen1000(b *testing.B) {
	root := store1000(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkList1000 lists a store of 1,000 pets. Goal: well under 50 ms.
func BenchmarkList1000(b *testing.B) {
	root := store1000(b, 1000)
	s := openTest(b, root, Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pets, _, err := s.List()
		if err != nil || len(pets) != 1000 {
			b.Fatal(len(pets), err)
		}
	}
}
