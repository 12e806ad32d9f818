package docgen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// This file reads the ruleset's .bzl files without running Bazel: it parses
// them with the buildifier parser and evaluates the small part of Starlark
// that declares rules, providers and attributes (literals, `+` and `%` on
// strings, dict(), comprehensions over literal lists, calls of one-line
// helper functions, `X.update(...)` at the top level). Anything else that a
// documented name depends on fails with the file and line, rather than
// being left out of the reference.

// value is an evaluated Starlark value: string, []value, *dictValue,
// *ruleValue, *providerValue, *funcValue, *attrValue, bool, noneValue or
// opaqueValue.
type value interface{}

type noneValue struct{}

// opaqueValue is a value the generator does not model (a Label, an external
// symbol, a number); it fails only when something needs what it holds.
type opaqueValue struct{ what string }

type dictValue struct {
	keys []string
	m    map[string]value
}

func newDict() *dictValue { return &dictValue{m: map[string]value{}} }

func (d *dictValue) set(k string, v value) {
	if _, ok := d.m[k]; !ok {
		d.keys = append(d.keys, k)
	}
	d.m[k] = v
}

type attrValue struct {
	kind       string // attr.label, attr.string, ...
	doc        string
	hasDoc     bool
	mandatory  bool
	defaultSrc string // the default as written, "" when not given
	pos        string
}

type ruleValue struct {
	doc        string
	attrs      *dictValue
	test       bool
	executable bool
	pos        string
}

type providerValue struct {
	doc    string
	fields *dictValue // field -> doc string
	pos    string
}

type funcValue struct {
	def *build.DefStmt
	mod *module
}

// module is one parsed .bzl file and its top-level bindings.
type module struct {
	label    string
	path     string
	file     *build.File
	bindings map[string]*binding
	docs     string
}

// binding is a top-level name: a load, an assignment (evaluated on first
// use, then its `.update` calls applied) or a def.
type binding struct {
	loadFrom, loadName string
	assign             *build.AssignExpr
	updates            []*build.CallExpr
	def                *build.DefStmt
	done               bool
	evaluating         bool
	val                value
}

// workspace loads .bzl files below a repository root by label.
type workspace struct {
	root    string
	modules map[string]*module
}

func newWorkspace(root string) *workspace {
	return &workspace{root: root, modules: map[string]*module{}}
}

// resolveLabel turns a load label into a canonical //pkg:file label, or ""
// for another repository's file (its symbols stay opaque).
func resolveLabel(from, label string) (string, error) {
	if strings.HasPrefix(label, "@") {
		return "", nil
	}
	if strings.HasPrefix(label, ":") {
		pkg := strings.SplitN(from, ":", 2)[0]
		return pkg + label, nil
	}
	if strings.HasPrefix(label, "//") && strings.Contains(label, ":") {
		return label, nil
	}
	return "", fmt.Errorf("load label %q: want //pkg:file.bzl or :file.bzl", label)
}

func (w *workspace) load(label string) (*module, error) {
	if m, ok := w.modules[label]; ok {
		return m, nil
	}
	parts := strings.SplitN(strings.TrimPrefix(label, "//"), ":", 2)
	path := filepath.Join(w.root, filepath.FromSlash(parts[0]), filepath.FromSlash(parts[1]))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", label, err)
	}
	rel := strings.TrimPrefix(parts[0]+"/"+parts[1], "/")
	f, err := build.ParseBzl(rel, data)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", rel, err)
	}
	m := &module{label: label, path: rel, file: f, bindings: map[string]*binding{}}
	for i, stmt := range f.Stmt {
		switch s := stmt.(type) {
		case *build.CommentBlock:
		case *build.StringExpr:
			if i == 0 {
				m.docs = s.Value
				continue
			}
			return nil, m.errorf(s, "a string statement that is not the module docstring")
		case *build.LoadStmt:
			target, err := resolveLabel(label, s.Module.Value)
			if err != nil {
				return nil, m.errorf(s, "%v", err)
			}
			for j := range s.From {
				m.bindings[s.To[j].Name] = &binding{loadFrom: target, loadName: s.From[j].Name}
			}
		case *build.DefStmt:
			m.bindings[s.Name] = &binding{def: s}
		case *build.AssignExpr:
			id, ok := s.LHS.(*build.Ident)
			if !ok || s.Op != "=" {
				return nil, m.errorf(s, "an assignment docgen does not read (want NAME = EXPR)")
			}
			m.bindings[id.Name] = &binding{assign: s}
		case *build.CallExpr:
			// NAME.update(...) at the top level adds to a dict assigned above.
			dot, ok := s.X.(*build.DotExpr)
			if !ok || dot.Name != "update" {
				return nil, m.errorf(s, "a top-level call docgen does not read (only NAME.update(...))")
			}
			id, ok := dot.X.(*build.Ident)
			if !ok || m.bindings[id.Name] == nil || m.bindings[id.Name].assign == nil {
				return nil, m.errorf(s, "update of something not assigned above")
			}
			m.bindings[id.Name].updates = append(m.bindings[id.Name].updates, s)
		default:
			return nil, m.errorf(stmt, "a top-level statement docgen does not read")
		}
	}
	w.modules[label] = m
	return m, nil
}

