// Package docgen generates the reference parts of docs/rules.md and
// docs/cli.md from their sources: the rules' own `doc` strings and
// docstrings in rules/*.bzl, and the `petasset` commands' own --help.
// Stardoc is not packaged for the project's machines; this reads the .bzl
// files with the buildifier parser (github.com/bazelbuild/buildtools/build,
// already in the offline Bazel stack as a Gazelle dependency) instead.
package docgen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// UpdateCommand regenerates every generated reference; the drift tests
// print it.
const UpdateCommand = "bazel run //dev/cmd/petdocs -- -write"

// UpdateCommandGo is the same without Bazel.
const UpdateCommandGo = "go run ./dev/cmd/petdocs -write"

// DefsLabel is the public API whose names the rule reference documents.
const DefsLabel = "//rules:defs.bzl"

// entry is one public name of defs.bzl.
type entry struct {
	name       string
	deprecated string // the new name, for a deprecated alias
	kind       string // rule, macro, provider, constant
	rule       *ruleValue
	wrapper    string // the macro that wraps rule, when defs.bzl exports one
	provider   *providerValue
	fn         *funcValue
	constDoc   string
}

var deprecatedComment = regexp.MustCompile(`^#\s*deprecated:\s*(\S+)`)

// RulesReference reads rules/defs.bzl below root, follows its loads, and
// returns the Markdown reference of every public name in the order
// defs.bzl exports it. It fails on anything it cannot read and on any
// public rule attribute, provider field or macro argument without a doc.
func RulesReference(root string) (string, error) {
	w := newWorkspace(root)
	defs, err := w.load(DefsLabel)
	if err != nil {
		return "", err
	}
	var entries []*entry
	var problems []string
	for _, stmt := range defs.file.Stmt {
		a, ok := stmt.(*build.AssignExpr)
		if !ok {
			continue
		}
		id, ok := a.LHS.(*build.Ident)
		if !ok || strings.HasPrefix(id.Name, "_") {
			continue
		}
		e := &entry{name: id.Name}
		for _, c := range append(append([]build.Comment{}, a.Suffix...), a.RHS.Comment().Suffix...) {
			if m := deprecatedComment.FindStringSubmatch(c.Token); m != nil {
				e.deprecated = m[1]
			}
		}
		v, err := w.lookup(defs, id.Name)
		if err != nil {
			return "", fmt.Errorf("%s: %w", id.Name, err)
		}
		if err := w.classify(e, defs, a, v); err != nil {
			return "", err
		}
		problems = append(problems, e.check(defs.pos(a))...)
		entries = append(entries, e)
	}
	if len(problems) > 0 {
		return "", fmt.Errorf("undocumented public names (every public rule attribute, provider field and macro argument needs a doc):\n  %s", strings.Join(problems, "\n  "))
	}
	return render(entries), nil
}

// classify decides what a public name is. A function that only forwards
// **kwargs to a rule (a wrapper adding tags, say) is documented as that
// rule.
func (w *workspace) classify(e *entry, defs *module, a *build.AssignExpr, v value) error {
	switch x := v.(type) {
	case *ruleValue:
		e.kind, e.rule = "rule", x
	case *providerValue:
		e.kind, e.provider = "provider", x
	case *funcValue:
		r, err := w.wrappedRule(x)
		if err != nil {
			return err
		}
		if r != nil {
			e.kind, e.rule, e.wrapper = "rule", r, x.def.Name
			return nil
		}
		e.kind, e.fn = "macro", x
		if d, err := parseDocstring(x); err == nil && d.returns != "" {
			e.kind = "function"
		}
	default:
		doc, err := w.constantDoc(defs, e.name)
		if err != nil {
			return err
		}
		e.kind, e.constDoc = "constant", doc
	}
	return nil
}

