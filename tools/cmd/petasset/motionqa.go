package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/motionqa"
)

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseAround parses flags before and after the single positional
// argument, as `petpack build DIR --out FILE` does.
func parseAround(fsName string, args []string, setup func(*flagSet)) (string, error) {
	fs := newFlags(fsName)
	setup(&flagSet{fs})
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return "", usageError{"want one positional argument"}
	}
	pos := rest[0]
	if err := parseFlags(fs, rest[1:]); err != nil {
		return "", err
	}
	if fs.NArg() != 0 {
		return "", usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return pos, nil
}

// petpackQA audits a package's motion at its authored timing and writes the
// QA directory (report.json, keyframes.png, previews, index.html).
func petpackQA(args []string, stdout io.Writer) error {
	var out, baseline string
	var states multiFlag
	src, err := parseAround("petpack qa", args, func(f *flagSet) {
		f.StringVar(&out, "out", "", "the QA `DIR` (replaced whole)")
		f.StringVar(&baseline, "baseline", "", "the previous revision (`FILE|DIR`): audit only the states it changed")
		f.Var(&states, "state", "audit only this `STATE` (repeatable)")
	})
	if err != nil {
		return err
	}
	if out == "" {
		return usageError{"--out is required"}
	}
	if len(states) > 0 && baseline != "" {
		return usageError{"use --state or --baseline, not both"}
	}
	opt := motionqa.Options{Baseline: baseline}
	for _, s := range states {
		opt.States = append(opt.States, petpack.Action(s))
	}
	res, err := motionqa.Run(src, out, opt)
	if err != nil {
		return rejected{err.Error()}
	}
	fmt.Fprintf(stdout, "%s: %d states audited, %d warnings\n", out, len(res.Audited), res.Warnings)
	return nil
}

// petpackReview writes the review file approving a QA report, one note
// per audited state.
func petpackReview(args []string, stdout io.Writer) error {
	var out, keep string
	var notes multiFlag
	qaDir, err := parseAround("petpack review", args, func(f *flagSet) {
		f.StringVar(&out, "out", "", "the review `FILE` to write")
		f.StringVar(&keep, "keep-notes", "", "an earlier review `FILE` whose notes fill the states without --state-note (rebinding)")
		f.Var(&notes, "state-note", "`STATE=NOTE`, 12 to 500 characters (repeatable)")
	})
	if err != nil {
		return err
	}
	if out == "" {
		return usageError{"--out is required"}
	}
	given := map[string]string{}
	for _, n := range notes {
		i := strings.IndexByte(n, '=')
		if i <= 0 {
			return usageError{fmt.Sprintf("--state-note %q: want STATE=NOTE", n)}
		}
		state := strings.TrimSpace(n[:i])
		if _, dup := given[state]; dup {
			return usageError{fmt.Sprintf("--state-note %s given twice", state)}
		}
		given[state] = n[i+1:]
	}
	var kept map[string]string
	if keep != "" {
		if kept, err = motionqa.ReviewNotes(keep); err != nil {
			return rejected{err.Error()}
		}
	}
	data, err := motionqa.BuildReview(qaDir, given, kept)
	if err != nil {
		return rejected{err.Error()}
	}
	if err := durable.Write(out, data, 0o644); err != nil {
		return rejected{err.Error()}
	}
	fmt.Fprintf(stdout, "%s: review written\n", out)
	return nil
}

// petpackVerifyProduction is the production gate: it prints the
// verification JSON and fails with one line per broken check.
func petpackVerifyProduction(args []string, stdout io.Writer) error {
	fs := newFlags("petpack verify-production")
	var opt motionqa.VerifyOptions
	fs.StringVar(&opt.Source, "source", "", "the package `FILE|DIR`")
	fs.StringVar(&opt.Report, "report", "", "the QA `report.json`")
	fs.StringVar(&opt.Review, "review", "", "the review `FILE`")
	fs.StringVar(&opt.Baseline, "baseline", "", "the previous revision `FILE|DIR`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := required(fs, "source", "report", "review"); err != nil {
		return err
	}
	ver, fails := motionqa.VerifyProduction(opt)
	if _, err := stdout.Write(ver.JSON()); err != nil {
		return err
	}
	if len(fails) > 0 {
		lines := make([]string, len(fails))
		for i, f := range fails {
			lines[i] = f.String()
		}
		return rejected{strings.Join(lines, "\n")}
	}
	if !ver.OK {
		return rejected{errors.New(opt.Source + ": verification not ok").Error()}
	}
	return nil
}

// flagSet narrows flag.FlagSet to what parseAround's callers set up.
type flagSet struct{ *flag.FlagSet }
