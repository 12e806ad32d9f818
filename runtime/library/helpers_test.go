package library

import (
	"archive/zip"
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// goldenPath is the sample pet's checked-in archive, read by path: its
// bytes change when the writer does, so no test knows its hash or size.
const goldenPath = "../../assets/petpack/pet_tabby.petpack.golden"

// variant rewrites the golden archive as another pet: every JSON document
// names id and name instead of the sample's, and extra, when not empty,
// is appended to the prompt so two variants of one ID differ in bytes.
// Only the identity strings change, so the result validates whatever
// shape the metadata has.
func variant(t testing.TB, dir, id, name, extra string) string {
	t.Helper()
	zr, err := zip.OpenReader(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		edit := strings.HasSuffix(f.Name, ".json") || strings.HasSuffix(f.Name, ".jsonl") || f.Name == "source/prompt.md" && extra != ""
		if !edit {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(data), `"pet_tabby"`, fmt.Sprintf("%q", id))
		s = strings.ReplaceAll(s, `"Tabby"`, fmt.Sprintf("%q", name))
		if f.Name == "source/prompt.md" {
			s += extra + "\n"
		}
		h := &zip.FileHeader{Name: f.Name, Method: f.Method, Modified: f.Modified, ExternalAttrs: f.ExternalAttrs, CreatorVersion: f.CreatorVersion}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, fmt.Sprintf("%s-%s.petpack", id, hashShort(buf.Bytes())))
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func hashShort(b []byte) string {
	var h uint32 = 2166136261
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return fmt.Sprintf("%08x", h)
}

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
	b.WriteString(dumpDB(t, filepath.Join(root, dbName)))
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
