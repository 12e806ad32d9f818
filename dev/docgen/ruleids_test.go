package docgen

import (
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/assetset"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/pack"
)

// TestRuleIDsReferenceUpToDate fails, naming the command that regenerates
// them, when docs/rule-ids.md's generated tables differ from the rule
// constants' doc comments; and holds what was read to the packages' own
// values, so a generator that lost a file or a constant fails too.
func TestRuleIDsReferenceUpToDate(t *testing.T) {
	ids := map[string][]string{}
	for _, tab := range RuleTables {
		ref, err := RuleIDsReference(root, tab)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(root, tab.Page, ref); err != nil {
			t.Error(err)
		}
		defs, err := RuleIDs(root, tab)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range defs {
			ids[tab.Page.Region] = append(ids[tab.Page.Region], d.ID)
		}
	}
	var petp []string
	for _, r := range pack.Rules() {
		petp = append(petp, string(r))
	}
	if got, want := strings.Join(ids["pack"], " "), strings.Join(petp, " "); got != want {
		t.Errorf("the pack table has\n  %s\npack.Rules() is\n  %s", got, want)
	}
	// Values the packages export, each of which must be a row.
	for region, want := range map[string][]string{
		"manifest": {string(manifest.RuleUnreadable), string(manifest.RuleFileTooLarge), string(manifest.RuleReservedIdentifier),
			string(manifest.RulePathBarePNG), "image_not_declared"},
		"assetset": {string(assetset.KindManifestMissing), string(assetset.KindImageNotPNG)},
		"control":  {string(control.RuleMalformed), string(control.RuleBusy)},
	} {
		for _, id := range want {
			if !strings.Contains(" "+strings.Join(ids[region], " ")+" ", " "+id+" ") {
				t.Errorf("the %s table lacks %s", region, id)
			}
		}
	}
	if n := len(ids["manifest"]); n != 41 {
		t.Errorf("the manifest table has %d rules, want 41 (40 of runtime/manifest and image_not_declared)", n)
	}
	if got, want := len(ids["control"]), len(control.Rules()); got != want {
		t.Errorf("the control table has %d rules, control.Rules() %d", got, want)
	}
	if n := len(ids["assetset"]); n != 8 {
		t.Errorf("the asset-set table has %d reasons, want 8", n)
	}
}

// TestRuleIDsReference: rows in file-name then source order, the doc
// comment's first paragraph as the text; a constant without the "NAME: "
// comment, a duplicate ID or a source with no constant is an error naming
// the place.
func TestRuleIDsReference(t *testing.T) {
	tab := RuleTable{
		Page:    Page{Path: "docs/x.md", Region: "x"},
		Header:  "| rule | rejected when |",
		Sources: []RuleSource{{Dir: "p", Type: "Rule", Prefix: "Rule"}, {Dir: "q", Names: []string{"RuleOnly"}}},
	}
	good := map[string]string{
		"p/b.go":      "package p\n\n// RuleLater: comes from b.go.\nconst RuleLater Rule = \"later\"\n",
		"p/a.go":      "package p\n\ntype Rule string\n\nconst (\n\t// RuleFirst: a cell | with a bar\n\t// over two lines.\n\t//\n\t// Not in the table.\n\tRuleFirst Rule = \"first\"\n\tNotARule Rule = \"x\"\n\t// RuleUntyped: skipped, not of type Rule.\n\tRuleUntyped = \"untyped\"\n)\n",
		"p/a_test.go": "package p\n\nconst RuleTest Rule = \"test\"\n",
		"q/q.go":      "package q\n\n// RuleOnly: the one taken.\nconst RuleOnly = \"only\"\n\n// RuleOther: left out.\nconst RuleOther = \"other\"\n",
	}
	got, err := RuleIDsReference(writeTree(t, good), tab)
	if err != nil {
		t.Fatal(err)
	}
	want := "| rule | rejected when |\n| --- | --- |\n| `first` | a cell \\| with a bar over two lines |\n| `later` | comes from b.go |\n| `only` | the one taken |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, tc := range []struct{ name, file, text, want string }{
		{"no comment", "p/b.go", "package p\n\nconst RuleLater Rule = \"later\"\n", `p/b.go:3: RuleLater's doc comment must start "RuleLater: "`},
		{"other form", "p/b.go", "package p\n\n// RuleLater is later.\nconst RuleLater Rule = \"later\"\n", `p/b.go:4: RuleLater's doc comment must start`},
		{"empty text", "p/b.go", "package p\n\n// RuleLater:\nconst RuleLater Rule = \"later\"\n", `RuleLater's doc comment must start`},
		{"duplicate", "p/b.go", "package p\n\n// RuleLater: again.\nconst RuleLater Rule = \"first\"\n", `p/b.go:4: rule ID "first" is defined at p/a.go:10 too`},
		{"not a literal", "p/b.go", "package p\n\n// RuleLater: computed.\nconst RuleLater Rule = Rule(\"a\" + \"b\")\n", "p/b.go:4: RuleLater is not a string literal"},
		{"nothing found", "q/q.go", "package q\n", "q: no RuleOnly constants found"},
	} {
		files := map[string]string{}
		for k, v := range good {
			files[k] = v
		}
		files[tc.file] = tc.text
		if _, err := RuleIDsReference(writeTree(t, files), tab); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestSpliceRegions: a page's named regions are replaced one at a time,
// each between its own markers, and a missing region is an error.
func TestSpliceRegions(t *testing.T) {
	page := "head\n<!-- reference:begin a -->\nold a\n<!-- reference:end a -->\nmiddle\n<!-- reference:begin b (x) -->\nold b\n<!-- reference:end b -->\ntail\n"
	a := Page{Path: "docs/x.md", Source: "A", Region: "a"}
	b := Page{Path: "docs/x.md", Source: "B", Region: "b"}
	out, err := Splice(a, page, "new a")
	if err != nil {
		t.Fatal(err)
	}
	if out, err = Splice(b, out, "new b"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"head\n<!-- reference:begin a (generated by dev/cmd/petdocs from A;", "\n\nnew a\n\n<!-- reference:end a -->\nmiddle\n",
		"<!-- reference:begin b (generated by dev/cmd/petdocs from B;", "\n\nnew b\n\n<!-- reference:end b -->\ntail\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("spliced page lacks %q:\n%s", want, out)
		}
	}
	if _, err := Splice(Page{Path: "docs/x.md", Region: "c"}, page, "x"); err == nil {
		t.Error("a missing region spliced")
	}
	if _, err := Splice(Page{Path: "docs/x.md"}, page, "x"); err == nil {
		t.Error("an unnamed reference spliced into a page with two regions")
	}
}
