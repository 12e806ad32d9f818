// Package ruleids holds the test that every rule ID the project defines
// has one meaning: no two rule definitions share an ID.
package ruleids

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, seen from this package's directory (the same
// under `go test` and in Bazel's runfiles tree).
const root = "../.."

// goRoots are the trees whose Go packages define rule IDs. Under `go test`
// the whole trees are read; Bazel gives the test only the files its BUILD
// lists, so wantSources below makes a file left out of data fail the test
// instead of shrinking it.
var goRoots = []string{"runtime", "internal", "tools"}

// cReader is the firmware's PETP reader; its status names are the PETP
// rule IDs.
const cReader = "firmware/pet_pack.c"

// petpFamily is the Go package that defines the PETP IDs the C reader
// shares: one definition in two languages, not two definitions.
const petpFamily = "runtime/pack"

// wantSources are the files known to define rule IDs.
var wantSources = []string{
	"runtime/manifest/grammar.go",
	"runtime/manifest/pet.go",
	"runtime/manifest/file.go",
	"runtime/pack/rules.go",
	"runtime/petpack/rules.go",
	"internal/webp/rules.go",
	"tools/motionqa/verify.go",
	"tools/cmd/petasset/manifest.go",
	cReader,
}

// sameMeaning lists the IDs two packages define on purpose for one and
// the same check, with the packages that may define them: the path syntax
// rules (a manifest's image path and a .petpack entry name are both
// relative slash paths, refused for the same reasons) and the full-source
// frame checks the production gate repeats from the validator. Any other
// shared ID fails the test; so does an entry here that is no longer
// shared.
var sameMeaning = map[string][]string{
	"path_absolute":                   {"runtime/manifest", "runtime/petpack"},
	"path_backslash":                  {"runtime/manifest", "runtime/petpack"},
	"path_dot_dot":                    {"runtime/manifest", "runtime/petpack"},
	"path_empty_segment":              {"runtime/manifest", "runtime/petpack"},
	"full_source_frame_duplicate":     {"runtime/petpack", "tools/motionqa"},
	"full_source_loop_seam_duplicate": {"runtime/petpack", "tools/motionqa"},
}

// definition is one rule ID and where it is defined.
type definition struct {
	id, file, name string
}

// goDefinitions returns every constant named Rule* whose value is a string
// literal, in the non-test Go files under dir.
func goDefinitions(t *testing.T, dir string) []definition {
	t.Helper()
	var out []definition
	fset := token.NewFileSet()
	err := filepath.Walk(filepath.Join(root, dir), func(path string, info os.FileInfo, err error) error {
		if os.IsNotExist(err) && path == filepath.Join(root, dir) {
			return filepath.SkipDir // Bazel may give no file of a tree
		}
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Rule") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					id, err := strconv.Unquote(lit.Value)
					if err != nil {
						return err
					}
					out = append(out, definition{id, filepath.ToSlash(rel), n.Name})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var statusNames = regexp.MustCompile(`(?s)status_names\[[A-Z_]+\] = \{(.*?)\};`)
var quoted = regexp.MustCompile(`"([^"]*)"`)

// cDefinitions returns the C reader's status names but "ok".
func cDefinitions(t *testing.T) []definition {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, cReader))
	if err != nil {
		t.Fatal(err)
	}
	m := statusNames.FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no status_names table", cReader)
	}
	var out []definition
	for _, q := range quoted.FindAllSubmatch(m[1], -1) {
		if id := string(q[1]); id != "ok" {
			out = append(out, definition{id, cReader, "status_names"})
		}
	}
	return out
}

// family is the definer a definition belongs to: its Go package, with
// the C reader counted as the PETP package it mirrors.
func family(d definition) string {
	if d.file == cReader {
		return petpFamily
	}
	return filepath.ToSlash(filepath.Dir(d.file))
}

// duplicates returns, for each ID defined more than once (by two
// packages, or twice within one), every place that defines it. A C
// status name that mirrors the Go PETP reader's is not a second
// definition.
func duplicates(defs []definition) map[string][]string {
	byID := map[string][]definition{}
	for _, d := range defs {
		byID[d.id] = append(byID[d.id], d)
	}
	out := map[string][]string{}
	for id, ds := range byID {
		petp, n := false, 0
		for _, d := range ds {
			if d.file != cReader {
				n++
				petp = petp || family(d) == petpFamily
			}
		}
		for _, d := range ds {
			if d.file == cReader && !petp {
				n++
			}
		}
		if n < 2 {
			continue
		}
		for _, d := range ds {
			out[id] = append(out[id], d.file+" "+d.name)
		}
		sort.Strings(out[id])
	}
	return out
}

// TestRuleIDsHaveOneMeaning collects every rule ID the Go packages and the
// C reader define and fails when one ID has two definitions.
func TestRuleIDsHaveOneMeaning(t *testing.T) {
	var defs []definition
	for _, r := range goRoots {
		defs = append(defs, goDefinitions(t, r)...)
	}
	c := cDefinitions(t)
	defs = append(defs, c...)
	found := map[string]bool{}
	for _, d := range defs {
		found[d.file] = true
	}
	for _, f := range wantSources {
		if !found[f] {
			t.Errorf("no rule ID found in %s (is it in the test's data?)", f)
		}
	}
	dups := duplicates(defs)
	for id, want := range sameMeaning {
		var got []string
		for _, d := range defs {
			if d.id == id {
				got = append(got, family(d))
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("rule ID %q: defined by %v; sameMeaning allows exactly %v", id, got, want)
		}
		delete(dups, id)
	}
	ids := make([]string, 0, len(dups))
	for id := range dups {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("rule ID %q has %d definitions: %s", id, len(dups[id]), strings.Join(dups[id], ", "))
	}
	// The C reader and the Go PETP reader define the same IDs in the same
	// order: what makes them one definition.
	var petp []string
	for _, d := range defs {
		if d.file == petpFamily+"/rules.go" {
			petp = append(petp, d.id)
		}
	}
	var cids []string
	for _, d := range c {
		cids = append(cids, d.id)
	}
	if strings.Join(petp, " ") != strings.Join(cids, " ") {
		t.Errorf("PETP rule IDs differ:\n  %s: %v\n  %s: %v", petpFamily, petp, cReader, cids)
	}
	t.Logf("%d rule IDs from %d files", len(defs), len(found))
}

// TestDuplicatesFound: the check names both places of a shared ID, and
// lets the C reader mirror the Go PETP reader.
func TestDuplicatesFound(t *testing.T) {
	defs := []definition{
		{"path_too_long", "runtime/manifest/pet.go", "RulePathTooLong"},
		{"path_too_long", "runtime/petpack/rules.go", "RulePathTooLong"},
		{"bad_magic", "runtime/pack/rules.go", "RuleBadMagic"},
		{"bad_magic", cReader, "status_names"},
		{"twice", "runtime/petpack/rules.go", "RuleA"},
		{"twice", "runtime/petpack/rules.go", "RuleB"},
		{"unique", "internal/webp/rules.go", "RuleUnique"},
	}
	got := duplicates(defs)
	if len(got) != 2 || len(got["path_too_long"]) != 2 || len(got["twice"]) != 2 {
		t.Errorf("duplicates = %v, want path_too_long and twice", got)
	}
}