// wrappedRule returns the rule a thin wrapper forwards to: a function whose
// parameters are `**kwargs` and at most `name`, `tags` and `visibility`,
// and that calls, with `**...`, a rule or a helper given the rule as an
// argument. Nil for any other function.
func (w *workspace) wrappedRule(f *funcValue) (*ruleValue, error) {
	hasKwargs := false
	for _, p := range f.def.Params {
		switch x := p.(type) {
		case *build.UnaryExpr:
			if x.Op == "**" {
				hasKwargs = true
				continue
			}
			return nil, nil
		case *build.Ident:
			if !wrapperParams[x.Name] {
				return nil, nil
			}
		case *build.AssignExpr:
			if !wrapperParams[kwName(x)] {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	if !hasKwargs {
		return nil, nil
	}
	var found *ruleValue
	var err error
	// asRule reports a top-level name of the wrapper's module that is a rule.
	asRule := func(e build.Expr) *ruleValue {
		id, ok := e.(*build.Ident)
		if !ok || f.mod.bindings[id.Name] == nil || err != nil {
			return nil
		}
		v, lerr := w.lookup(f.mod, id.Name)
		if lerr != nil {
			err = lerr
			return nil
		}
		r, _ := v.(*ruleValue)
		return r
	}
	for _, stmt := range f.def.Body {
		build.Walk(stmt, func(x build.Expr, _ []build.Expr) {
			c, ok := x.(*build.CallExpr)
			if !ok || found != nil || err != nil {
				return
			}
			pos, _, star := callArgs(c)
			if len(star) == 0 {
				return
			}
			if found = asRule(c.X); found != nil {
				return
			}
			for _, a := range pos {
				if found = asRule(a); found != nil {
					return
				}
			}
		})
	}
	return found, err
}

// wrapperParams are the parameters a thin wrapper may name besides **kwargs.
var wrapperParams = map[string]bool{"name": true, "tags": true, "visibility": true}

// constantDoc is the comment block above a constant's definition, found
// through defs.bzl's loads.
func (w *workspace) constantDoc(m *module, name string) (string, error) {
	b := m.bindings[name]
	for b != nil && b.loadFrom == "" && b.assign != nil {
		// An alias NAME = _NAME: follow it.
		id, ok := b.assign.RHS.(*build.Ident)
		if !ok {
			break
		}
		name, b = id.Name, m.bindings[id.Name]
	}
	for b != nil && b.loadFrom != "" {
		dep, err := w.load(b.loadFrom)
		if err != nil {
			return "", err
		}
		m, name, b = dep, b.loadName, dep.bindings[b.loadName]
	}
	if b == nil || b.assign == nil {
		return "", fmt.Errorf("%s: %s: docgen cannot find its definition", m.path, name)
	}
	var lines []string
	for _, c := range b.assign.Before {
		lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Token, "#")))
	}
	if len(lines) == 0 {
		return "", fmt.Errorf("%s: public constant %s has no comment above it to document it", m.pos(b.assign), name)
	}
	return strings.Join(lines, "\n"), nil
}

// check lists what a public name lacks.
func (e *entry) check(pos string) []string {
	var out []string
	missing := func(what string) { out = append(out, fmt.Sprintf("%s: %s: %s", pos, e.name, what)) }
	switch e.kind {
	case "rule":
		if strings.TrimSpace(e.rule.doc) == "" {
			missing(fmt.Sprintf("the rule (%s) has no doc", e.rule.pos))
		}
		for _, n := range e.rule.attrs.keys {
			if a, ok := e.rule.attrs.m[n].(*attrValue); ok && !strings.HasPrefix(n, "_") && strings.TrimSpace(a.doc) == "" {
				missing(fmt.Sprintf("attribute %s (%s) has no doc", n, a.pos))
			}
		}
	case "provider":
		if strings.TrimSpace(e.provider.doc) == "" {
			missing(fmt.Sprintf("the provider (%s) has no doc", e.provider.pos))
		}
		for _, f := range e.provider.fields.keys {
			if strings.TrimSpace(e.provider.fields.m[f].(string)) == "" {
				missing(fmt.Sprintf("field %s (%s) has no doc", f, e.provider.pos))
			}
		}
	case "macro", "function":
		d, err := parseDocstring(e.fn)
		if err != nil {
			missing(err.Error())
			break
		}
		for _, p := range params(e.fn) {
			if _, ok := d.args[p.key]; !ok {
				missing(fmt.Sprintf("argument %s has no entry under Args: (%s)", p.key, e.fn.mod.pos(e.fn.def)))
			}
		}
		for _, a := range d.argOrder {
			found := false
			for _, p := range params(e.fn) {
				found = found || p.key == a
			}
			if !found {
				missing(fmt.Sprintf("Args: names %s, which is not a parameter (%s)", a, e.fn.mod.pos(e.fn.def)))
			}
		}
	}
	return out
}

