// Command petasset checks, builds and inspects pet presentation assets (the
// `manifest pet 1` text manifest, the runtime asset set, the PETP embedded
// pack) and checks `.petpack` V3 packages. It is the tool the Bazel rules
// run and the one a person runs by hand; see the README for every form.
//
// Exit status: 0 when the input is accepted, 1 when it is rejected (the
// reason on stderr as `FILE:LINE: RULE: message` or `FILE: RULE: message`),
// 2 for a usage error, 3 for a failure worth retrying (the library store
// busy, an I/O error such as a full disk). On success it prints at most a
// one-line summary, or with --json only the JSON document.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/agentpet/rules_pet/runtime/library"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// version is the module version, held equal to MODULE.bazel's by a test.
const version = "0.1.0"

// contracts names the contract versions the tool implements.
var contracts = []string{
	"manifest: pet asset manifest v1 (manifest pet 1)",
	"pack: pet embedded asset pack v1 (PETP format 1)",
	"petpack: " + petpack.SchemaVersion,
}

// Exit codes, the same for every command.
const (
	exitOK       = 0
	exitRejected = 1
	exitUsage    = 2
	exitRetry    = 3
)

const exitHelp = `exit status: 0 ok; 1 invalid input (rejected, reason on stderr); 2 usage error;
  3 failure worth retrying (library store busy, I/O error)
`

// usageError is a command line the tool does not understand.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// helpRequested is returned by a command's flag parsing for -h/--help; it
// carries the flag set so the help can list the flags.
type helpRequested struct{ fs *flag.FlagSet }

func (helpRequested) Error() string { return "help requested" }

// rejected is an input the tool read and refused; its text is already in
// the `FILE:...: RULE: message` form.
type rejected struct{ msg string }

func (e rejected) Error() string { return e.msg }

type command struct {
	group, verb string
	// args is the synopsis after the verb; summary the one-line description.
	args, summary string
	run           func(args []string, stdout io.Writer) error
}

// groups are the command groups in usage order, with their descriptions.
var groups = []struct{ name, summary string }{
	{"manifest", "check and dump `manifest pet 1` text manifests"},
	{"assets", "check a runtime asset directory"},
	{"pack", "build, check and inspect PETP embedded packs"},
	{"petpack", "build, check, inspect, audit and play .petpack V3 archives"},
	{"library", "the desktop pet library store (import, list, activate, export ...)"},
	{"desktop", "control a running desktop pet"},
}

