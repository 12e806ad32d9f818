package bundleseed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/library"
)

const golden = "../../../assets/petpack/pet_tabby.petpack.golden"

func inventory(t *testing.T) []library.BundledPet {
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return []library.BundledPet{{ID: "pet_tabby", SHA256: hex.EncodeToString(sum[:])}}
}

// TestRun seeds from a runfiles-like directory of links (Bazel's), which
// resolves to the real directory the links point into, then from --from.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "bazel-out", "files")
	os.MkdirAll(real, 0o755)
	data, _ := os.ReadFile(golden)
	os.WriteFile(filepath.Join(real, "pet_tabby.petpack"), data, 0o644)
	rf := filepath.Join(dir, "x.runfiles", "ws", "pkg", "files")
	os.MkdirAll(rf, 0o755)
	os.Symlink(filepath.Join(real, "pet_tabby.petpack"), filepath.Join(rf, "pet_tabby.petpack"))
	t.Setenv("RUNFILES_DIR", filepath.Join(dir, "x.runfiles"))
	inv := inventory(t)
	root := filepath.Join(dir, "store")
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--root", root}, 0, "pet_tabby: installed, revision 1", ""},
		{[]string{"--root", root}, 0, "pet_tabby: unchanged, revision 1", ""},
		{[]string{"--root", root, "--from", rf}, 1, "", "not a regular file"},
		{[]string{"--root", root, "--from", real}, 0, "unchanged", ""},
		{[]string{"--from", real}, 2, "", "usage"},
	}
	for _, tt := range tests {
		var o, e bytes.Buffer
		code := Run(tt.args, inv, "ws", "pkg/files", &o, &e)
		if code != tt.code || !strings.Contains(o.String(), tt.stdout) || !strings.Contains(e.String(), tt.stderr) {
			t.Errorf("%v: exit %d, %q, %q", tt.args, code, o.String(), e.String())
		}
	}
}
