// Package fuzzseed keeps the checked-in corpora of `go test -fuzz` targets
// that take one []byte: the seeds are made by the tests from the same
// fixtures the ordinary tests use, written in the corpus file format, and
// checked on every plain test run so a corpus never drifts from the code
// that makes it.
package fuzzseed

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// encode is a []byte seed in the `go test fuzz v1` corpus file format.
func encode(b []byte) string { return fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b) }

// Sync keeps the corpus in dir in step with seeds (file name -> bytes):
// with update it writes each seed, and otherwise it fails the test for a
// seed that is missing or stale, saying to run regenerate.
func Sync(t testing.TB, dir string, seeds map[string][]byte, update bool, regenerate string) {
	t.Helper()
	for name, b := range seeds {
		text := encode(b)
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

// Read decodes one corpus file holding a single []byte.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "[]byte(") {
		t.Fatalf("%s: not a []byte corpus entry", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}
