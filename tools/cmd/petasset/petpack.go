package main

import (
	"fmt"
	"io"
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
	// The media gate (frame decoding, cover and preview checks) and the
	// metadata documents are not validated yet; say so rather than let
	// "ok" claim them.
	fmt.Fprintf(stdout, "%s: ok: container, paths, budgets, manifest and layout (media gate and metadata not yet checked), %d warnings\n", path, len(v.Warnings))
	return nil
}

// petpackBuild writes the archive of a package directory (validated before
// and after writing) to --out.
func petpackBuild(args []string, stdout io.Writer) error {
	fs := newFlags("petpack build")
	out := fs.String("out", "", "output `FILE`")
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
	v, err := petpackbuild.Build(dir, *out)
	if v != nil {
		for _, f := range v.Warnings {
			fmt.Fprintf(stdout, "%s: warning: %s\n", dir, f)
		}
	}
	if err != nil {
		if v != nil && !v.OK() {
			return rejectedVerdict(dir, v)
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