var commands = []command{
	{"manifest", "check", "[--stamp OUT] [--copy OUT] [--declared PATH]... FILE", "validate a manifest; optionally write a stamp or its runtime copy", manifestCheck},
	{"manifest", "dump", "FILE", "print a manifest as JSON", manifestDump},
	{"assets", "check", "DIR", "load DIR/manifest.petasset and open every image it names, as a frontend would", assetsCheck},
	{"pack", "build", "--manifest FILE --out FILE [--warnings OUT] [--declared PATH]...", "convert a manifest and its sprites to a PETP pack", packBuild},
	{"pack", "verify", "FILE", "check a PETP pack against every acceptance rule", packVerify},
	{"pack", "inspect", "[--json] FILE", "print a PETP pack's regions, images, animations and roles", packInspect},
	{"pack", "diff", "GOT WANT", "exit 0 when two packs are identical, else name the first differing region", packDiff},
	{"pack", "cc", "--pack FILE --symbol NAME --header OUT.h --source OUT.c --include PATH", "write a pack as a C array", packCC},
	{"petpack", "verify", "[--json] FILE|DIR", "validate a .petpack archive or package directory", petpackVerify},
	{"petpack", "inspect", "[--json] FILE|DIR", "print a .petpack's entries, states, durations and warnings", petpackInspect},
	{"petpack", "build", "DIR --out FILE [--cover-frame PATH]", "write the archive of a package directory", petpackBuild},
	{"petpack", "assemble", "--spec FILE --out FILE", "write the archive a package spec describes (the petpack_archive action)", petpackAssemble},
	{"petpack", "diff", "GOT WANT", "exit 0 when two archives are identical, else name the first differing entry", petpackDiff},
	{"petpack", "qa", "FILE|DIR --out DIR [--state STATE]... [--baseline FILE|DIR]", "audit a package's motion and write the QA directory", petpackQA},
	{"petpack", "review", "QA_DIR --out FILE [--state-note STATE=NOTE]... [--keep-notes FILE]", "write the review file approving a QA report", petpackReview},
	{"petpack", "verify-production", "--source FILE|DIR --report FILE --review FILE [--baseline FILE|DIR]", "the production gate: print the verification JSON, fail on a broken check", petpackVerifyProduction},
	{"petpack", "play", "PET.petpack --script SCRIPT.jsonl [--seed N]", "play a script of events on a pet and print one JSON line per visible change", petpackPlay},
	{"library", "import", "--root ROOT ARCHIVE [--expect-absent] [--base-revision R --base-digest D]", "install an archive as a pet's next revision", libraryImport},
	{"library", "list", "--root ROOT [--json]", "list the installed and quarantined pets", libraryList},
	{"library", "show", "--root ROOT [--json] ID", "print one pet's record", libraryShow},
	{"library", "revisions", "--root ROOT [--json] ID", "list a pet's revisions", libraryRevisions},
	{"library", "activate", "--root ROOT ID", "make a pet the active one", libraryActivate},
	{"library", "current", "--root ROOT --revision R ID", "make revision R a pet's current revision", libraryCurrent},
	{"library", "delete", "--root ROOT ID", "delete a pet and all its revisions", libraryDelete},
	{"library", "export", "--root ROOT [--revision R] ID DEST", "copy a pet's archive out of the store", libraryExport},
	{"desktop", "send", "[--id ID] EVENT|role NAME|bubble TEXT|bubble --clear|reduce-motion on|off", "send one control message to a running desktop pet (EVENT: start, thinking, plan, tool, waiting, done, failed)", desktopSend},
}

// topUsage is the top-level usage: every command with its synopsis.
func topUsage() string {
	var b strings.Builder
	b.WriteString("usage: petasset GROUP COMMAND [ARGS] (flags may follow the arguments)\n")
	b.WriteString("       petasset --help | --version | GROUP --help | GROUP COMMAND --help\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  petasset %s %s %s\n", c.group, c.verb, c.args)
	}
	b.WriteString("\n" + exitHelp)
	return b.String()
}

// groupUsage lists a group's commands with their descriptions.
func groupUsage(group, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: petasset %s COMMAND [ARGS]\n\n%s\n\ncommands:\n", group, summary)
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, c := range commands {
		if c.group == group {
			fmt.Fprintf(w, "  %s\t%s\n", c.verb, c.summary)
		}
	}
	w.Flush()
	fmt.Fprintf(&b, "\nRun petasset %s COMMAND --help for a command's arguments and flags.\n", group)
	return b.String()
}

// commandUsage is one command's help: synopsis, description, flags (in
// name order, as --name) and the exit codes.
func commandUsage(c command, fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: petasset %s %s %s\n\n%s\n", c.group, c.verb, c.args, c.summary)
	if fs != nil {
		first := true
		fs.VisitAll(func(f *flag.Flag) {
			if first {
				b.WriteString("\nflags:\n")
				first = false
			}
			name, use := flag.UnquoteUsage(f)
			if name != "" {
				name = " " + name
			}
			fmt.Fprintf(&b, "  --%s%s\n      %s\n", f.Name, name, use)
		})
	}
	b.WriteString("\n" + exitHelp)
	return b.String()
}

