package petpack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDir unpacks p into a new directory and returns its path.
func writeDir(t *testing.T, p pkg) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range p {
		path := filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(f.name, "/")))
		if strings.HasSuffix(f.name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestValidateDir(t *testing.T) {
	root := writeDir(t, validPackage().with("LICENSE", []byte("x")))
	if v := ValidateDir(root); !v.OK() || v.Manifest == nil {
		t.Fatalf("valid directory:\n%s", describeVerdict(v))
	}
	if v := ValidatePath(root); !v.OK() {
		t.Fatalf("ValidatePath of a directory:\n%s", describeVerdict(v))
	}
	// The same rules apply: a directory breaks a layout rule like an archive.
	t.Run("layout", func(t *testing.T) {
		expectRules(t, ValidateDir(writeDir(t, validPackage().without("brief.json"))), RuleRequiredMissing)
	})
	t.Run("case collision", func(t *testing.T) {
		dir := writeDir(t, validPackage().with("LICENSE", []byte("MIT")))
		if err := os.WriteFile(filepath.Join(dir, "license"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "LICENSE")); err != nil || string(b) == "x" {
			t.Skip("the file system folds case")
		}
		expectRules(t, ValidateDir(dir), RulePathCaseCollision)
	})
	t.Run("missing", func(t *testing.T) {
		expectRules(t, ValidateDir(filepath.Join(t.TempDir(), "nope")), RulePackageUnreadable)
		expectRules(t, ValidatePath(filepath.Join(t.TempDir(), "nope")), RulePackageUnreadable)
	})
	t.Run("a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "x.petpack")
		if err := os.WriteFile(f, rawZip(validPackage()), 0o644); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidateDir(f), RulePackageNotRegular)
		if v := ValidatePath(f); !v.OK() {
			t.Fatalf("ValidatePath of an archive:\n%s", describeVerdict(v))
		}
	})
	t.Run("5001 entries", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		for i := 0; i < MaxEntries; i++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("x%04d", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		expectRules(t, ValidateDir(dir), RuleTooManyEntries)
	})
}
