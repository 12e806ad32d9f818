// Package petpacktest makes and takes apart test archives for the tests of
// the packages that consume .petpack files (the pet library, motion QA, the
// petasset CLI): variants of the sample pet with other IDs and names,
// copies with one entry edited, and archives unpacked into a directory.
// It reads and writes through archive/zip on purpose: these helpers make
// well-formed archives whose contents are wrong, so the tests reach the
// validator's later stages; hostile ZIP structure is the ZIP reader's own
// tests' business.
package petpacktest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Edit is what Rewrite does to an archive: for each entry, the bytes to
// store instead of data, or data itself to keep the entry as it is.
type Edit func(name string, data []byte) []byte

// Rewrite copies archive to out, passing every entry through edit and
// then appending add's entries (deflated, in the order given) that the
// archive did not hold. An entry edit leaves unchanged is copied raw, so
// its compressed bytes stay those of the original.
func Rewrite(t testing.TB, archive, out string, edit Edit, add ...Entry) {
	t.Helper()
	if err := os.WriteFile(out, rewritten(t, archive, edit, add), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rewritten is Rewrite's archive, as bytes.
func rewritten(t testing.TB, archive string, edit Edit, add []Entry) []byte {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := map[string]bool{}
	for _, f := range zr.File {
		seen[f.Name] = true
		data := readEntry(t, f)
		if edit != nil {
			if changed := edit(f.Name, data); !bytes.Equal(changed, data) {
				h := &zip.FileHeader{Name: f.Name, Method: f.Method, Modified: f.Modified, ExternalAttrs: f.ExternalAttrs, CreatorVersion: f.CreatorVersion}
				write(t, zw, h, changed)
				continue
			}
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range add {
		if !seen[e.Name] {
			write(t, zw, &zip.FileHeader{Name: e.Name, Method: zip.Deflate}, e.Data)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Entry is a file Rewrite adds to an archive.
type Entry struct {
	Name string
	Data []byte
}

// Replace is an Edit that replaces every old with new in the entry named
// entry and leaves the others alone.
func Replace(entry, old, new string) Edit {
	return func(name string, data []byte) []byte {
		if name != entry {
			return data
		}
		return []byte(strings.ReplaceAll(string(data), old, new))
	}
}

// Variant rewrites the golden archive (the sample pet's checked-in
// archive, read by path: its bytes change when the writer does, so no test
// knows its hash or size) as another pet in dir and returns its path:
// every JSON document names id and name instead of the sample's, and
// extra, when not empty, is appended to the prompt so two variants of one
// ID differ in bytes. Only the identity strings change, so the result
// validates whatever shape the metadata has.
func Variant(t testing.TB, golden, dir, id, name, extra string) string {
	t.Helper()
	b := rewritten(t, golden, func(entry string, data []byte) []byte {
		isJSON := strings.HasSuffix(entry, ".json") || strings.HasSuffix(entry, ".jsonl")
		if !isJSON && (entry != "source/prompt.md" || extra == "") {
			return data
		}
		s := strings.ReplaceAll(string(data), `"pet_tabby"`, fmt.Sprintf("%q", id))
		s = strings.ReplaceAll(s, `"Tabby"`, fmt.Sprintf("%q", name))
		if entry == "source/prompt.md" {
			s += extra + "\n"
		}
		return []byte(s)
	}, nil)
	out := filepath.Join(dir, fmt.Sprintf("%s-%s.petpack", id, ShortHash(b)))
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// Unpack extracts archive into dir (which it creates) and returns dir.
func Unpack(t testing.TB, archive, dir string) string {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if strings.HasSuffix(f.Name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data := readEntry(t, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ShortHash is a short FNV-1a digest for file names and snapshots.
func ShortHash(b []byte) string {
	var h uint32 = 2166136261
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return fmt.Sprintf("%08x", h)
}

func readEntry(t testing.TB, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func write(t testing.TB, zw *zip.Writer, h *zip.FileHeader, data []byte) {
	t.Helper()
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
}