type param struct {
	key        string // as the docstring names it: name, **kwargs
	defaultSrc string
	mandatory  bool
}

func params(f *funcValue) []param {
	var out []param
	for _, p := range f.def.Params {
		switch x := p.(type) {
		case *build.Ident:
			out = append(out, param{key: x.Name, mandatory: true})
		case *build.AssignExpr:
			out = append(out, param{key: kwName(x), defaultSrc: build.FormatString(x.RHS)})
		case *build.UnaryExpr:
			out = append(out, param{key: x.Op + build.FormatString(x.X)})
		}
	}
	return out
}

type docstring struct {
	text     string
	args     map[string]string
	argOrder []string
	returns  string
}

var argLine = regexp.MustCompile(`^(\*{0,2}[A-Za-z_][A-Za-z0-9_]*):\s*(.*)$`)

// parseDocstring reads a Starlark function docstring in the Google style
// buildifier and Stardoc expect: a description, then `Args:` with one
// `name: text` entry per parameter (continued on deeper-indented lines) and
// an optional `Returns:`.
func parseDocstring(f *funcValue) (*docstring, error) {
	if len(f.def.Body) == 0 {
		return nil, fmt.Errorf("%s has no docstring", f.mod.pos(f.def))
	}
	s, ok := f.def.Body[0].(*build.StringExpr)
	if !ok {
		return nil, fmt.Errorf("%s has no docstring", f.mod.pos(f.def))
	}
	lines := strings.Split(cleandoc(s.Value), "\n")
	d := &docstring{args: map[string]string{}}
	var text []string
	section := ""
	var returns []string
	cur := ""
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		if l == "Args:" || l == "Returns:" {
			section = strings.TrimSuffix(l, ":")
			continue
		}
		switch section {
		case "":
			text = append(text, l)
		case "Returns":
			if trimmed != "" {
				returns = append(returns, trimmed)
			}
		case "Args":
			if trimmed == "" {
				continue
			}
			indent := len(l) - len(strings.TrimLeft(l, " "))
			if m := argLine.FindStringSubmatch(trimmed); m != nil && indent <= 4 {
				cur = m[1]
				d.argOrder = append(d.argOrder, cur)
				d.args[cur] = m[2]
				continue
			}
			if cur == "" {
				return nil, fmt.Errorf("%s: docstring line %q under Args: is not `name: text`", f.mod.pos(f.def), trimmed)
			}
			d.args[cur] += " " + trimmed
		}
	}
	d.text = strings.TrimSpace(strings.Join(text, "\n"))
	d.returns = strings.Join(returns, " ")
	return d, nil
}

// cleandoc removes a docstring's common indentation (not counting the
// first line) and surrounding blank lines, as Python's inspect.cleandoc.
func cleandoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "    "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			lines[i] = ""
		} else if indent > 0 {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// cell is a doc as one Markdown table cell: whitespace collapsed, pipes
// escaped.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

var attrTypes = map[string]string{
	"bool":                    "bool",
	"int":                     "int",
	"int_list":                "list of ints",
	"label":                   "label",
	"label_keyed_string_dict": "dict label -> string",
	"label_list":              "list of labels",
	"output":                  "output file",
	"output_list":             "list of output files",
	"string":                  "string",
	"string_dict":             "dict string -> string",
	"string_list":             "list of strings",
	"string_list_dict":        "dict string -> list of strings",
}

var attrDefaults = map[string]string{
	"bool": "False", "int": "0", "int_list": "[]", "label": "None",
	"label_keyed_string_dict": "{}", "label_list": "[]", "output": "None",
	"output_list": "[]", "string": `""`, "string_dict": "{}",
	"string_list": "[]", "string_list_dict": "{}",
}

// firstSentence is a doc's summary for the index.
func firstSentence(doc string) string {
	s := strings.Join(strings.Fields(strings.SplitN(cleandoc(doc), "\n\n", 2)[0]), " ")
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && strings.Count(s[:i], "`")%2 == 0 {
			return s[:i+1]
		}
	}
	return s
}

func (e *entry) summary() string {
	switch e.kind {
	case "rule":
		return firstSentence(e.rule.doc)
	case "provider":
		return firstSentence(e.provider.doc)
	case "macro", "function":
		d, _ := parseDocstring(e.fn)
		return firstSentence(d.text)
	}
	return firstSentence(e.constDoc)
}

