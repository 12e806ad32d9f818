package vectors_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/tests/vectors"
)

// manifestLines reads VECTORS.txt.
func manifestLines(t testing.TB) []vectors.Line {
	t.Helper()
	text, err := os.ReadFile(vectors.ManifestName)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := vectors.ParseManifest(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatal("VECTORS.txt lists no vectors")
	}
	return lines
}

func readVector(t testing.TB, l vectors.Line) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(l.File))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func canonical(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectors.PacksDir, "canonical.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCommittedVectorsAreGenerated: the files on disk are exactly what
// Generate returns, so the manifest cannot drift from the generator.
func TestCommittedVectorsAreGenerated(t *testing.T) {
	c := canonical(t)
	// Outside Bazel's sandbox the golden pack is beside this directory.
	if golden, err := os.ReadFile("../golden/pet.pack"); err == nil && !bytes.Equal(golden, c) {
		t.Errorf("packs/canonical.pack is not tests/golden/pet.pack: %s; run go run ./tests/vectors/gen", assetpackformat.FirstDifference(c, golden))
	}
	vs, err := vectors.Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(vectors.ManifestName)
	if err != nil {
		t.Fatal(err)
	}
	if want := vectors.Manifest(vs); !bytes.Equal(text, want) {
		t.Errorf("VECTORS.txt is not what the generator writes; run go run ./tests/vectors/gen")
	}
	for _, v := range vs {
		b, err := os.ReadFile(filepath.Join(vectors.PacksDir, v.Name))
		if err != nil {
			t.Errorf("%s: %v; run go run ./tests/vectors/gen", v.Name, err)
			continue
		}
		if !bytes.Equal(b, v.Data) {
			t.Errorf("%s differs from the generator's: %s; run go run ./tests/vectors/gen", v.Name, assetpackformat.FirstDifference(b, v.Data))
		}
	}
	files, err := filepath.Glob(filepath.Join(vectors.PacksDir, "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(vs) {
		t.Errorf("%d files in %s, %d vectors", len(files), vectors.PacksDir, len(vs))
	}
}

// TestGoReader: runtime/pack gives every vector its listed verdict, and a
// rejection leaves ReadInto's destination zero.
func TestGoReader(t *testing.T) {
	for _, l := range manifestLines(t) {
		data := readVector(t, l)
		if got := vectors.Verdict(data); got != l.Expect {
			t.Errorf("%s: runtime/pack says %s, VECTORS.txt says %s (%s)", l.File, got, l.Expect, l.Desc)
		}
		dst := pack.Pack{Check: 9, Images: []pack.Image{{ID: "stale"}}}
		if err := pack.ReadInto(data, &dst); err != nil && !reflect.DeepEqual(dst, pack.Pack{}) {
			t.Errorf("%s: a rejection left the destination filled", l.File)
		}
	}
}

// TestEveryRuleCovered: each acceptance rule is broken by at least one
// vector, committed or large, and some vectors are accepted.
func TestEveryRuleCovered(t *testing.T) {
	seen := map[string]int{}
	for _, l := range manifestLines(t) {
		seen[l.Expect]++
	}
	seen[string(pack.RulePackLengthOutOfRange)]++ // over_16mib, a Large vector
	if seen[vectors.Accept] == 0 {
		t.Error("no vector is accepted")
	}
	for _, r := range pack.Rules() {
		if seen[string(r)] == 0 {
			t.Errorf("no vector breaks %s", r)
		}
		delete(seen, string(r))
	}
	delete(seen, vectors.Accept)
	for v := range seen {
		t.Errorf("verdict %q is neither accept nor a runtime/pack rule", v)
	}
}

// TestCRuleNames: the C enum holds the Go rules, in the Go order, under the
// Go identifiers.
func TestCRuleNames(t *testing.T) {
	out, err := exec.Command(checker(t), "--rules").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range pack.Rules() {
		want = append(want, string(r))
	}
	if got := strings.Fields(string(out)); !reflect.DeepEqual(got, want) {
		t.Fatalf("C rule names:\n%v\nGo rules:\n%v", got, want)
	}
}

// TestCReaderFiles runs the C helper over the files themselves (its file
// mode, as a person would) and checks every verdict against the manifest.
func TestCReaderFiles(t *testing.T) {
	lines := manifestLines(t)
	args := make([]string, len(lines))
	want := map[string]string{}
	for i, l := range lines {
		args[i] = filepath.FromSlash(l.File)
		want[args[i]] = l.Expect
	}
	out, err := exec.Command(checker(t), args...).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("pet_pack_check: %v", err)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(got) != len(lines) {
		t.Fatalf("pet_pack_check printed %d lines for %d files", len(got), len(lines))
	}
	for _, g := range got {
		f := strings.Fields(g)
		if len(f) != 2 {
			t.Fatalf("pet_pack_check printed %q", g)
		}
		if want[f[0]] != f[1] {
			t.Errorf("%s: the C reader says %s, VECTORS.txt says %s", f[0], f[1], want[f[0]])
		}
	}
}

// TestReadersAgreeOnVectors compares the full Go and C dumps for every
// vector: the verdict, and for accepted ones every lookup.
func TestReadersAgreeOnVectors(t *testing.T) {
	accepted := 0
	for _, l := range manifestLines(t) {
		data := readVector(t, l)
		compare(t, l.File, data)
		if l.Expect == vectors.Accept {
			accepted++
		}
	}
	t.Logf("Go and C agree on %d vectors (%d accepted)", len(manifestLines(t)), accepted)
}

// TestLargeVectors builds the vectors too big to commit (the 16 MiB limit
// and past it, a 1024x1024 image) and checks both readers on them.
func TestLargeVectors(t *testing.T) {
	if testing.Short() {
		t.Skip("large vectors skipped in -short mode")
	}
	vs, err := vectors.Large()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if got := vectors.Verdict(v.Data); got != v.Expect {
			t.Errorf("%s: runtime/pack says %s, want %s", v.Name, got, v.Expect)
		}
		compare(t, v.Name, v.Data)
	}
}

// TestBitFlipsAgree flips every bit of the header and tables of small
// packs, and of the whole minimal one, with and without resealing, and
// cuts a small pack at every length, and requires the readers to agree on
// every result. The committed vectors pin the verdicts; this pins
// agreement on the neighbourhood around them.
func TestBitFlipsAgree(t *testing.T) {
	// For the larger bases only the header and the first records.
	bases := []string{"minimal", "small", "edge_pool_20_frames", "canonical", "limits_all"}
	n := 0
	verdicts := map[string]int{}
	for _, name := range bases {
		base, err := os.ReadFile(filepath.Join(vectors.PacksDir, name+".pack"))
		if err != nil {
			t.Fatal(err)
		}
		end := len(base)
		switch name {
		case "canonical":
			end = 256
		case "limits_all":
			end = 64
		}
		for off := 0; off < end; off++ {
			for bit := uint(0); bit < 8; bit++ {
				b := append([]byte(nil), base...)
				b[off] ^= 1 << bit
				for _, d := range [][]byte{b, vectors.Reseal(append([]byte(nil), b...))} {
					compare(t, name+" flipped", d)
					verdicts[vectors.Verdict(d)]++
					n++
				}
			}
		}
	}
	small, err := os.ReadFile(filepath.Join(vectors.PacksDir, "small.pack"))
	if err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut <= len(small)+8; cut++ {
		b := make([]byte, cut)
		copy(b, small)
		compare(t, "small cut", b)
		verdicts[vectors.Verdict(b)]++
		n++
		if cut >= assetpackformat.MinPackLength {
			r := vectors.Reseal(append([]byte(nil), b...))
			compare(t, "small cut and resealed", r)
			verdicts[vectors.Verdict(r)]++
			n++
		}
	}
	var names []string
	for v := range verdicts {
		names = append(names, v)
	}
	sort.Strings(names)
	t.Logf("Go and C agree on %d mutated packs, %d distinct verdicts: %v", n, len(names), names)
}
