// Command petasset checks, builds and inspects pet presentation assets (the
// `manifest pet 1` text manifest, the runtime asset set, the PETP embedded
// pack) and checks `.petpack` V3 packages. It is the tool the Bazel rules
// run and the one a person runs by hand; see the README for every form.
//
// Exit status: 0 when the input is accepted, 1 when it is rejected (the
// reason on stderr as `FILE:LINE: RULE: message` or `FILE: RULE: message`),
// 2 for a usage error. On success it prints at most a one-line summary.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  petasset manifest check [--stamp OUT] [--copy OUT] [--declared PATH]... FILE
  petasset manifest dump FILE
  petasset assets check DIR
  petasset pack build --manifest FILE --out FILE [--warnings OUT] [--declared PATH]...
  petasset pack verify FILE
  petasset pack inspect [--json] FILE
  petasset pack diff GOT WANT
  petasset pack cc --pack FILE --symbol NAME --header OUT.h --source OUT.c --include PATH
  petasset petpack verify [--json] FILE|DIR
  petasset petpack build DIR --out FILE [--cover-frame PATH]
  petasset petpack assemble --spec FILE --out FILE
  petasset petpack diff GOT WANT
  petasset petpack play PET.petpack --script SCRIPT.jsonl [--seed N]
  petasset library --root ROOT import ARCHIVE [--expect-absent] [--base-revision R --base-digest D]
  petasset library --root ROOT list|show ID|revisions ID [--json]
  petasset library --root ROOT activate ID | current ID --revision R | delete ID
  petasset library --root ROOT export ID DEST [--revision R]
`

// exit codes
const (
	exitOK       = 0
	exitRejected = 1
	exitUsage    = 2
)

// usageError is a command line the tool does not understand.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// rejected is an input the tool read and refused; its text is already in
// the `FILE:...: RULE: message` form.
type rejected struct{ msg string }

func (e rejected) Error() string { return e.msg }

type command struct {
	group, verb string
	run         func(args []string, stdout io.Writer) error
}

var commands = []command{
	{"manifest", "check", manifestCheck},
	{"manifest", "dump", manifestDump},
	{"assets", "check", assetsCheck},
	{"pack", "build", packBuild},
	{"pack", "verify", packVerify},
	{"pack", "inspect", packInspect},
	{"pack", "diff", packDiff},
	{"pack", "cc", packCC},
	{"petpack", "verify", petpackVerify},
	{"petpack", "build", petpackBuild},
	{"petpack", "assemble", petpackAssemble},
	{"petpack", "diff", petpackDiff},
	{"petpack", "qa", petpackQA},
	{"petpack", "review", petpackReview},
	{"petpack", "verify-production", petpackVerifyProduction},
	{"petpack", "play", petpackPlay},
	{"library", "import", libraryImport},
	{"library", "list", libraryList},
	{"library", "show", libraryShow},
	{"library", "revisions", libraryRevisions},
	{"library", "activate", libraryActivate},
	{"library", "current", libraryCurrent},
	{"library", "delete", libraryDelete},
	{"library", "export", libraryExport},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	args = libraryArgs(args)
	for _, c := range commands {
		if c.group == args[0] && c.verb == args[1] {
			err := c.run(args[2:], stdout)
			switch err.(type) {
			case nil:
				return exitOK
			case usageError:
				fmt.Fprintf(stderr, "petasset %s %s: %v\n%s", c.group, c.verb, err, usage)
				return exitUsage
			case rejected:
				fmt.Fprintln(stderr, err)
				return exitRejected
			default:
				fmt.Fprintf(stderr, "petasset %s %s: %v\n", c.group, c.verb, err)
				return exitRejected
			}
		}
	}
	fmt.Fprintf(stderr, "petasset: unknown command %q\n%s", args[0]+" "+args[1], usage)
	return exitUsage
}

// oneArg returns the single positional argument of a command.
func oneArg(args []string, what string) (string, error) {
	if len(args) != 1 || len(args[0]) > 0 && args[0][0] == '-' {
		return "", usageError{fmt.Sprintf("want exactly one %s argument", what)}
	}
	return args[0], nil
}
