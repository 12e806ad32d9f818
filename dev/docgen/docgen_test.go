package docgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository root: `go test` runs in dev/docgen of the checkout,
// `bazel test` in dev/docgen of the runfiles tree, which holds the .bzl
// files and docs/rules.md as data.
const root = "../.."

// TestRulesReferenceUpToDate fails when docs/rules.md's reference differs
// from what rules/*.bzl's doc strings generate.
func TestRulesReferenceUpToDate(t *testing.T) {
	ref, err := RulesReference(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(root, RulesPage, ref); err != nil {
		t.Fatal(err)
	}
	// What the page must hold, so a generator that lost its input fails too.
	for _, want := range []string{"### pet_manifest", "### petpack_archive", "### PetpackInfo", "| `prefix` | string | `\"assets/pet\"` |", "| `pet_pack` | [`pet_asset_pack`]"} {
		if !strings.Contains(ref, want) {
			t.Errorf("the reference lacks %q", want)
		}
	}
}

// writeTree writes files (path -> content) below a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const privateRule = `"""Private."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")

ACTIONS = ["a", "b"]

def _impl(ctx):
    pass

def _frames(action):
    return attr.label_list(doc = "Frames of %s." % action, mandatory = True)

_ATTRS = {
    "src": attr.label(doc = "The " + "source.", allow_single_file = True),
    "_tool": attr.label(default = Label("//x"), providers = [BuildSettingInfo]),
}

_ATTRS.update({a: _frames(a) for a in ACTIONS})

thing = rule(
    implementation = _impl,
    doc = """Makes a thing.

More about it.""",
    attrs = dict(_ATTRS, **{"mode": attr.string(doc = "How.", default = "fast")}),
)

def thing_macro(name, src, size = "small", **kwargs):
    """Wraps two things.

    Args:
      name: the name.
      src: the source.
      size: the size.
      **kwargs: passed on.
    """
    thing(name = name, src = src, **kwargs)

ThingInfo = provider(doc = "A thing.", fields = {"file": "File: the thing."})

_thing = rule(implementation = _impl, doc = "A wrapped thing.", attrs = {"x": attr.string(doc = "X.")})

def wrapped(**kwargs):
    _thing(tags = ["t"], **kwargs)

def _call_tagged(rule_fn, tags, **kwargs):
    rule_fn(tags = (tags or []) + ["t"], **kwargs)

def wrapped2(name, tags = None, **kwargs):
    _call_tagged(_thing, tags, name = name, **kwargs)
`

func defsWith(names string) string {
	return `"""Public."""

load("//rules/private:thing.bzl", _ThingInfo = "ThingInfo", _thing = "thing", _thing_macro = "thing_macro", _wrapped = "wrapped", _wrapped2 = "wrapped2")

` + names
}

func TestRulesReference(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"rules/defs.bzl":          defsWith("ThingInfo = _ThingInfo\nthing = _thing\nthing_macro = _thing_macro\nwrapped = _wrapped\nwrapped2 = _wrapped2\nold_thing = _thing  # deprecated: thing\n"),
		"rules/private/thing.bzl": privateRule,
	})
	got, err := RulesReference(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| [`ThingInfo`](#thinginfo) | provider | A thing. |\n| [`thing`](#thing) | rule | Makes a thing. |\n| [`thing_macro`](#thing_macro) | macro | Wraps two things. |\n| [`wrapped`](#wrapped) | rule | A wrapped thing. |\n",
		"thing(name, a, b, mode, src)",
		"| `a` | list of labels | mandatory | Frames of a. |",
		"| `mode` | string | `\"fast\"` | How. |",
		"| `src` | label | `None` | The source. |",
		"thing_macro(name, src, size = \"small\", **kwargs)",
		"| `size` | `\"small\"` | the size. |",
		"| `**kwargs` |  | passed on. |",
		"| `file` | File: the thing. |",
		"through the macro `wrapped`",
		"| [`wrapped2`](#wrapped2) | rule | A wrapped thing. |",
		"wrapped2(name, x)",
		"| `old_thing` | [`thing`](#thing) |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the reference lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "_tool") {
		t.Errorf("a private attribute is documented:\n%s", got)
	}
}

