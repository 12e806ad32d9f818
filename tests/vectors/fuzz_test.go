package vectors_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/tests/vectors"
)

// FuzzDifferential runs the Go reader (runtime/pack) and the C reader
// (firmware/pet_pack.c, through pet_pack_check --serve) on the same bytes,
// and on the same bytes with their length and check resealed so that
// mutations reach the structural rules, and fails on any disagreement in
// verdict, rule or, for an accepted pack, any lookup. The seeds are every
// committed vector plus testdata/fuzz/FuzzDifferential (former findings),
// and they also run as a plain test.
//
//	go test -run='^$' -fuzz='^FuzzDifferential$' -fuzztime=60s ./tests/vectors
func FuzzDifferential(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(vectors.PacksDir, "*.pack"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compare(t, "input", data)
		if len(data) >= assetpackformat.MinPackLength && len(data) <= assetpackformat.MaxPackLength {
			compare(t, "input resealed", vectors.Reseal(append([]byte(nil), data...)))
		}
	})
}
