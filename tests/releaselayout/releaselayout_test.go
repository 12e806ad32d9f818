// Package releaselayout holds the test that //release:files, the hand list
// of what the release archive ships, is what the tree's layout says ships:
// every Go package under runtime/, internal/ and tools/, except the
// test-support tier (internal/testsupport/) and test helpers named *test
// (manifesttest, ziptest), plus the ruleset's non-Go packages. dev/ and
// tests/ never ship.
//
// It walks the source tree, which a Bazel sandbox does not hold, so its
// go_test is tagged manual and `go test ./...` (tools/test.sh) runs it.
package releaselayout

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// root is the repository, seen from this package's directory.
const root = "../.."

// shippedRoots are the trees whose Go packages ship.
var shippedRoots = []string{"runtime", "internal", "tools"}

// nonGo are the shipped packages that hold no Go package of the trees
// above: the root (MODULE.bazel, WORKSPACE, LICENSE), the firmware reader,
// the Gazelle extension (a module of its own) and the rules.
var nonGo = []string{"", "firmware", "gazelle", "rules", "rules/private", "rules/toolchain"}

// testSupport reports whether the package at rel (slash-separated) is test
// support, which never ships.
func testSupport(rel string) bool {
	return rel == "internal/testsupport" || strings.HasPrefix(rel, "internal/testsupport/") ||
		strings.HasSuffix(filepath.Base(rel), "test")
}

// layoutPackages returns every shipped Go package directory of the trees.
func layoutPackages(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, top := range shippedRoots {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); !testSupport(rel) {
				seen[rel] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var releaseLabel = regexp.MustCompile(`"//([^:"]*):release_files"`)

func TestReleaseFilesFollowTheLayout(t *testing.T) {
	build, err := os.ReadFile(filepath.Join(root, "release", "BUILD.bazel"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range releaseLabel.FindAllStringSubmatch(string(build), -1) {
		listed[m[1]] = true
	}
	want := map[string]bool{}
	for _, p := range append(layoutPackages(t), nonGo...) {
		want[p] = true
	}
	if len(want) < 30 {
		t.Fatalf("the layout gives only %d packages; is %s the repository?", len(want), root)
	}
	for p := range want {
		if !listed[p] {
			t.Errorf("release/BUILD.bazel: //%s:release_files is missing from :files; the package ships by the layout (or belongs in dev/ or internal/testsupport/)", p)
		}
	}
	for p := range listed {
		if !want[p] {
			t.Errorf("release/BUILD.bazel: :files lists //%s:release_files, which the layout says does not ship", p)
		}
	}
}

func TestTestSupport(t *testing.T) {
	for rel, want := range map[string]bool{
		"internal/testsupport/fuzzseed": true,
		"internal/strictzip/ziptest":    true,
		"runtime/manifest/manifesttest": true,
		"internal/strictzip":            false,
		"runtime/petpack":               false,
		"tools/motionqa":                false,
	} {
		if got := testSupport(rel); got != want {
			t.Errorf("testSupport(%s) = %v, want %v", rel, got, want)
		}
	}
}
