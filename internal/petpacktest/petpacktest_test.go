package petpacktest

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

func TestRewriteAndUnpack(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.zip")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range []Entry{{"a.json", []byte(`{"id":"pet_tabby"}`)}, {"b/c.txt", []byte("keep")}} {
		write(t, zw, &zip.FileHeader{Name: e.Name, Method: zip.Deflate}, e.Data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out := filepath.Join(dir, "out.zip")
	Rewrite(t, src, out, Replace("a.json", "pet_tabby", "pet_other"), Entry{"a.json", []byte("ignored: present")}, Entry{"new.txt", []byte("added")})
	got := Unpack(t, out, filepath.Join(dir, "x"))
	for name, want := range map[string]string{"a.json": `{"id":"pet_other"}`, "b/c.txt": "keep", "new.txt": "added"} {
		b, err := os.ReadFile(filepath.Join(got, filepath.FromSlash(name)))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}
