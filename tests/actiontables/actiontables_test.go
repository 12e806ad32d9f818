// Package actiontables holds the test that the Starlark copies of the nine
// actions and the five playback modes say what the Go model says: Starlark
// cannot import runtime/petpack/model, so its lists are held to it here.
package actiontables

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// root is the repository, seen from this package's directory (the same
// under `go test` and in Bazel's runfiles tree, where the files below are
// the test's data).
const root = "../.."

func TestStarlarkListsMatchTheModel(t *testing.T) {
	var actions, modes []string
	for _, a := range model.Actions() {
		actions = append(actions, string(a))
	}
	for _, m := range model.Modes() {
		modes = append(modes, string(m))
	}
	for _, c := range []struct {
		file, name string
		want       []string
	}{
		{"rules/private/petpack.bzl", "ACTIONS", actions},
		{"rules/private/petpack.bzl", "_MODES", modes},
		{"tests/rules/rules_test.bzl", "_ACTIONS", actions},
	} {
		got, err := starlarkList(filepath.Join(root, c.file), c.name)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: %s = %q, but runtime/petpack/model says %q (in this order)", c.file, c.name, got, c.want)
		}
	}
}

// starlarkList reads the top-level `NAME = ["a", "b", ...]` of a .bzl file:
// a one-line list of string literals, as buildifier leaves a short one.
func starlarkList(path, name string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` = \[([^\]\n]*)\]$`)
	m := re.FindSubmatch(data)
	if m == nil {
		return nil, &listError{name}
	}
	var out []string
	for _, item := range strings.Split(string(m[1]), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		s, err := strconv.Unquote(item)
		if err != nil {
			return nil, &listError{name}
		}
		out = append(out, s)
	}
	return out, nil
}

type listError struct{ name string }

func (e *listError) Error() string {
	return "no top-level one-line list of string literals " + e.name + " = [...]"
}

func TestStarlarkList(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.bzl")
	src := "X = [\"a\", \"b\"]\nY = [1]\n  Z = [\"c\"]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want string
		ok   bool
	}{
		{"X", "a b", true},
		{"Y", "", false}, // not a string literal
		{"Z", "", false}, // not top-level
		{"W", "", false}, // absent
	} {
		got, err := starlarkList(path, c.name)
		if (err == nil) != c.ok || strings.Join(got, " ") != c.want {
			t.Errorf("starlarkList(%s) = %q, %v", c.name, got, err)
		}
	}
}
