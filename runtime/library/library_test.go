package library

import (
	"path/filepath"
	"testing"
)

func TestImportBasic(t *testing.T) {
	dir := t.TempDir()
	a := variant(t, dir, "pet_alpha", "Alpha", "")
	s := openTest(t, filepath.Join(dir, "store"), Options{})
	p, err := s.Import(a, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", p)
}
