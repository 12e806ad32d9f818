package benchsets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// TestWriteDeterministic: a set written twice is the same bytes, and its
// manifest parses with one image a file.
func TestWriteDeterministic(t *testing.T) {
	s := Set{Name: "t", Count: 18, Side: 9}
	var trees [2]map[string][]byte
	for i := range trees {
		dir := t.TempDir()
		mp, err := Write(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.ReadFile(mp)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Images) != s.Count || len(m.Animations) != 2 {
			t.Fatalf("%d images, %d animations; want %d and 2", len(m.Images), len(m.Animations), s.Count)
		}
		trees[i] = map[string][]byte{}
		err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			trees[i][rel] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(trees[0]) != s.Count+1 {
		t.Fatalf("%d files, want %d", len(trees[0]), s.Count+1)
	}
	for p, data := range trees[0] {
		if !bytes.Equal(data, trees[1][p]) {
			t.Errorf("%s differs between two writes", p)
		}
	}
}