func versionText() string {
	return "petasset " + version + " (rules_pet " + version + ")\ncontracts:\n  " + strings.Join(contracts, "\n  ") + "\n"
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// wantsHelp reports a help flag among a command's arguments (before a
// "--" that ends the flags).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

func main() {
	if err := enterWorkingDir(); err != nil {
		fmt.Fprintf(os.Stderr, "petasset: %v\n", err)
		os.Exit(exitRetry)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// enterWorkingDir makes relative paths mean what the user typed under
// `bazel run`, which starts the tool in its runfiles tree and names the
// user's directory in BUILD_WORKING_DIRECTORY. The tool reads no runfiles,
// so changing directory is the whole fix for every path argument at once.
func enterWorkingDir() error {
	dir := os.Getenv("BUILD_WORKING_DIRECTORY")
	if dir == "" {
		return nil
	}
	if err := os.Chdir(dir); err != nil {
		return fmt.Errorf("BUILD_WORKING_DIRECTORY: %w", err)
	}
	return nil
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, topUsage())
		return exitUsage
	}
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprint(stdout, topUsage())
		return exitOK
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Fprint(stdout, versionText())
		return exitOK
	}
	if args[0] == "help" {
		// `petasset help GROUP [COMMAND]` is `petasset GROUP [COMMAND] --help`.
		args = append(args[1:], "--help")
	}
	args = libraryArgs(args)
	groupSummary := ""
	for _, g := range groups {
		if g.name == args[0] {
			groupSummary = g.summary
		}
	}
	if groupSummary == "" {
		fmt.Fprintf(stderr, "petasset: unknown command %q\n%s", args[0], topUsage())
		return exitUsage
	}
	var c *command
	if len(args) > 1 {
		for i := range commands {
			if commands[i].group == args[0] && commands[i].verb == args[1] {
				c = &commands[i]
			}
		}
	}
	if c == nil {
		if wantsHelp(args[1:]) {
			fmt.Fprint(stdout, groupUsage(args[0], groupSummary))
			return exitOK
		}
		if len(args) == 1 {
			fmt.Fprintf(stderr, "petasset %s: want a command\n%s", args[0], groupUsage(args[0], groupSummary))
		} else {
			fmt.Fprintf(stderr, "petasset: unknown command %q\n%s", args[0]+" "+args[1], groupUsage(args[0], groupSummary))
		}
		return exitUsage
	}
	if wantsHelp(args[2:]) {
		// Every command parses its flags before anything else, so a lone
		// --help stops there and hands back the flag set to describe.
		var fs *flag.FlagSet
		var h helpRequested
		if err := c.run([]string{"--help"}, io.Discard); errors.As(err, &h) {
			fs = h.fs
		}
		fmt.Fprint(stdout, commandUsage(*c, fs))
		return exitOK
	}
	err := c.run(args[2:], stdout)
	code := exitCode(err)
	switch {
	case err == nil:
	case code == exitUsage:
		fmt.Fprintf(stderr, "petasset %s %s: %v\nusage: petasset %s %s %s\nRun petasset %s %s --help for more.\n", c.group, c.verb, err, c.group, c.verb, c.args, c.group, c.verb)
	case errors.As(err, new(rejected)):
		fmt.Fprintln(stderr, err)
	default:
		fmt.Fprintf(stderr, "petasset %s %s: %v\n", c.group, c.verb, err)
	}
	return code
}

// exitCode maps a command's error to the exit status: usage errors 2,
// failures a retry may cure (the store's lock held by another process,
// an I/O error of the machine rather than of the input) 3, every other
// failure 1.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, new(usageError)), errors.As(err, new(helpRequested)):
		return exitUsage
	case errors.As(err, new(rejected)):
		return exitRejected
	case errors.Is(err, library.ErrBusy), retryableIO(err):
		return exitRetry
	}
	return exitRejected
}

// retryableIO reports an operating-system error that says nothing about
// the input: a device error, a full disk or quota, exhausted descriptors
// or memory, an interrupted or would-block call. A missing or unreadable
// file is the input's fault and stays exit 1.
func retryableIO(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	for _, e := range retryableErrnos {
		if errno == e {
			return true
		}
	}
	return false
}

// oneArg returns the single positional argument of a command.
func oneArg(args []string, what string) (string, error) {
	if len(args) != 1 || len(args[0]) > 0 && args[0][0] == '-' {
		return "", usageError{fmt.Sprintf("want exactly one %s argument", what)}
	}
	return args[0], nil
}

// retryableErrnos are the operating-system errors retryableIO treats as
// the machine's, not the input's.
var retryableErrnos = []syscall.Errno{
	syscall.EIO, syscall.ENOSPC, syscall.EDQUOT, syscall.EAGAIN, syscall.EINTR,
	syscall.EBUSY, syscall.ENFILE, syscall.EMFILE, syscall.ENOMEM, syscall.ETIMEDOUT,
}
