package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"testing"
)

// zipOracle are the packages outside the test-support tier whose non-test
// files may still open archive/zip readers, with why.
var zipOracle = map[string]string{
	// ziptest.Agree is the archive/zip comparison internal/strictzip's and
	// runtime/petpack's tests hold the strict reader against: a second
	// reader is its point, and only tests import it.
	"internal/strictzip/ziptest": "archive/zip comparison for tests",
}

// TestNoZipReaders fails for every call of archive/zip's NewReader or
// OpenReader in a non-test file outside the test-support tier: a .petpack
// is read through runtime/petpack (or internal/strictzip, its stage 1),
// never through a ZIP reader with rules of its own. Writing (zip.NewWriter)
// is not a read and stays allowed.
func TestNoZipReaders(t *testing.T) {
	l := readLayers(t)
	fset := token.NewFileSet()
	calls := 0
	err := walkGoFiles(func(p, rel string) error {
		if strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		dir := path.Dir(rel)
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		local := zipName(f)
		if local == "" {
			return nil
		}
		exempt := l.tier[dir] == "testsupport" || zipOracle[dir] != ""
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "NewReader" && sel.Sel.Name != "OpenReader") {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != local {
				return true
			}
			calls++
			if !exempt {
				t.Errorf("%s:%d: zip.%s outside the test-support tier: read archives through runtime/petpack (Open, OpenPath, ReadContainer) or internal/strictzip",
					rel, fset.Position(sel.Pos()).Line, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatalf("found no zip reader call at all, not even the test-support tier's: the walk of %s is not seeing the tree", root)
	}
}

// zipName is the name f refers to archive/zip by, "" if it does not
// import it (a blank or dot import cannot be called through a selector).
func zipName(f *ast.File) string {
	for _, spec := range f.Imports {
		if ip, err := strconv.Unquote(spec.Path.Value); err != nil || ip != "archive/zip" {
			continue
		}
		if spec.Name != nil {
			return spec.Name.Name
		}
		return "zip"
	}
	return ""
}