// TestRulesReferenceFails: a missing doc and anything the generator does not
// understand fail with the file and line, never a page with a gap.
func TestRulesReferenceFails(t *testing.T) {
	for _, tc := range []struct {
		name, private, defs, want string
	}{
		{"attribute without doc",
			strings.Replace(privateRule, `attr.string(doc = "How.", default = "fast")`, `attr.string(default = "fast")`, 1),
			"thing = _thing\n", "attribute mode (rules/private/thing.bzl:25) has no doc"},
		{"provider field without doc",
			strings.Replace(privateRule, `"File: the thing."`, `""`, 1),
			"ThingInfo = _ThingInfo\n", "field file (rules/private/thing.bzl:39) has no doc"},
		{"macro argument without doc",
			strings.Replace(privateRule, "      size: the size.\n", "", 1),
			"thing_macro = _thing_macro\n", "argument size has no entry under Args:"},
		{"rule without doc",
			strings.Replace(privateRule, `doc = "A wrapped thing.", `, "", 1),
			"wrapped = _wrapped\n", "the rule (rules/private/thing.bzl:41) has no doc"},
		{"expression it cannot read",
			strings.Replace(privateRule, `"The " + "source."`, `"The source.".upper()`, 1),
			"thing = _thing\n", "rules/private/thing.bzl:14: "},
		{"top-level statement it cannot read",
			privateRule + "\nprint(\"x\")\n",
			"thing = _thing\n", "a top-level call docgen does not read"},
		{"constant without comment",
			privateRule + "\nTYPE = str(Label(\"//x\"))\n",
			"TYPE = _thing_TYPE\n", "has no comment above it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defs := defsWith(tc.defs)
			if strings.Contains(tc.defs, "_thing_TYPE") {
				defs = strings.Replace(defs, `_wrapped2 = "wrapped2")`, `_wrapped2 = "wrapped2", _thing_TYPE = "TYPE")`, 1)
			}
			dir := writeTree(t, map[string]string{"rules/defs.bzl": defs, "rules/private/thing.bzl": tc.private})
			_, err := RulesReference(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSpliceAndCheck(t *testing.T) {
	page := Page{Path: "docs/x.md", Source: "x"}
	stale := "# Guide\n\nby hand\n\n<!-- reference:begin old -->\nold text\n<!-- reference:end -->\n\nafter\n"
	dir := writeTree(t, map[string]string{"docs/x.md": stale})
	err := Check(dir, page, "new text")
	if err == nil || !strings.Contains(err.Error(), "docs/x.md:5:") || !strings.Contains(err.Error(), UpdateCommand) {
		t.Fatalf("Check of a stale page: %v", err)
	}
	if changed, err := Write(dir, page, "new text"); err != nil || !changed {
		t.Fatalf("Write: %v, %v", changed, err)
	}
	if err := Check(dir, page, "new text"); err != nil {
		t.Fatalf("Check after Write: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "docs/x.md"))
	if !strings.HasPrefix(string(data), "# Guide\n\nby hand\n\n<!-- reference:begin") || !strings.HasSuffix(string(data), "\nnew text\n\n<!-- reference:end -->\n\nafter\n") {
		t.Fatalf("the hand-written parts changed:\n%s", data)
	}
	for _, bad := range []string{"no markers\n", "<!-- reference:end -->\n<!-- reference:begin x -->\n", "<!-- reference:begin a -->\n<!-- reference:begin b -->\n<!-- reference:end -->\n"} {
		if _, err := Splice(page, bad, "x"); err == nil {
			t.Errorf("Splice(%q) succeeded", bad)
		}
	}
}

func TestCLIReference(t *testing.T) {
	helps := map[string]string{
		"--help":         "usage: petasset GROUP COMMAND\n\ncommands:\n  petasset a one FILE\n  petasset a two\n  petasset b three\n\nexit status: 0\n",
		"a --help":       "usage: petasset a COMMAND\n",
		"a one --help":   "usage: petasset a one FILE\n",
		"a two --help":   "usage: petasset a two\n",
		"b --help":       "usage: petasset b COMMAND\n",
		"b three --help": "usage: petasset b three\n",
	}
	help := func(args ...string) (string, error) {
		return helps[strings.Join(args, " ")], nil
	}
	got, err := CLIReference(help)
	if err != nil {
		t.Fatal(err)
	}
	order := []string{"### petasset\n", "### petasset a\n", "#### petasset a one\n", "usage: petasset a one FILE\n```", "#### petasset a two\n", "### petasset b\n", "#### petasset b three\n"}
	at := 0
	for _, want := range order {
		i := strings.Index(got[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", want, got)
		}
		at += i
	}
	helps["--help"] = "usage\n\ncommands:\n  not a command line\n"
	if _, err := CLIReference(help); err == nil {
		t.Error("a top-level help it cannot read was accepted")
	}
}
