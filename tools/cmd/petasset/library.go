package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agentpet/rules_pet/runtime/library"
)

// libraryOptions configure every store the library verbs open; tests set
// a hook here to pause or fail a child process at a named step.
var libraryOptions library.Options

// libraryArgs moves a --root given before the verb (`library --root R
// import ...`) after it, so the verb is always args[1] for the command
// table.
func libraryArgs(args []string) []string {
	if len(args) < 3 || args[0] != "library" {
		return args
	}
	var front []string
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if strings.Contains(args[i], "=") {
			front = append(front, args[i])
			i++
			continue
		}
		if i+1 >= len(args) {
			return args
		}
		front = append(front, args[i], args[i+1])
		i += 2
	}
	if i >= len(args) || len(front) == 0 {
		return args
	}
	out := append([]string{"library", args[i]}, front...)
	return append(out, args[i+1:]...)
}

// libraryCommand parses a verb's flags (with --root), checks its number of
// positional arguments, opens the store and runs f.
func libraryCommand(name string, args []string, nargs int, what string, define func(fs *flag.FlagSet), f func(s *library.Store, pos []string) error) error {
	fs := newFlags("library " + name)
	root := fs.String("root", "", "the store's root `DIR`")
	if define != nil {
		define(fs)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	pos := fs.Args()
	if *root == "" {
		return usageError{"--root is required"}
	}
	if len(pos) != nargs {
		return usageError{fmt.Sprintf("want %s", what)}
	}
	s, err := library.Open(*root, libraryOptions)
	if err != nil {
		return libraryError(err)
	}
	defer s.Close()
	return libraryError(f(s, pos))
}

// libraryError turns a rejected archive into the usual
// `FILE: PATH: RULE: message` lines; other errors print as they are.
func libraryError(err error) error {
	var re *library.RejectedError
	if errors.As(err, &re) {
		return rejectedVerdict(re.Path, re.Verdict)
	}
	return err
}

func libraryImport(args []string, stdout io.Writer) error {
	var opt library.ImportOptions
	return libraryCommand("import", args, 1, "one ARCHIVE", func(fs *flag.FlagSet) {
		fs.BoolVar(&opt.ExpectAbsent, "expect-absent", false, "fail if the ID is installed")
		fs.IntVar(&opt.BaseRevision, "base-revision", 0, "the edit's base `REVISION`")
		fs.StringVar(&opt.BaseDigest, "base-digest", "", "the edit's base `SHA256`")
	}, func(s *library.Store, pos []string) error {
		p, err := s.Import(pos[0], opt)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: revision %d, sha256 %s%s\n", p.ID, p.Revision, p.Digest, activeMark(p.Active))
		return nil
	})
}

func activeMark(active bool) string {
	if active {
		return ", active"
	}
	return ""
}

func libraryList(args []string, stdout io.Writer) error {
	var asJSON bool
	return libraryCommand("list", args, 0, "no arguments", func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	}, func(s *library.Store, _ []string) error {
		pets, quar, err := s.List()
		if err != nil {
			return err
		}
		if asJSON {
			if pets == nil {
				pets = []library.Pet{}
			}
			if quar == nil {
				quar = []library.Quarantined{}
			}
			return writeJSON(stdout, struct {
				Pets        []library.Pet         `json:"pets"`
				Quarantined []library.Quarantined `json:"quarantined"`
			}{pets, quar})
		}
		for _, p := range pets {
			mark := " "
			if p.Active {
				mark = "*"
			}
			fmt.Fprintf(stdout, "%s %s\trevision %d\t%s\t%s\n", mark, p.ID, p.Revision, p.Origin, p.Name)
		}
		if len(quar) > 0 {
			fmt.Fprintln(stdout, "quarantined:")
			for _, q := range quar {
				fmt.Fprintf(stdout, "  %s\t%s\t%s\n", q.ID, q.Name, q.Reason)
			}
		}
		return nil
	})
}

func libraryShow(args []string, stdout io.Writer) error {
	var asJSON bool
	return libraryCommand("show", args, 1, "one ID", func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	}, func(s *library.Store, pos []string) error {
		p, err := s.Show(pos[0])
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(stdout, p)
		}
		fmt.Fprintf(stdout, "id: %s\nname: %s\nstyle: %s\nquality: %s\norigin: %s\ngenerator: %s\nprovenance: %s\nactive: %v\nrevision: %d\npetpack_sha256: %s\ncreated_at: %s\nupdated_at: %s\nstates: %s\n",
			p.ID, p.Name, p.Style, p.Quality, p.Origin, p.Generator, p.Provenance, p.Active, p.Revision, p.Digest, p.CreatedAt, p.UpdatedAt, strings.Join(p.States, " "))
		return nil
	})
}

func libraryRevisions(args []string, stdout io.Writer) error {
	var asJSON bool
	return libraryCommand("revisions", args, 1, "one ID", func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	}, func(s *library.Store, pos []string) error {
		revs, err := s.Revisions(pos[0])
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(stdout, revs)
		}
		for _, r := range revs {
			cur := ""
			if r.Current {
				cur = "\tcurrent"
			}
			fmt.Fprintf(stdout, "%d\t%s\t%d bytes\t%s%s\n", r.Revision, r.Digest, r.Size, r.InstalledAt, cur)
		}
		return nil
	})
}

func libraryActivate(args []string, stdout io.Writer) error {
	return libraryCommand("activate", args, 1, "one ID", nil, func(s *library.Store, pos []string) error {
		if err := s.Activate(pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: active\n", pos[0])
		return nil
	})
}

func libraryCurrent(args []string, stdout io.Writer) error {
	var rev int
	return libraryCommand("current", args, 1, "one ID and --revision R", func(fs *flag.FlagSet) {
		fs.IntVar(&rev, "revision", 0, "the `REVISION` to make current")
	}, func(s *library.Store, pos []string) error {
		if rev < 1 {
			return usageError{"--revision R (1 or more) is required"}
		}
		p, err := s.SetCurrent(pos[0], rev)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: revision %d, sha256 %s\n", p.ID, p.Revision, p.Digest)
		return nil
	})
}

func libraryDelete(args []string, stdout io.Writer) error {
	return libraryCommand("delete", args, 1, "one ID", nil, func(s *library.Store, pos []string) error {
		if err := s.Delete(pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: deleted\n", pos[0])
		return nil
	})
}

func libraryExport(args []string, stdout io.Writer) error {
	var rev int
	return libraryCommand("export", args, 2, "ID and DEST", func(fs *flag.FlagSet) {
		fs.IntVar(&rev, "revision", 0, "the `REVISION` to export (default: the current one)")
	}, func(s *library.Store, pos []string) error {
		if err := s.Export(pos[0], pos[1], rev); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: exported to %s\n", pos[0], pos[1])
		return nil
	})
}
