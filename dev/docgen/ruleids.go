package docgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// docs/rule-ids.md's generated tables come from the rule constants'
// own doc comments; `go generate ./dev/docgen` is UpdateCommandGo.
//go:generate go run ../cmd/petdocs -write -root ../..

// RuleSource is where some of a table's rule IDs are defined: string
// constants of one Go package, read from its non-test source files.
type RuleSource struct {
	// Dir is the package's directory from the repository root.
	Dir string
	// Type is the constants' declared type; "" takes untyped ones too.
	Type string
	// Prefix selects constants by name (e.g. "Rule").
	Prefix string
	// Names, when set, are the only constants taken.
	Names []string
}

// RuleTable is one generated table of docs/rule-ids.md: every constant
// its sources define, files in name order and constants in source order,
// one row each with the first paragraph of the constant's doc comment,
// which must read "NAME: when the rule is broken".
type RuleTable struct {
	// Page is the page and region the table is generated into.
	Page Page
	// Header is the table's header row.
	Header string
	// Sources are read in order.
	Sources []RuleSource
}

// RuleTables are docs/rule-ids.md's generated tables: the manifest rules
// (with the one `manifest check` adds), the asset set's fallback reasons,
// the PETP acceptance rules the C reader shares, and the desktop pet's
// control-channel refusals. The `.petpack` rules
// have their own ordered table in runtime/petpack/doc.go.
var RuleTables = []RuleTable{
	{
		Page:   Page{Path: "docs/rule-ids.md", Source: "the Rule constants of runtime/manifest", Region: "manifest"},
		Header: "| rule | rejected when |",
		Sources: []RuleSource{
			{Dir: "runtime/manifest", Type: "Rule", Prefix: "Rule"},
			{Dir: "tools/cmd/petasset", Names: []string{"RuleImageNotDeclared"}},
		},
	},
	{
		Page:    Page{Path: "docs/rule-ids.md", Source: "the Kind constants of runtime/assetset", Region: "assetset"},
		Header:  "| reason | the built-in fallback is required when |",
		Sources: []RuleSource{{Dir: "runtime/assetset", Type: "Kind", Prefix: "Kind"}},
	},
	{
		Page:    Page{Path: "docs/rule-ids.md", Source: "the Rule constants of runtime/pack", Region: "pack"},
		Header:  "| rule | rejected when |",
		Sources: []RuleSource{{Dir: "runtime/pack", Type: "Rule", Prefix: "Rule"}},
	},
	{
		Page:    Page{Path: "docs/rule-ids.md", Source: "the Rule constants of runtime/desktop/control", Region: "control"},
		Header:  "| rule | refused when |",
		Sources: []RuleSource{{Dir: "runtime/desktop/control", Type: "Rule", Prefix: "Rule"}},
	},
}

// RuleDef is one rule constant as RuleIDs reads it.
type RuleDef struct {
	// ID is the constant's value, the rule identifier.
	ID string
	// Name is the constant's name; Pos is where it is declared.
	Name, Pos string
	// When is the first paragraph of its doc comment after "NAME: ",
	// without the final full stop.
	When string
}

// RuleIDs reads a table's rule constants below root.
func RuleIDs(root string, tab RuleTable) ([]RuleDef, error) {
	var out []RuleDef
	seen := map[string]string{}
	for _, src := range tab.Sources {
		defs, err := ruleDefs(root, src)
		if err != nil {
			return nil, err
		}
		if len(defs) == 0 {
			return nil, fmt.Errorf("%s: no %s constants found for %s", src.Dir, src.Prefix+strings.Join(src.Names, ","), tab.Page.Path)
		}
		for _, d := range defs {
			if prev, ok := seen[d.ID]; ok {
				return nil, fmt.Errorf("%s: rule ID %q is defined at %s too", d.Pos, d.ID, prev)
			}
			seen[d.ID] = d.Pos
		}
		out = append(out, defs...)
	}
	return out, nil
}

// RuleIDsReference renders a table: its header and a row per rule.
func RuleIDsReference(root string, tab RuleTable) (string, error) {
	defs, err := RuleIDs(root, tab)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(tab.Header + "\n| --- | --- |\n")
	for _, d := range defs {
		fmt.Fprintf(&b, "| `%s` | %s |\n", d.ID, strings.ReplaceAll(d.When, "|", `\|`))
	}
	return b.String(), nil
}

func ruleDefs(root string, src RuleSource) ([]RuleDef, error) {
	dir := filepath.Join(root, filepath.FromSlash(src.Dir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading rule constants: %w", err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	sort.Strings(files)
	wanted := map[string]bool{}
	for _, n := range src.Names {
		wanted[n] = true
	}
	fset := token.NewFileSet()
	var out []RuleDef
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, src.Prefix) || len(wanted) > 0 && !wanted[n.Name] {
						continue
					}
					if src.Type != "" {
						if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != src.Type {
							continue
						}
					}
					pos := src.Dir + "/" + name + ":" + strconv.Itoa(fset.Position(n.Pos()).Line)
					if i >= len(vs.Values) {
						return nil, fmt.Errorf("%s: %s has no value of its own", pos, n.Name)
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return nil, fmt.Errorf("%s: %s is not a string literal", pos, n.Name)
					}
					id, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", pos, err)
					}
					doc := vs.Doc
					if doc == nil && !g.Lparen.IsValid() {
						doc = g.Doc // a lone `const X T = v` keeps its comment on the declaration
					}
					when, err := ruleWhen(n.Name, doc)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", pos, err)
					}
					out = append(out, RuleDef{ID: id, Name: n.Name, Pos: pos, When: when})
				}
			}
		}
	}
	return out, nil
}

// ruleWhen is the table text of a rule constant's doc comment: its first
// paragraph after "NAME: ", lines joined, the final full stop dropped.
func ruleWhen(name string, doc *ast.CommentGroup) (string, error) {
	want := name + ": "
	text := ""
	if doc != nil {
		text = doc.Text()
	}
	para := strings.Join(strings.Fields(strings.SplitN(text, "\n\n", 2)[0]), " ")
	if !strings.HasPrefix(para, want) || len(para) == len(want) {
		return "", fmt.Errorf("%s's doc comment must start %q and say when the rule is broken (docs/rule-ids.md's text)", name, want)
	}
	return strings.TrimSuffix(para[len(want):], "."), nil
}