func render(entries []*entry) string {
	var b strings.Builder
	b.WriteString("Every public name of `@rules_pet//rules:defs.bzl`, in the order it exports them, from the rules' own `doc` strings and docstrings.\n\n")
	b.WriteString("| name | kind | summary |\n| --- | --- | --- |\n")
	var old []*entry
	for _, e := range entries {
		if e.deprecated != "" {
			old = append(old, e)
			continue
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", e.name, strings.ToLower(e.name), e.kind, cell(e.summary()))
	}
	for _, e := range entries {
		if e.deprecated != "" {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", e.name)
		switch e.kind {
		case "rule":
			renderRule(&b, e)
		case "provider":
			renderProvider(&b, e)
		case "macro", "function":
			renderMacro(&b, e)
		default:
			fmt.Fprintf(&b, "Constant.\n\n%s\n", e.constDoc)
		}
	}
	if len(old) > 0 {
		b.WriteString("\n### Deprecated names\n\nThe same rules and providers under their old names, kept for one release (see CHANGELOG.md).\n\n| old name | use instead |\n| --- | --- |\n")
		for _, e := range old {
			fmt.Fprintf(&b, "| `%s` | [`%s`](#%s) |\n", e.name, e.deprecated, strings.ToLower(e.deprecated))
		}
	}
	return b.String()
}

func renderRule(b *strings.Builder, e *entry) {
	r := e.rule
	names := []string{"name"}
	for _, n := range sortedKeys(r.attrs) {
		if !strings.HasPrefix(n, "_") {
			names = append(names, n)
		}
	}
	kind := "Rule"
	switch {
	case r.test:
		kind = "Test rule"
	case r.executable:
		kind = "Executable rule (`bazel run`)"
	}
	if e.wrapper != "" {
		kind += fmt.Sprintf(" (through the macro `%s`, which passes every attribute on)", e.wrapper)
	}
	fmt.Fprintf(b, "```starlark\n%s(%s)\n```\n\n%s.\n\n%s\n\n", e.name, strings.Join(names, ", "), kind, cleandoc(r.doc))
	b.WriteString("| attribute | type | default | doc |\n| --- | --- | --- | --- |\n")
	b.WriteString("| `name` | name | mandatory | A unique name for this target. |\n")
	for _, n := range names[1:] {
		a := r.attrs.m[n].(*attrValue)
		typ, ok := attrTypes[a.kind]
		if !ok {
			typ = "attr." + a.kind
		}
		def := "mandatory"
		if !a.mandatory {
			def = a.defaultSrc
			if def == "" {
				def = attrDefaults[a.kind]
			}
			def = "`" + strings.ReplaceAll(def, "|", `\|`) + "`"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", n, typ, def, cell(a.doc))
	}
}

func renderProvider(b *strings.Builder, e *entry) {
	p := e.provider
	fmt.Fprintf(b, "Provider.\n\n%s\n\n| field | doc |\n| --- | --- |\n", cleandoc(p.doc))
	for _, f := range sortedKeys(p.fields) {
		fmt.Fprintf(b, "| `%s` | %s |\n", f, cell(cleandoc(p.fields.m[f].(string))))
	}
}

func renderMacro(b *strings.Builder, e *entry) {
	d, _ := parseDocstring(e.fn)
	ps := params(e.fn)
	var sig []string
	for _, p := range ps {
		if p.defaultSrc != "" {
			sig = append(sig, p.key+" = "+p.defaultSrc)
		} else {
			sig = append(sig, p.key)
		}
	}
	kind := "Macro"
	if e.kind == "function" {
		kind = "Function"
	}
	fmt.Fprintf(b, "```starlark\n%s(%s)\n```\n\n%s.\n\n%s\n\n", e.name, strings.Join(sig, ", "), kind, d.text)
	b.WriteString("| argument | default | doc |\n| --- | --- | --- |\n")
	for _, p := range ps {
		def := ""
		switch {
		case p.mandatory:
			def = "mandatory"
		case p.defaultSrc != "":
			def = "`" + strings.ReplaceAll(p.defaultSrc, "|", `\|`) + "`"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", p.key, def, cell(d.args[p.key]))
	}
	if d.returns != "" {
		fmt.Fprintf(b, "\nReturns: %s\n", d.returns)
	}
}
