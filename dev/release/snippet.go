package main

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// updateCommand is what a stale README snippet's error tells the user to run.
const updateCommand = "bazel run //release:update_snippet"

// modulePath is the Go module every shipped Go package belongs to.
const modulePath = "github.com/agentpet/rules_pet"

var (
	moduleVersionRE = regexp.MustCompile(`(?s)module\(\s*name = "rules_pet",\s*version = "([^"]+)"`)
	// The first second-level heading: "## 0.1.0 (unreleased)" or
	// "## 0.1.0 (2027-01-31)".
	changelogRE   = regexp.MustCompile(`(?m)^## (.*)$`)
	changelogHead = regexp.MustCompile(`^([0-9]+\.[0-9]+\.[0-9]+) \((unreleased|[0-9]{4}-[0-9]{2}-[0-9]{2})\)$`)
	idfVersionRE  = regexp.MustCompile(`(?m)^version: "([^"]+)"$`)
	sha256LineRE  = regexp.MustCompile(`^(\s*)(?:# )?sha256 = "([^"]*)",$`)
	stripRE       = regexp.MustCompile(`^\s*strip_prefix = "([^"]*)",$`)
	urlsRE        = regexp.MustCompile(`^\s*urls = \["([^"]*)"\],$`)
	// A load of this repository's file: "//pkg:f.bzl", "@rules_pet//pkg:f.bzl"
	// or ":f.bzl" (group 1 is "//pkg" or empty for the file's own package).
	loadRE = regexp.MustCompile(`(?m)^load\("(?:@rules_pet)?(//[^:"]*)?:([^"]+)"`)
)

// moduleVersion returns MODULE.bazel's module version.
func moduleVersion(moduleBazel []byte) (string, error) {
	m := moduleVersionRE.FindSubmatch(moduleBazel)
	if m == nil {
		return "", fmt.Errorf("MODULE.bazel: no module(name = \"rules_pet\", version = \"...\")")
	}
	return string(m[1]), nil
}

// changelogVersion returns the version of CHANGELOG.md's top entry, which
// must read "## X.Y.Z (unreleased)" or "## X.Y.Z (YYYY-MM-DD)".
func changelogVersion(changelog []byte) (string, error) {
	m := changelogRE.FindSubmatchIndex(changelog)
	if m == nil {
		return "", fmt.Errorf("CHANGELOG.md: no \"## \" heading")
	}
	line := 1 + bytes.Count(changelog[:m[0]], []byte("\n"))
	head := string(changelog[m[2]:m[3]])
	v := changelogHead.FindStringSubmatch(head)
	if v == nil {
		return "", fmt.Errorf("CHANGELOG.md:%d: top entry %q: want \"## X.Y.Z (unreleased)\" or \"## X.Y.Z (YYYY-MM-DD)\"", line, head)
	}
	return v[1], nil
}

// snippetLine is one line of README.md's WORKSPACE snippet.
type snippetLine struct {
	n    int // 1-based line number in README.md
	text string
}

// snippet returns the lines between README.md's workspace-snippet markers.
func snippet(readme []byte) ([]snippetLine, error) {
	var out []snippetLine
	in, begun, ended := false, false, false
	for i, l := range strings.Split(string(readme), "\n") {
		switch {
		case strings.HasPrefix(l, "<!-- workspace-snippet:begin"):
			if begun {
				return nil, fmt.Errorf("README.md:%d: a second workspace-snippet:begin marker", i+1)
			}
			in, begun = true, true
		case strings.HasPrefix(l, "<!-- workspace-snippet:end"):
			in, ended = false, begun
		case in:
			out = append(out, snippetLine{i + 1, l})
		}
	}
	if !begun || !ended {
		return nil, fmt.Errorf("README.md: no <!-- workspace-snippet:begin --> ... <!-- workspace-snippet:end --> block")
	}
	return out, nil
}

