// Package librarytest makes test archives for the pet library's tests and
// the petasset CLI's: variants of the sample pet with other IDs and names.
package librarytest

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

// Variant rewrites the golden archive (the sample pet's checked-in
// archive, read by path: its bytes change when the writer does, so no test
// knows its hash or size) as another pet: every JSON document
// names id and name instead of the sample's, and extra, when not empty,
// is appended to the prompt so two variants of one ID differ in bytes.
// Only the identity strings change, so the result validates whatever
// shape the metadata has.
func Variant(t testing.TB, golden, dir, id, name, extra string) string {
	t.Helper()
	zr, err := zip.OpenReader(golden)
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
	out := filepath.Join(dir, fmt.Sprintf("%s-%s.petpack", id, ShortHash(buf.Bytes())))
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// ShortHash is a short FNV-1a digest for file names and snapshots.
func ShortHash(b []byte) string {
	var h uint32 = 2166136261
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return fmt.Sprintf("%08x", h)
}
