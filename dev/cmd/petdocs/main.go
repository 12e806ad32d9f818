// Command petdocs regenerates the reference parts of docs/rules.md (from
// the rules' `doc` strings in rules/*.bzl), docs/cli.md (from every
// petasset command's --help) and docs/rule-ids.md's manifest, asset-set and
// pack tables (from the rule constants' doc comments), or checks that they
// are up to date.
//
//	bazel run //dev/cmd/petdocs -- -write   # rewrite both pages
//	go run ./dev/cmd/petdocs -write         # the same without Bazel
//	go run ./dev/cmd/petdocs                # exit 1 if either is stale
//
// Under `bazel run` it reads and writes the checkout
// (BUILD_WORKSPACE_DIRECTORY) and runs the petasset it was built with;
// under `go run` it builds petasset from the checkout first.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agentpet/rules_pet/dev/docgen"
)

func main() {
	write := flag.Bool("write", false, "rewrite the pages instead of checking them")
	root := flag.String("root", "", "the repository root (default: $BUILD_WORKSPACE_DIRECTORY, else the current directory)")
	petasset := flag.String("petasset", "", "the petasset binary whose --help is documented (default: built from ROOT with go build)")
	flag.Parse()
	if err := run(*root, *petasset, *write); err != nil {
		fmt.Fprintf(os.Stderr, "petdocs: %v\n", err)
		os.Exit(1)
	}
}

func run(root, petasset string, write bool) error {
	if petasset != "" {
		// Resolve before anything changes directory: under bazel run the
		// path is relative to the runfiles tree.
		abs, err := filepath.Abs(petasset)
		if err != nil {
			return err
		}
		petasset = abs
	}
	if root == "" {
		root = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if root == "" {
		root = "."
	}
	if _, err := os.Stat(filepath.Join(root, "rules", "defs.bzl")); err != nil {
		return fmt.Errorf("%s is not the rules_pet checkout (no rules/defs.bzl); pass -root", root)
	}
	if petasset == "" {
		dir, err := os.MkdirTemp("", "petdocs")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		petasset = filepath.Join(dir, "petasset")
		build := exec.Command("go", "build", "-o", petasset, "./tools/cmd/petasset")
		build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building petasset: %w", err)
		}
	}
	rules, err := docgen.RulesReference(root)
	if err != nil {
		return err
	}
	cli, err := docgen.CLIReference(func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(petasset, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%w: %s", err, stderr.String())
		}
		return stdout.String(), nil
	})
	if err != nil {
		return err
	}
	pages := []struct {
		page docgen.Page
		text string
	}{{docgen.RulesPage, rules}, {docgen.CLIPage, cli}}
	for _, tab := range docgen.RuleTables {
		text, err := docgen.RuleIDsReference(root, tab)
		if err != nil {
			return err
		}
		pages = append(pages, struct {
			page docgen.Page
			text string
		}{tab.Page, text})
	}
	if write {
		// Every page's markers are checked before any page is written, so
		// a failure leaves both pages as they were.
		for _, p := range pages {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.page.Path)))
			if err != nil {
				return err
			}
			if _, err := docgen.Splice(p.page, string(data), p.text); err != nil {
				return err
			}
		}
	}
	failed := false
	for _, p := range pages {
		if !write {
			if err := docgen.Check(root, p.page, p.text); err != nil {
				fmt.Fprintln(os.Stderr, err)
				failed = true
			}
			continue
		}
		changed, err := docgen.Write(root, p.page, p.text)
		if err != nil {
			return err
		}
		if changed {
			fmt.Printf("updated %s\n", p.page.Path)
		} else {
			fmt.Printf("%s is up to date\n", p.page.Path)
		}
	}
	if failed {
		return fmt.Errorf("a generated reference is out of date")
	}
	return nil
}