// onlyMatch returns the one snippet line re matches and its submatches.
func onlyMatch(lines []snippetLine, re *regexp.Regexp, what string) (snippetLine, []string, error) {
	var found []snippetLine
	var sub []string
	for _, l := range lines {
		if m := re.FindStringSubmatch(l.text); m != nil {
			found = append(found, l)
			sub = m
		}
	}
	if len(found) != 1 {
		return snippetLine{}, nil, fmt.Errorf("README.md: the workspace snippet has %d %s lines, want 1", len(found), what)
	}
	return found[0], sub, nil
}

// checkSnippet reports every way README.md's snippet disagrees with the
// release of version whose archive has the given sha256 (hex).
func checkSnippet(readme []byte, version, digest string) []error {
	lines, err := snippet(readme)
	if err != nil {
		return []error{err}
	}
	var errs []error
	if l, m, err := onlyMatch(lines, sha256LineRE, `sha256 = "..."`); err != nil {
		errs = append(errs, err)
	} else if strings.Contains(l.text, "#") {
		errs = append(errs, fmt.Errorf("README.md:%d: the snippet's sha256 is commented out; run %s", l.n, updateCommand))
	} else if m[2] != digest {
		errs = append(errs, fmt.Errorf("README.md:%d: snippet sha256 %q, release archive rules_pet-%s.tar.gz has %q; run %s", l.n, m[2], version, digest, updateCommand))
	}
	prefix := "rules_pet-" + version
	if l, m, err := onlyMatch(lines, stripRE, `strip_prefix = "..."`); err != nil {
		errs = append(errs, err)
	} else if m[1] != prefix {
		errs = append(errs, fmt.Errorf("README.md:%d: snippet strip_prefix %q, want %q (MODULE.bazel's version)", l.n, m[1], prefix))
	}
	wantURL := "/releases/download/v" + version + "/" + prefix + ".tar.gz"
	if l, m, err := onlyMatch(lines, urlsRE, `urls = ["..."]`); err != nil {
		errs = append(errs, err)
	} else if !strings.HasSuffix(m[1], wantURL) {
		errs = append(errs, fmt.Errorf("README.md:%d: snippet URL %q does not end in %q (the release archive of MODULE.bazel's version)", l.n, m[1], wantURL))
	}
	return errs
}

// updateSnippet returns readme with the snippet's sha256 line set to
// digest (and uncommented), every other byte unchanged.
func updateSnippet(readme []byte, digest string) ([]byte, error) {
	lines, err := snippet(readme)
	if err != nil {
		return nil, err
	}
	l, m, err := onlyMatch(lines, sha256LineRE, `sha256 = "..."`)
	if err != nil {
		return nil, err
	}
	all := strings.Split(string(readme), "\n")
	all[l.n-1] = m[1] + `sha256 = "` + digest + `",`
	return []byte(strings.Join(all, "\n")), nil
}

// checkComplete reports what a user build of the archive's files would
// miss: a Go import of this module, or a load() of this repository's
// .bzl file, that names a package or file the archive does not hold.
func checkComplete(files map[string][]byte) []error {
	goDirs := map[string]bool{}
	for name := range files {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			goDirs[path.Dir(name)] = true
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		data := files[name]
		base := path.Base(name)
		switch {
		case strings.HasSuffix(name, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ImportsOnly)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				if err != nil || !strings.HasPrefix(p, modulePath+"/") {
					continue
				}
				if !goDirs[strings.TrimPrefix(p, modulePath+"/")] {
					errs = append(errs, fmt.Errorf("%s imports %s, whose package the archive does not hold", name, p))
				}
			}
		case base == "BUILD.bazel" || base == "BUILD" || strings.HasSuffix(name, ".bzl"):
			for _, m := range loadRE.FindAllSubmatch(data, -1) {
				pkg := strings.TrimPrefix(string(m[1]), "//")
				if len(m[1]) == 0 {
					pkg = path.Dir(name)
				}
				if _, ok := files[path.Join(pkg, string(m[2]))]; !ok {
					errs = append(errs, fmt.Errorf("%s loads //%s:%s, which the archive does not hold", name, strings.TrimPrefix(pkg, "."), m[2]))
				}
			}
		}
	}
	return errs
}
