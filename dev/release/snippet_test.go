package main

import (
	"strings"
	"testing"
)

const digestA = "1111111111111111111111111111111111111111111111111111111111111111"
const digestB = "2222222222222222222222222222222222222222222222222222222222222222"

func readmeWith(sha, prefix, url string) string {
	return "# rules_pet\n\n<!-- workspace-snippet:begin (x) -->\n```starlark\nhttp_archive(\n    name = \"rules_pet\",\n" +
		sha + "\n    strip_prefix = \"" + prefix + "\",\n    urls = [\"" + url + "\"],\n)\n```\n<!-- workspace-snippet:end -->\n\nAfter.\n"
}

const goodURL = "https://github.com/agentpet/rules_pet/releases/download/v0.1.0/rules_pet-0.1.0.tar.gz"

func TestCheckSnippet(t *testing.T) {
	for _, tc := range []struct {
		name   string
		readme string
		want   []string // substrings, one per expected error
	}{
		{"agrees", readmeWith(`    sha256 = "`+digestA+`",`, "rules_pet-0.1.0", goodURL), nil},
		{"stale digest", readmeWith(`    sha256 = "`+digestB+`",`, "rules_pet-0.1.0", goodURL),
			[]string{"README.md:7: snippet sha256 \"" + digestB + "\", release archive rules_pet-0.1.0.tar.gz has \"" + digestA + "\"; run bazel run //release:update_snippet"}},
		{"commented out", readmeWith(`    # sha256 = "...",`, "rules_pet-0.1.0", goodURL), []string{"README.md:7: the snippet's sha256 is commented out"}},
		{"no sha256", readmeWith(``, "rules_pet-0.1.0", goodURL), []string{"has 0 sha256"}},
		{"old prefix", readmeWith(`    sha256 = "`+digestA+`",`, "rules_pet-0.0.9", goodURL), []string{`strip_prefix "rules_pet-0.0.9", want "rules_pet-0.1.0"`}},
		{"tag archive", readmeWith(`    sha256 = "`+digestA+`",`, "rules_pet-0.1.0", "https://github.com/agentpet/rules_pet/archive/refs/tags/v0.1.0.tar.gz"),
			[]string{`does not end in "/releases/download/v0.1.0/rules_pet-0.1.0.tar.gz"`}},
		{"no markers", "# rules_pet\n", []string{"no <!-- workspace-snippet:begin -->"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := checkSnippet([]byte(tc.readme), "0.1.0", digestA)
			if len(errs) != len(tc.want) {
				t.Fatalf("errors %v, want %d", errs, len(tc.want))
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.want[i]) {
					t.Errorf("error %q, want one containing %q", e, tc.want[i])
				}
			}
		})
	}
}

func TestUpdateSnippet(t *testing.T) {
	for _, sha := range []string{`    # sha256 = "...",`, `    sha256 = "` + digestB + `",`, `    sha256 = "` + digestA + `",`} {
		in := readmeWith(sha, "rules_pet-0.1.0", goodURL)
		out, err := updateSnippet([]byte(in), digestA)
		if err != nil {
			t.Fatal(err)
		}
		want := readmeWith(`    sha256 = "`+digestA+`",`, "rules_pet-0.1.0", goodURL)
		if string(out) != want {
			t.Errorf("from %q:\n%s\nwant:\n%s", sha, out, want)
		}
		if errs := checkSnippet(out, "0.1.0", digestA); len(errs) != 0 {
			t.Errorf("from %q: the updated snippet fails the check: %v", sha, errs)
		}
	}
	if _, err := updateSnippet([]byte(readmeWith("", "rules_pet-0.1.0", goodURL)), digestA); err == nil {
		t.Error("a snippet with no sha256 line was updated")
	}
}

func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		changelog, want, err string
	}{
		{"# Changelog\n\n## 0.1.0 (unreleased)\n\n### Added\n\n## 0.0.9 (2026-01-01)\n", "0.1.0", ""},
		{"# Changelog\n\n## 0.2.0 (2027-03-04)\n", "0.2.0", ""},
		{"# Changelog\n\n## Unreleased\n\n## 0.1.0 (2026-01-01)\n", "", `CHANGELOG.md:3: top entry "Unreleased"`},
		{"# Changelog\n\n## v0.1.0\n", "", `CHANGELOG.md:3: top entry "v0.1.0"`},
		{"# Changelog\n", "", "no \"## \" heading"},
	} {
		got, err := changelogVersion([]byte(tc.changelog))
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("changelogVersion(%q) = %q, %v; want %q, error containing %q", tc.changelog, got, err, tc.want, tc.err)
		}
	}
	if v, err := moduleVersion([]byte("module(\n    name = \"rules_pet\",\n    version = \"0.1.0\",\n)\n")); v != "0.1.0" || err != nil {
		t.Errorf("moduleVersion = %q, %v", v, err)
	}
	if _, err := moduleVersion([]byte("module(name = \"other\", version = \"1\")\n")); err == nil {
		t.Error("moduleVersion accepted another module")
	}
}

func TestCheckComplete(t *testing.T) {
	complete := map[string][]byte{
		"rules/BUILD.bazel":          []byte("load(\"//rules/private:pet.bzl\", \"x\")\nload(\":defs.bzl\", \"y\")\n"),
		"rules/defs.bzl":             []byte("load(\"@rules_pet//rules/private:pet.bzl\", \"x\")\nload(\"@bazel_skylib//lib:paths.bzl\", \"paths\")\n"),
		"rules/private/pet.bzl":      []byte("x = 1\n"),
		"tools/cmd/petasset/main.go": []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"github.com/agentpet/rules_pet/runtime/pack\"\n)\n\nconst usage = \"github.com/agentpet/rules_pet/runtime/other\"\n"),
		"runtime/pack/read.go":       []byte("package pack\n"),
	}
	if errs := checkComplete(complete); len(errs) != 0 {
		t.Fatalf("a complete set: %v", errs)
	}
	for _, tc := range []struct{ drop, want string }{
		{"runtime/pack/read.go", "tools/cmd/petasset/main.go imports github.com/agentpet/rules_pet/runtime/pack, whose package the archive does not hold"},
		{"rules/private/pet.bzl", "rules/BUILD.bazel loads //rules/private:pet.bzl, which the archive does not hold"},
		{"rules/defs.bzl", "rules/BUILD.bazel loads //rules:defs.bzl, which the archive does not hold"},
	} {
		files := map[string][]byte{}
		for k, v := range complete {
			if k != tc.drop {
				files[k] = v
			}
		}
		errs := checkComplete(files)
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
			t.Errorf("without %s: errors %q, want %q", tc.drop, msgs, tc.want)
		}
	}
}
