package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petpackbuild"
)

// petpackVerify validates a .petpack archive or a package directory and
// prints every error and warning, each as `FILE: PATH: RULE: message`.
func petpackVerify(args []string, stdout io.Writer) error {
	fs := newFlags("petpack verify")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	path, err := oneArg(fs.Args(), "FILE|DIR")
	if err != nil {
		return err
	}
	v := petpack.ValidatePath(path)
	if *asJSON {
		doc := struct {
			OK bool `json:"ok"`
			*petpack.Verdict
		}{v.OK(), v}
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
		if !v.OK() {
			return rejected{fmt.Sprintf("%s: %d errors", path, len(v.Errors))}
		}
		return nil
	}
	for _, f := range v.Warnings {
		fmt.Fprintf(stdout, "%s: warning: %s\n", path, f)
	}
	if !v.OK() {
		return rejectedVerdict(path, v)
	}
	fmt.Fprintf(stdout, "%s: ok, %d warnings\n", path, len(v.Warnings))
	return nil
}

// petpackBuild writes the archive of a package directory to --out: the
// previews it lacks are made from its frames, build/validation.json from the
// verdict, and the archive is validated again on disk before it is renamed
// into place.
func petpackBuild(args []string, stdout io.Writer) error {
	fs := newFlags("petpack build")
	out := fs.String("out", "", "output `FILE`")
	cover := fs.String("cover-frame", "", "package `PATH` of the frame cover.png is made from when DIR has none (default: idle's reduced-motion frame)")
	// The documented form puts DIR first (`petpack build DIR --out FILE`),
	// so parse the flags on either side of it.
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return usageError{"want a package DIR"}
	}
	dir := rest[0]
	if err := parseFlags(fs, rest[1:]); err != nil {
		return err
	}
	if err := required(fs, "out"); err != nil {
		return err
	}
	res, err := petpackbuild.Build(dir, *out, petpackbuild.Options{CoverFrame: *cover})
	return reportBuild(dir, res, err, stdout)
}

// petpackAssemble writes the archive of the package a spec describes (the
// petpack_archive rule's action): the spec names each input file and the
// tool decides its package path, so the inputs can stay the symbolic links
// a Bazel sandbox makes of them.
func petpackAssemble(args []string, stdout io.Writer) error {
	fs := newFlags("petpack assemble")
	specPath := fs.String("spec", "", "the package spec `FILE` (JSON)")
	out := fs.String("out", "", "output `FILE`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(fs.Args()) != 0 {
		return usageError{"unexpected argument " + fs.Args()[0]}
	}
	if err := required(fs, "spec", "out"); err != nil {
		return err
	}
	data, err := os.ReadFile(*specPath)
	if err != nil {
		return rejected{err.Error()}
	}
	spec, err := petpackbuild.ParseSpec(data)
	if err != nil {
		return rejected{fmt.Sprintf("%s: %v", *specPath, err)}
	}
	res, err := petpackbuild.BuildSpec(spec, os.ReadFile, *out)
	if res != nil && res.Verdict != nil {
		// The entries were renamed on the way in; say which input each
		// finding is about.
		from := map[string]string{}
		for _, f := range res.Files {
			if f.From != "" {
				from[f.Path] = f.From
			}
		}
		for _, list := range [][]petpack.Finding{res.Verdict.Errors, res.Verdict.Warnings} {
			for i := range list {
				if src, ok := from[list[i].Path]; ok {
					list[i].Msg += " (input " + src + ")"
				}
			}
		}
	}
	return reportBuild(*out, res, err, stdout)
}

// petpackDiff exits 0 when two archives are byte-identical and otherwise
// names the first differing entry: the golden test's comparison.
func petpackDiff(args []string, stdout io.Writer) error {
	fs := newFlags("petpack diff")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError{"want GOT and WANT"}
	}
	gotPath, wantPath := fs.Arg(0), fs.Arg(1)
	got, err := os.ReadFile(gotPath)
	if err != nil {
		return rejected{err.Error()}
	}
	want, err := os.ReadFile(wantPath)
	if err != nil {
		return rejected{err.Error()}
	}
	if d := petpackbuild.FirstDifference(got, want); d != "" {
		return rejected{fmt.Sprintf("%s differs from %s: %s", gotPath, wantPath, d)}
	}
	return nil
}

// reportBuild prints a writer's warnings and turns its failure into the
// verdict's error lines, or the error itself when no verdict explains it.
func reportBuild(where string, res *petpackbuild.Result, err error, stdout io.Writer) error {
	if res != nil && res.Verdict != nil {
		for _, f := range res.Verdict.Warnings {
			fmt.Fprintf(stdout, "%s: warning: %s\n", where, f)
		}
	}
	if err != nil {
		if res != nil && res.Verdict != nil && !res.Verdict.OK() {
			return rejectedVerdict(where, res.Verdict)
		}
		return rejected{err.Error()}
	}
	return nil
}

// rejectedVerdict is every error of v, one `WHERE: PATH: RULE: message` line each.
func rejectedVerdict(where string, v *petpack.Verdict) error {
	lines := make([]string, len(v.Errors))
	for i, f := range v.Errors {
		lines[i] = fmt.Sprintf("%s: %s", where, f)
	}
	return rejected{strings.Join(lines, "\n")}
}
