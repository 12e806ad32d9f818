package library

import (
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// goldenPath is the sample pet's checked-in archive, read by path.
const goldenPath = "../../assets/petpack/pet_tabby.petpack.golden"

func variant(t testing.TB, dir, id, name, extra string) string {
	return petpacktest.Variant(t, goldenPath, dir, id, name, extra)
}

func hashShort(b []byte) string { return petpacktest.ShortHash(b) }

// testClock is a clock that advances one second a call, so update times
// order pets deterministically.
func testClock() func() time.Time {
	var n int64
	return func() time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(atomic.AddInt64(&n, 1)) * time.Second)
	}
}

func openTest(t testing.TB, root string, opt Options) *Store {
	t.Helper()
	if opt.Now == nil {
		opt.Now = testClock()
	}
	s, err := Open(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// snapshot is every file under a root (path, mode type and bytes) and
// every table's rows, to show that a failed operation left a store exactly
// as it was.
func snapshot(t testing.TB, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case rel == dbName || strings.HasPrefix(rel, dbName+"-"):
			if rel != dbName {
				fmt.Fprintf(&b, "%s (database side file)\n", rel)
			}
			return nil
		case d.IsDir():
			fmt.Fprintf(&b, "%s/\n", rel)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %s\n", rel, d.Type(), len(data), hashShort(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(root, dbName)) {
		b.WriteString(dumpDB(t, filepath.Join(root, dbName)))
	}
	return b.String()
}

// dumpDB prints every row of every table in a fixed order, through a
// separate read-only connection.
func dumpDB(t testing.TB, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", v)
	tables := []string{}
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	for _, tb := range tables {
		r, err := db.Query("SELECT * FROM " + tb)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := r.Columns()
		var lines []string
		for r.Next() {
			vals := make([]interface{}, len(cols))
			ptrs := make([]interface{}, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		r.Close()
		sort.Strings(lines)
		fmt.Fprintf(&b, "table %s\n%s\n", tb, strings.Join(lines, "\n"))
	}
	return b.String()
}

// rewrite copies archive with one entry's text replaced.
func rewrite(t testing.TB, archive, entry, old, new string) string {
	t.Helper()
	out := archive + "." + hashShort([]byte(entry+old+new)) + ".petpack"
	petpacktest.Rewrite(t, archive, out, petpacktest.Replace(entry, old, new))
	return out
}

// validatePath is nil for an archive the validator accepts.
func validatePath(path string) error { return petpack.ValidatePath(path).Err() }

// brokenArchive is an archive made to break one rule of the validator.
type brokenArchive struct {
	name, path string
	// rule is the error the validator must report; "" accepts any error
	// (a flipped byte breaks whichever rule covers the bytes it lands in).
	rule petpack.Rule
}

// brokenArchives makes one rejected archive per stage of the validator
// from a valid variant.
func brokenArchives(t testing.TB, dir string) []brokenArchive {
	t.Helper()
	base := variant(t, dir, "pet_broken", "Broken", "")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, "broken-"+strings.ReplaceAll(name, " ", "_")+".petpack")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 0xff
	return []brokenArchive{
		{"empty file", write("empty file", nil), petpack.RuleZipEndMissing},
		{"truncated", write("truncated", data[:len(data)/2]), petpack.RuleZipEndMissing},
		{"flipped byte", write("flipped byte", flipped), ""},
		{"v2 manifest", rewrite(t, base, "manifest.json", "apc.petpack.v3", "apc.petpack.v2"), petpack.RuleSchemaVersionLegacy},
		{"removed state name", rewrite(t, base, "manifest.json", `"acknowledge"`, `"review"`), petpack.RuleStateUnknown},
		{"source names another ID", rewrite(t, base, "source/source.json", `"pet_broken"`, `"pet_other"`), petpack.RuleMetadataIDMismatch},
		{"frame not a PNG", replaceEntry(t, base, "assets/frames/idle/0000.png", []byte("not a png")), petpack.RulePNGHeaderInvalid},
		{"compatibility file", replaceEntry(t, base, "pet.json", []byte("{}")), petpack.RuleCompatibilityName},
		{"traversal", replaceEntry(t, base, "../escape.txt", []byte("x")), petpack.RulePathDotDot},
	}
}

// replaceEntry copies archive with entry's bytes replaced, or the entry
// added when the archive has none.
func replaceEntry(t testing.TB, archive, entry string, data []byte) string {
	t.Helper()
	out := archive + "." + hashShort([]byte(entry)) + ".petpack"
	replace := func(name string, old []byte) []byte {
		if name == entry {
			return data
		}
		return old
	}
	petpacktest.Rewrite(t, archive, out, replace, petpacktest.Entry{Name: entry, Data: data})
	return out
}
