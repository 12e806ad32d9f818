// Package layering holds the test that every import edge of the module
// keeps to the layers docs/architecture.md states: its "Layers" section's
// tier, package and exception tables are the data this test reads.
//
// It walks the source tree, which a Bazel sandbox does not hold, so its
// go_test is tagged manual and `go test ./...` (tools/test.sh) runs it.
package layering

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, seen from this package's directory.
const root = "../.."

// modulePath is the import path prefix of both modules (rules_pet and its
// gazelle/ module, whose path extends it).
const modulePath = "github.com/agentpet/rules_pet"

// doc is the file whose tables state the layers.
const doc = "docs/architecture.md"

// layers is what the doc's tables say.
type layers struct {
	// tier is each package's tier, by slash-separated directory.
	tier map[string]string
	// prod and test are, per tier, the tiers its non-test files and its
	// test files may import (each includes the tier itself).
	prod, test map[string]map[string]bool
	// exception holds the allowed test-file edges, "importer -> import".
	exception map[string]bool
}

// table returns the cells of the rows of the markdown table between
// <!-- layers:name --> and <!-- /layers:name -->, header and rule skipped,
// with backquotes removed; want is the number of cells of every row.
func table(t *testing.T, text, name string, want int) [][]string {
	t.Helper()
	open, end := "<!-- layers:"+name+" -->", "<!-- /layers:"+name+" -->"
	i, j := strings.Index(text, open), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no %s ... %s block", doc, open, end)
	}
	var rows [][]string
	lines := strings.Split(strings.TrimSpace(text[i+len(open):j]), "\n")
	for n, line := range lines {
		if n < 2 { // header and |---|
			continue
		}
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
			t.Fatalf("%s: %s table: %q is not a table row", doc, name, line)
		}
		cells := strings.Split(line[1:len(line)-1], "|")
		if len(cells) != want {
			t.Fatalf("%s: %s table: %q has %d cells, want %d", doc, name, line, len(cells), want)
		}
		for k := range cells {
			cells[k] = strings.Trim(strings.TrimSpace(cells[k]), "`")
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: %s table is empty", doc, name)
	}
	return rows
}

// set parses a comma-separated list of tiers into a set holding own too.
func set(t *testing.T, list, own string, known map[string]bool) map[string]bool {
	t.Helper()
	s := map[string]bool{own: true}
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if !known[f] {
			t.Fatalf("%s: tier %s may import %q, which is not a tier", doc, own, f)
		}
		s[f] = true
	}
	return s
}

// readLayers parses the doc's three tables.
func readLayers(t *testing.T) layers {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	l := layers{tier: map[string]string{}, prod: map[string]map[string]bool{},
		test: map[string]map[string]bool{}, exception: map[string]bool{}}
	tiers := table(t, text, "tiers", 3)
	known := map[string]bool{}
	for _, r := range tiers {
		known[r[0]] = true
	}
	for _, r := range tiers {
		l.prod[r[0]] = set(t, r[1], r[0], known)
		l.test[r[0]] = set(t, r[1]+","+r[2], r[0], known)
	}
	for _, r := range table(t, text, "packages", 2) {
		if !known[r[1]] {
			t.Fatalf("%s: package %s has tier %q, which is not a tier", doc, r[0], r[1])
		}
		if _, dup := l.tier[r[0]]; dup {
			t.Fatalf("%s: package %s is listed twice", doc, r[0])
		}
		l.tier[r[0]] = r[1]
	}
	for _, r := range table(t, text, "exceptions", 3) {
		if r[2] == "" {
			t.Fatalf("%s: exception %s -> %s has no reason", doc, r[0], r[1])
		}
		l.exception[r[0]+" -> "+r[1]] = true
	}
	return l
}

// edge is one import of the module by one file.
type edge struct {
	pos        string // file:line, relative to the repository
	importer   string // package directory
	imported   string // package directory
	importPath string
	test       bool
}

// walkGoFiles calls fn with the path and the slash-separated path relative
// to root of every .go file of the tree, leaving out testdata, hidden and
// bazel-* directories. Both tests that read the sources walk it this way.
func walkGoFiles(fn func(p, rel string) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "bazel-")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		return fn(p, filepath.ToSlash(rel))
	})
}

// sourceDirs returns every directory of the tree that holds .go files, and
// the module imports of each file in it.
func sourceDirs(t *testing.T) (map[string]bool, []edge) {
	t.Helper()
	dirs := map[string]bool{}
	var edges []edge
	fset := token.NewFileSet()
	err := walkGoFiles(func(p, rel string) error {
		dir := path.Dir(rel)
		dirs[dir] = true
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		for _, spec := range f.Imports {
			ip, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", rel, spec.Path.Value, err)
			}
			if ip != modulePath && !strings.HasPrefix(ip, modulePath+"/") {
				continue
			}
			edges = append(edges, edge{
				pos:        fmt.Sprintf("%s:%d", rel, fset.Position(spec.Pos()).Line),
				importer:   dir,
				imported:   strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/"),
				importPath: ip,
				test:       strings.HasSuffix(rel, "_test.go"),
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs, edges
}

// TestEveryPackageClassified fails for a Go package directory the package
// table does not list, and for a listed package the tree no longer has
// (generated packages have no sources and are exempt).
func TestEveryPackageClassified(t *testing.T) {
	l := readLayers(t)
	dirs, _ := sourceDirs(t)
	var missing, gone []string
	for d := range dirs {
		if _, ok := l.tier[d]; !ok {
			missing = append(missing, d)
		}
	}
	for d, tier := range l.tier {
		if !dirs[d] && tier != "generated" {
			gone = append(gone, d)
		}
	}
	sort.Strings(missing)
	sort.Strings(gone)
	for _, d := range missing {
		t.Errorf("%s: Go package %s has no row in the layers:packages table; add it with its tier", doc, d)
	}
	for _, d := range gone {
		t.Errorf("%s: the layers:packages table lists %s, which has no .go files; remove the row", doc, d)
	}
}

// TestImportEdges fails for every import that goes up a layer: a file's
// import of a package whose tier the importer's tier may not import.
func TestImportEdges(t *testing.T) {
	l := readLayers(t)
	_, edges := sourceDirs(t)
	if len(edges) < 100 {
		t.Fatalf("found %d module imports; the walk of %s is not seeing the tree", len(edges), root)
	}
	used := map[string]bool{}
	for _, e := range edges {
		from, ok := l.tier[e.importer]
		if !ok {
			continue // TestEveryPackageClassified reports it
		}
		to, ok := l.tier[e.imported]
		if !ok {
			t.Errorf("%s: import %q: %s is not in %s's layers:packages table", e.pos, e.importPath, e.imported, doc)
			continue
		}
		allowed := l.prod[from]
		kind := "non-test file"
		if e.test {
			allowed, kind = l.test[from], "test file"
		}
		if allowed[to] {
			continue
		}
		key := e.importer + " -> " + e.imported
		if e.test && l.exception[key] {
			used[key] = true
			continue
		}
		t.Errorf("%s: import %q goes up a layer: a %s of %s (tier %s) may not import %s (tier %s); see %s, section Layers",
			e.pos, e.importPath, kind, e.importer, from, e.imported, to, doc)
	}
	var stale []string
	for key := range l.exception {
		if !used[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		t.Errorf("%s: exception %s admits no edge of the tree; remove it", doc, key)
	}
}