func (m *module) pos(e build.Expr) string {
	start, _ := e.Span()
	return fmt.Sprintf("%s:%d", m.path, start.Line)
}

func (m *module) errorf(e build.Expr, format string, args ...interface{}) error {
	src := build.FormatString(e)
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i] + " ..."
	}
	return fmt.Errorf("%s: %s: %s", m.pos(e), fmt.Sprintf(format, args...), src)
}

// lookup evaluates a top-level name of m.
func (w *workspace) lookup(m *module, name string) (value, error) {
	b, ok := m.bindings[name]
	if !ok {
		switch name {
		case "None":
			return noneValue{}, nil
		case "True":
			return true, nil
		case "False":
			return false, nil
		}
		return nil, fmt.Errorf("%s: %s is not defined at the top level", m.path, name)
	}
	if b.done {
		return b.val, nil
	}
	if b.evaluating {
		return nil, fmt.Errorf("%s: %s depends on itself", m.path, name)
	}
	b.evaluating = true
	defer func() { b.evaluating = false }()
	var v value
	var err error
	switch {
	case b.def != nil:
		v = &funcValue{def: b.def, mod: m}
	case b.loadFrom == "" && b.assign == nil:
		v = opaqueValue{what: name + " from another repository"}
	case b.loadFrom != "":
		var dep *module
		if dep, err = w.load(b.loadFrom); err == nil {
			v, err = w.lookup(dep, b.loadName)
		}
	default:
		v, err = w.eval(m, b.assign.RHS, nil)
		for _, u := range b.updates {
			if err != nil {
				break
			}
			d, ok := v.(*dictValue)
			if !ok || len(u.List) != 1 {
				return nil, m.errorf(u, "update of a value that is not a dict, or not with one argument")
			}
			var add value
			if add, err = w.eval(m, u.List[0], nil); err == nil {
				ad, ok := add.(*dictValue)
				if !ok {
					return nil, m.errorf(u, "update with a value that is not a dict")
				}
				for _, k := range ad.keys {
					d.set(k, ad.m[k])
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	b.val, b.done = v, true
	return v, nil
}

// eval evaluates an expression of m; env holds a function's parameters or
// a comprehension's variables.
func (w *workspace) eval(m *module, e build.Expr, env map[string]value) (value, error) {
	switch x := e.(type) {
	case *build.StringExpr:
		return x.Value, nil
	case *build.LiteralExpr:
		return opaqueValue{what: x.Token}, nil
	case *build.Ident:
		if v, ok := env[x.Name]; ok {
			return v, nil
		}
		return w.lookup(m, x.Name)
	case *build.ParenExpr:
		return w.eval(m, x.X, env)
	case *build.ListExpr:
		return w.evalList(m, x.List, env)
	case *build.TupleExpr:
		return w.evalList(m, x.List, env)
	case *build.DictExpr:
		d := newDict()
		for _, kv := range x.List {
			k, err := w.evalString(m, kv.Key, env)
			if err != nil {
				return nil, err
			}
			v, err := w.eval(m, kv.Value, env)
			if err != nil {
				return nil, err
			}
			d.set(k, v)
		}
		return d, nil
	case *build.BinaryExpr:
		return w.evalBinary(m, x, env)
	case *build.Comprehension:
		return w.evalComprehension(m, x, env)
	case *build.CallExpr:
		return w.evalCall(m, x, env)
	}
	return nil, m.errorf(e, "an expression docgen does not evaluate")
}

func (w *workspace) evalList(m *module, list []build.Expr, env map[string]value) (value, error) {
	out := []value{}
	for _, e := range list {
		v, err := w.eval(m, e, env)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (w *workspace) evalString(m *module, e build.Expr, env map[string]value) (string, error) {
	v, err := w.eval(m, e, env)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", m.errorf(e, "want a string")
	}
	return s, nil
}

func (w *workspace) evalBinary(m *module, x *build.BinaryExpr, env map[string]value) (value, error) {
	l, err := w.eval(m, x.X, env)
	if err != nil {
		return nil, err
	}
	r, err := w.eval(m, x.Y, env)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case "+":
		if ls, ok := l.(string); ok {
			if rs, ok := r.(string); ok {
				return ls + rs, nil
			}
		}
		if ll, ok := l.([]value); ok {
			if rl, ok := r.([]value); ok {
				return append(append([]value{}, ll...), rl...), nil
			}
		}
	case "%":
		format, ok := l.(string)
		if !ok {
			break
		}
		args, ok := r.([]value)
		if !ok {
			args = []value{r}
		}
		var b strings.Builder
		n := 0
		for i := 0; i < len(format); i++ {
			if format[i] != '%' {
				b.WriteByte(format[i])
				continue
			}
			i++
			if i == len(format) {
				return nil, m.errorf(x, "a format string ending in %%")
			}
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'r':
				if n == len(args) {
					return nil, m.errorf(x, "too few format arguments")
				}
				s, ok := args[n].(string)
				if !ok {
					return nil, m.errorf(x, "a format argument that is not a string")
				}
				if format[i] == 'r' {
					s = strconv.Quote(s)
				}
				b.WriteString(s)
				n++
			default:
				return nil, m.errorf(x, "format verb %%%c", format[i])
			}
		}
		if n != len(args) {
			return nil, m.errorf(x, "too many format arguments")
		}
		return b.String(), nil
	}
	return nil, m.errorf(x, "operator %s on these operands", x.Op)
}

func (w *workspace) evalComprehension(m *module, x *build.Comprehension, env map[string]value) (value, error) {
	if len(x.Clauses) != 1 {
		return nil, m.errorf(x, "a comprehension with more than one clause")
	}
	fc, ok := x.Clauses[0].(*build.ForClause)
	if !ok {
		return nil, m.errorf(x, "a comprehension without a for clause")
	}
	id, ok := fc.Vars.(*build.Ident)
	if !ok {
		return nil, m.errorf(x, "a comprehension over more than one variable")
	}
	over, err := w.eval(m, fc.X, env)
	if err != nil {
		return nil, err
	}
	items, ok := over.([]value)
	if !ok {
		return nil, m.errorf(x, "a comprehension over something that is not a list")
	}
	inner := map[string]value{}
	for k, v := range env {
		inner[k] = v
	}
	var list []value
	d := newDict()
	for _, it := range items {
		inner[id.Name] = it
		if x.Curly {
			kv, ok := x.Body.(*build.KeyValueExpr)
			if !ok {
				return nil, m.errorf(x, "a dict comprehension without key: value")
			}
			k, err := w.evalString(m, kv.Key, inner)
			if err != nil {
				return nil, err
			}
			v, err := w.eval(m, kv.Value, inner)
			if err != nil {
				return nil, err
			}
			d.set(k, v)
			continue
		}
		v, err := w.eval(m, x.Body, inner)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if x.Curly {
		return d, nil
	}
	return list, nil
}

// callArgs splits a call's arguments: positional, keyword (in order) and
// **kwargs expressions.
func callArgs(c *build.CallExpr) (pos []build.Expr, kw []*build.AssignExpr, star []build.Expr) {
	for _, a := range c.List {
		switch x := a.(type) {
		case *build.AssignExpr:
			kw = append(kw, x)
		case *build.UnaryExpr:
			if x.Op == "**" || x.Op == "*" {
				star = append(star, x.X)
				continue
			}
			pos = append(pos, a)
		default:
			pos = append(pos, a)
		}
	}
	return pos, kw, star
}

func kwName(a *build.AssignExpr) string {
	if id, ok := a.LHS.(*build.Ident); ok {
		return id.Name
	}
	return ""
}

func (w *workspace) evalCall(m *module, c *build.CallExpr, env map[string]value) (value, error) {
	pos, kw, star := callArgs(c)
	// attr.xxx(...)
	if dot, ok := c.X.(*build.DotExpr); ok {
		if id, ok := dot.X.(*build.Ident); ok && id.Name == "attr" && env["attr"] == nil && m.bindings["attr"] == nil {
			return w.evalAttr(m, c, dot.Name, pos, kw, star, env)
		}
		return opaqueValue{what: build.FormatString(c)}, nil
	}
	id, ok := c.X.(*build.Ident)
	if !ok {
		return nil, m.errorf(c, "a call docgen does not evaluate")
	}
	if _, local := env[id.Name]; !local && m.bindings[id.Name] == nil {
		switch id.Name {
		case "rule":
			return w.evalRule(m, c, pos, kw, star, env)
		case "provider":
			return w.evalProvider(m, c, pos, kw, star, env)
		case "dict":
			return w.evalDict(m, c, pos, kw, star, env)
		case "Label", "str", "select", "len", "json", "struct", "depset":
			return opaqueValue{what: build.FormatString(c)}, nil
		}
		return nil, m.errorf(c, "a call of %s, which docgen does not know", id.Name)
	}
	fv, err := w.eval(m, id, env)
	if err != nil {
		return nil, err
	}
	fn, ok := fv.(*funcValue)
	if !ok {
		return nil, m.errorf(c, "a call of %s, which is not a function", id.Name)
	}
	return w.callFunc(m, c, fn, pos, kw, star, env)
}

// callFunc evaluates a call of a helper whose body is `return EXPR` (after
// an optional docstring), binding its parameters.
func (w *workspace) callFunc(m *module, c *build.CallExpr, fn *funcValue, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (value, error) {
	body := fn.def.Body
	if len(body) > 0 {
		if _, ok := body[0].(*build.StringExpr); ok {
			body = body[1:]
		}
	}
	ret, ok := singleReturn(body)
	if !ok || len(star) > 0 {
		return nil, m.errorf(c, "a call of %s, whose body is not a single return statement (or with **kwargs)", fn.def.Name)
	}
	params := map[string]value{}
	names := []string{}
	defaults := map[string]build.Expr{}
	for _, p := range fn.def.Params {
		switch x := p.(type) {
		case *build.Ident:
			names = append(names, x.Name)
		case *build.AssignExpr:
			n := kwName(x)
			names = append(names, n)
			defaults[n] = x.RHS
		default:
			return nil, fn.mod.errorf(fn.def, "a parameter docgen does not bind")
		}
	}
	if len(pos) > len(names) {
		return nil, m.errorf(c, "too many arguments to %s", fn.def.Name)
	}
	for i, a := range pos {
		v, err := w.eval(m, a, env)
		if err != nil {
			return nil, err
		}
		params[names[i]] = v
	}
	for _, a := range kw {
		v, err := w.eval(m, a.RHS, env)
		if err != nil {
			return nil, err
		}
		params[kwName(a)] = v
	}
	for _, n := range names {
		if _, ok := params[n]; ok {
			continue
		}
		d, ok := defaults[n]
		if !ok {
			return nil, m.errorf(c, "missing argument %s of %s", n, fn.def.Name)
		}
		v, err := w.eval(fn.mod, d, nil)
		if err != nil {
			return nil, err
		}
		params[n] = v
	}
	return w.eval(fn.mod, ret, params)
}

func singleReturn(body []build.Expr) (build.Expr, bool) {
	if len(body) != 1 {
		return nil, false
	}
	r, ok := body[0].(*build.ReturnStmt)
	if !ok || r.Result == nil {
		return nil, false
	}
	return r.Result, true
}

func (w *workspace) evalDict(m *module, c *build.CallExpr, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (value, error) {
	d := newDict()
	merge := func(e build.Expr) error {
		v, err := w.eval(m, e, env)
		if err != nil {
			return err
		}
		src, ok := v.(*dictValue)
		if !ok {
			return m.errorf(e, "dict() of something that is not a dict")
		}
		for _, k := range src.keys {
			d.set(k, src.m[k])
		}
		return nil
	}
	if len(pos) > 1 {
		return nil, m.errorf(c, "dict() with more than one positional argument")
	}
	for _, p := range pos {
		if err := merge(p); err != nil {
			return nil, err
		}
	}
	for _, a := range kw {
		v, err := w.eval(m, a.RHS, env)
		if err != nil {
			return nil, err
		}
		d.set(kwName(a), v)
	}
	for _, s := range star {
		if err := merge(s); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// kwargs evaluates a builtin's keyword arguments lazily: get evaluates one.
type kwargs struct {
	w   *workspace
	m   *module
	env map[string]value
	by  map[string]*build.AssignExpr
}

func (w *workspace) kwargsOf(m *module, c *build.CallExpr, what string, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (*kwargs, error) {
	if len(pos) > 0 || len(star) > 0 {
		return nil, m.errorf(c, "%s with positional or ** arguments; docgen reads keyword arguments only", what)
	}
	k := &kwargs{w: w, m: m, env: env, by: map[string]*build.AssignExpr{}}
	for _, a := range kw {
		k.by[kwName(a)] = a
	}
	return k, nil
}

func (k *kwargs) get(name string) (value, bool, error) {
	a, ok := k.by[name]
	if !ok {
		return nil, false, nil
	}
	v, err := k.w.eval(k.m, a.RHS, k.env)
	return v, true, err
}

func (k *kwargs) str(name string) (string, bool, error) {
	v, ok, err := k.get(name)
	if err != nil || !ok {
		return "", ok, err
	}
	s, isStr := v.(string)
	if !isStr {
		return "", true, k.m.errorf(k.by[name], "%s is not a string", name)
	}
	return s, true, nil
}

func (k *kwargs) boolean(name string) (bool, error) {
	v, ok, err := k.get(name)
	if err != nil || !ok {
		return false, err
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, k.m.errorf(k.by[name], "%s is not True or False", name)
	}
	return b, nil
}

func (w *workspace) evalAttr(m *module, c *build.CallExpr, kind string, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (value, error) {
	k, err := w.kwargsOf(m, c, "attr."+kind, pos, kw, star, env)
	if err != nil {
		return nil, err
	}
	a := &attrValue{kind: kind, pos: m.pos(c)}
	if a.doc, a.hasDoc, err = k.str("doc"); err != nil {
		return nil, err
	}
	if a.mandatory, err = k.boolean("mandatory"); err != nil {
		return nil, err
	}
	if d, ok := k.by["default"]; ok {
		a.defaultSrc = build.FormatString(d.RHS)
	}
	return a, nil
}

func (w *workspace) evalRule(m *module, c *build.CallExpr, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (value, error) {
	k, err := w.kwargsOf(m, c, "rule()", pos, kw, star, env)
	if err != nil {
		return nil, err
	}
	r := &ruleValue{pos: m.pos(c), attrs: newDict()}
	if r.doc, _, err = k.str("doc"); err != nil {
		return nil, err
	}
	attrs, ok, err := k.get("attrs")
	if err != nil {
		return nil, err
	}
	if ok {
		d, isDict := attrs.(*dictValue)
		if !isDict {
			return nil, m.errorf(c, "attrs is not a dict")
		}
		for _, name := range d.keys {
			if _, isAttr := d.m[name].(*attrValue); !isAttr && !strings.HasPrefix(name, "_") {
				return nil, m.errorf(c, "attribute %s is not an attr.*() value docgen can read", name)
			}
		}
		r.attrs = d
	}
	if r.test, err = k.boolean("test"); err != nil {
		return nil, err
	}
	if r.executable, err = k.boolean("executable"); err != nil {
		return nil, err
	}
	return r, nil
}

func (w *workspace) evalProvider(m *module, c *build.CallExpr, pos []build.Expr, kw []*build.AssignExpr, star []build.Expr, env map[string]value) (value, error) {
	k, err := w.kwargsOf(m, c, "provider()", pos, kw, star, env)
	if err != nil {
		return nil, err
	}
	p := &providerValue{pos: m.pos(c)}
	if p.doc, _, err = k.str("doc"); err != nil {
		return nil, err
	}
	fields, ok, err := k.get("fields")
	if err != nil {
		return nil, err
	}
	d, isDict := fields.(*dictValue)
	if !ok || !isDict {
		return nil, m.errorf(c, "provider fields must be a dict of field -> doc")
	}
	for _, f := range d.keys {
		if _, isStr := d.m[f].(string); !isStr {
			return nil, m.errorf(c, "provider field %s: its doc is not a string", f)
		}
	}
	p.fields = d
	return p, nil
}

// sortedKeys is the dict's keys in name order.
func sortedKeys(d *dictValue) []string {
	keys := append([]string{}, d.keys...)
	sort.Strings(keys)
	return keys
}
