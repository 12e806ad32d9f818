package ziptest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// SyncSeeds keeps a checked-in fuzz corpus in step with the seeds that
// make it: with update it writes each seed under dir in the go fuzz corpus
// format, and otherwise it fails for a seed that is missing or stale,
// saying to run regenerate.
func SyncSeeds(t *testing.T, dir string, seeds map[string][]byte, update bool, regenerate string) {
	t.Helper()
	for name, b := range seeds {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		path := filepath.Join(dir, name)
		if update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != text {
			t.Errorf("seed %s missing or stale (regenerate with %s): %v", path, regenerate, err)
		}
	}
}
