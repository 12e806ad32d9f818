// Package bundleseed is the command a pet_bundle rule's <name>_seed binary
// runs: it seeds a store with the build's closed bundled inventory, which
// is compiled into that binary and nowhere else (the generic petasset
// command has no seed verb).
package bundleseed

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/runtime/library"
)

// Main parses `--root ROOT [--from DIR]`, seeds and exits: 0 when every
// pet is seeded (or left alone as the contract says), 1 when the seed is
// refused or fails, 2 for a usage error. workspace and dir locate the
// archives in the binary's runfiles when --from is not given.
func Main(inventory []library.BundledPet, workspace, dir string) {
	os.Exit(Run(os.Args[1:], inventory, workspace, dir, os.Stdout, os.Stderr))
}

// Run is Main without the process.
func Run(args []string, inventory []library.BundledPet, workspace, dir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the store's root `DIR`")
	from := fs.String("from", "", "the `DIR` holding exactly the inventory's <id>.petpack files (default: the binary's runfiles)")
	if err := fs.Parse(args); err != nil || *root == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: seed --root ROOT [--from DIR]")
		return 2
	}
	src := *from
	if src == "" {
		var err error
		if src, err = runfilesDir(workspace, dir); err != nil {
			fmt.Fprintf(stderr, "seed: %v\n", err)
			return 1
		}
	}
	ids := make([]string, len(inventory))
	for i, p := range inventory {
		ids[i] = p.ID
	}
	s, err := library.Open(*root, library.Options{Bundled: ids})
	if err != nil {
		fmt.Fprintf(stderr, "seed: %v\n", err)
		return 1
	}
	defer s.Close()
	res, err := s.Seed(inventory, src)
	for _, r := range res {
		fmt.Fprintf(stdout, "%s: %s, revision %d\n", r.ID, r.Action, r.Revision)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// runfilesDir finds the archives the seed binary carries. Bazel's
// runfiles hold links to them; the directory they link into, the build's
// real copy, is what is seeded from, so the seed's no-links rule still
// holds for the files themselves.
func runfilesDir(workspace, dir string) (string, error) {
	var candidates []string
	if r := os.Getenv("RUNFILES_DIR"); r != "" {
		candidates = append(candidates, filepath.Join(r, workspace, dir))
	}
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(exe+".runfiles", workspace, dir))
	}
	candidates = append(candidates, dir) // `bazel run` starts in the runfiles' workspace directory
	for _, c := range candidates {
		entries, err := os.ReadDir(c)
		if err != nil {
			continue
		}
		real := ""
		for _, e := range entries {
			p, err := filepath.EvalSymlinks(filepath.Join(c, e.Name()))
			if err != nil {
				return "", err
			}
			if d := filepath.Dir(p); real == "" {
				real = d
			} else if d != real {
				return "", fmt.Errorf("%s: the archives link into more than one directory", c)
			}
		}
		if real == "" {
			real = c
		}
		return real, nil
	}
	return "", errors.New("the bundled archives are not in the runfiles; pass --from DIR")
}
