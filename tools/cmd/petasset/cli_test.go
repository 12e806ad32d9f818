package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/library"
)

// TestHelp: every group and command answers --help (anywhere among its
// arguments, or as `petasset help ...`) with its own usage on stdout, exit
// 0 and nothing on stderr, and the top-level usage lists every command.
func TestHelp(t *testing.T) {
	code, top, stderr := runCLI("--help")
	if code != exitOK || stderr != "" {
		t.Fatalf("--help: exit %d, stderr %q", code, stderr)
	}
	for _, c := range commands {
		line := fmt.Sprintf("  petasset %s %s %s\n", c.group, c.verb, c.args)
		if !strings.Contains(top, line) {
			t.Errorf("top-level usage lacks %q", line)
		}
		for _, args := range [][]string{
			{c.group, c.verb, "--help"},
			{c.group, c.verb, "-h"},
			{c.group, c.verb, "FILE", "--help"},
			{"help", c.group, c.verb},
		} {
			code, stdout, stderr := runCLI(args...)
			want := fmt.Sprintf("usage: petasset %s %s %s\n\n%s\n", c.group, c.verb, c.args, c.summary)
			if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "exit status: 0 ok; 1 invalid input") {
				t.Errorf("%v: exit %d, stderr %q, stdout %q; want 0, prefix %q", args, code, stderr, stdout, want)
			}
		}
	}
	for _, g := range groups {
		for _, args := range [][]string{{g.name, "--help"}, {"help", g.name}} {
			code, stdout, stderr := runCLI(args...)
			if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: petasset "+g.name+" COMMAND") {
				t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, stderr, stdout)
			}
			for _, c := range commands {
				if c.group == g.name && !strings.Contains(stdout, "  "+c.verb+" ") {
					t.Errorf("%v does not list %s", args, c.verb)
				}
			}
		}
		// A group without a command is a usage error that shows the group.
		code, _, stderr := runCLI(g.name)
		if code != exitUsage || !strings.Contains(stderr, "usage: petasset "+g.name+" COMMAND") {
			t.Errorf("%s alone: exit %d, stderr %q", g.name, code, stderr)
		}
	}
}

var flagInSynopsis = regexp.MustCompile(`--([a-z][a-z-]*)`)
var flagInHelp = regexp.MustCompile(`(?m)^  --([a-z][a-z-]*)`)

// TestHelpFlagsMatchSynopsis: the flags a command's help lists are
// exactly the flags its synopsis names, so neither the top-level usage nor
// the generated reference can omit or invent one.
func TestHelpFlagsMatchSynopsis(t *testing.T) {
	for _, c := range commands {
		_, stdout, _ := runCLI(c.group, c.verb, "--help")
		var inHelp, inSynopsis []string
		for _, m := range flagInHelp.FindAllStringSubmatch(stdout, -1) {
			inHelp = append(inHelp, m[1])
		}
		seen := map[string]bool{}
		for _, m := range flagInSynopsis.FindAllStringSubmatch(c.args, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				inSynopsis = append(inSynopsis, m[1])
			}
		}
		sort.Strings(inSynopsis)
		if strings.Join(inHelp, " ") != strings.Join(inSynopsis, " ") {
			t.Errorf("%s %s: help lists flags %v, synopsis %q names %v", c.group, c.verb, inHelp, c.args, inSynopsis)
		}
	}
}

var moduleVersion = regexp.MustCompile(`(?s)module\(\s*name = "rules_pet",\s*version = "([^"]+)"`)

func TestVersion(t *testing.T) {
	data, err := os.ReadFile("../../../MODULE.bazel")
	if err != nil {
		t.Fatal(err)
	}
	m := moduleVersion.FindSubmatch(data)
	if m == nil {
		t.Fatal("MODULE.bazel: no module(name = \"rules_pet\", version = ...)")
	}
	if string(m[1]) != version {
		t.Errorf("petasset version %q, MODULE.bazel version %q", version, m[1])
	}
	code, stdout, stderr := runCLI("--version")
	if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "petasset "+version+" ") {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, c := range []string{"manifest pet 1", "PETP format 1", "apc.petpack.v3"} {
		if !strings.Contains(stdout, c) {
			t.Errorf("--version does not name contract %q: %q", c, stdout)
		}
	}
}

// TestExitCodes holds each command to the documented codes: 2 for a
// usage error, 1 for an input it rejects. The retryable code 3 has its
// own tests below (a busy store, a full disk).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	notZip := write(t, filepath.Join(dir, "x.petpack"), "not a zip")
	root := filepath.Join(dir, "store")
	// desktop send finds no pet in a runtime directory of the test's own.
	t.Setenv("XDG_RUNTIME_DIR", shortTempDir(t))
	usage := map[string][]string{
		"manifest check":            {"--nope"},
		"manifest dump":             {},
		"assets check":              {"a", "b"},
		"pack build":                {"--manifest", missing},
		"pack verify":               {},
		"pack inspect":              {"--json"},
		"pack diff":                 {missing},
		"pack cc":                   {"--pack", missing},
		"petpack verify":            {"--jsonx", notZip},
		"petpack inspect":           {},
		"petpack build":             {},
		"petpack assemble":          {"--out", missing},
		"petpack diff":              {notZip},
		"petpack qa":                {notZip},
		"petpack review":            {dir},
		"petpack verify-production": {"--source", notZip},
		"petpack play":              {notZip},
		"library import":            {"--root", root},
		"library list":              {},
		"library show":              {"--root", root},
		"library revisions":         {"--root", root, "a", "b"},
		"library activate":          {"--root", root},
		"library current":           {"--root", root, "pet_a"},
		"library delete":            {"--root", root},
		"library export":            {"--root", root, "pet_a"},
		"desktop send":              {"--idx", "pet_a", "done"},
	}
	invalid := map[string][]string{
		"manifest check":            {missing},
		"manifest dump":             {missing},
		"assets check":              {dir},
		"pack build":                {"--manifest", missing, "--out", filepath.Join(dir, "p.pack")},
		"pack verify":               {notZip},
		"pack inspect":              {notZip},
		"pack diff":                 {notZip, missing},
		"pack cc":                   {"--pack", notZip, "--symbol", "p", "--header", filepath.Join(dir, "p.h"), "--source", filepath.Join(dir, "p.c"), "--include", "p.h"},
		"petpack verify":            {notZip},
		"petpack inspect":           {notZip},
		"petpack build":             {missing, "--out", filepath.Join(dir, "b.petpack")},
		"petpack assemble":          {"--spec", missing, "--out", filepath.Join(dir, "a.petpack")},
		"petpack diff":              {notZip, missing},
		"petpack qa":                {notZip, "--out", filepath.Join(dir, "qa")},
		"petpack review":            {missing, "--out", filepath.Join(dir, "review.json")},
		"petpack verify-production": {"--source", notZip, "--report", missing, "--review", missing},
		"petpack play":              {notZip, "--script", missing},
		"library import":            {"--root", root, notZip},
		"library list":              {"--root", notZip},
		"library show":              {"--root", root, "pet_nope"},
		"library revisions":         {"--root", root, "pet_nope"},
		"library activate":          {"--root", root, "pet_nope"},
		"library current":           {"--root", root, "pet_nope", "--revision", "1"},
		"library delete":            {"--root", root, "pet_nope"},
		"library export":            {"--root", root, "pet_nope", filepath.Join(dir, "e.petpack")},
		"desktop send":              {"--id", "pet_nope", "done"},
	}
	for _, c := range commands {
		name := c.group + " " + c.verb
		u, ok := usage[name]
		if !ok {
			t.Errorf("%s: no usage-error case", name)
		}
		if code, _, stderr := runCLI(append([]string{c.group, c.verb}, u...)...); code != exitUsage || !strings.Contains(stderr, "usage: petasset "+name) {
			t.Errorf("%s %q: exit %d (want 2), stderr %q", name, u, code, stderr)
		}
		in, ok := invalid[name]
		if !ok {
			t.Errorf("%s: no invalid-input case", name)
		}
		if code, _, stderr := runCLI(append([]string{c.group, c.verb}, in...)...); code != exitRejected || stderr == "" || strings.Contains(stderr, "usage:") {
			t.Errorf("%s %q: exit %d (want 1), stderr %q", name, in, code, stderr)
		}
	}
	if code, _, _ := runCLI("frobnicate", "x"); code != exitUsage {
		t.Errorf("unknown group: exit %d, want 2", code)
	}
}

// TestExitCodeOf classifies errors the way run does: busy and machine I/O
// errors are worth a retry, an absent or unreadable input is not.
func TestExitCodeOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{usageError{"x"}, exitUsage},
		{rejected{"f: rule: x"}, exitRejected},
		{fmt.Errorf("library: %w", library.ErrBusy), exitRetry},
		{&os.PathError{Op: "write", Path: "out", Err: syscall.ENOSPC}, exitRetry},
		{fmt.Errorf("writing: %w", &os.PathError{Op: "read", Path: "in", Err: syscall.EIO}), exitRetry},
		{&os.PathError{Op: "open", Path: "in", Err: syscall.ENOENT}, exitRejected},
		{&os.PathError{Op: "open", Path: "in", Err: syscall.EACCES}, exitRejected},
		{library.ErrNotFound, exitRejected},
		{errors.New("other"), exitRejected},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestExitRetryOnFullDisk runs a real petasset process whose stdout is
// /dev/full: the write fails with ENOSPC and the exit status is 3.
func TestExitRetryOnFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("this test needs /dev/full: %v", err)
	}
	defer full.Close()
	cmd := child(nil, "petpack", "verify", "--json", sampleCopy(t))
	cmd.Stdout = full
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee interface{ ExitCode() int }
	if !errors.As(err, &ee) || ee.ExitCode() != exitRetry || !strings.Contains(stderr.String(), "no space left on device") {
		t.Fatalf("petpack verify --json > /dev/full: %v, stderr %q; want exit 3", err, stderr.String())
	}
}

// sampleCopy copies the sample pet to a regular file: in Bazel's runfiles
// it is a symbolic link, which the validator refuses (package_not_regular).
func sampleCopy(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(samplePetpack)
	if err != nil {
		t.Fatal(err)
	}
	return write(t, filepath.Join(t.TempDir(), "pet_tabby.petpack"), string(data))
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkKeys reports every object key of a JSON document that is not
// snake_case.
func checkKeys(t *testing.T, what string, v interface{}) {
	t.Helper()
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if !snakeCase.MatchString(k) {
				t.Errorf("%s: key %q is not snake_case", what, k)
			}
			checkKeys(t, what, e)
		}
	case []interface{}:
		for _, e := range x {
			checkKeys(t, what, e)
		}
	}
}

// TestJSONOutputs: every --json (and always-JSON) output uses snake_case
// keys, writes one JSON document to stdout and nothing to stderr, with the
// flag before or after the positional arguments.
func TestJSONOutputs(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	a := petpacktest.Variant(t, samplePetpack, dir, "pet_alpha", "Alpha", "")
	if code, _, stderr := runCLI("library", "--root", root, "import", a); code != 0 {
		t.Fatal(stderr)
	}
	sample := sampleCopy(t)
	for _, args := range [][]string{
		{"manifest", "dump", filepath.Join(canonicalDir, "manifest.petasset")},
		{"pack", "inspect", "--json", canonicalGolden},
		{"pack", "inspect", canonicalGolden, "--json"},
		{"petpack", "verify", "--json", sample},
		{"petpack", "verify", sample, "--json"},
		{"petpack", "inspect", "--json", sample},
		{"library", "list", "--root", root, "--json"},
		{"library", "show", "pet_alpha", "--root", root, "--json"},
		{"library", "revisions", "--json", "--root", root, "pet_alpha"},
	} {
		code, stdout, stderr := runCLI(args...)
		if code != exitOK || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			continue
		}
		var doc interface{}
		dec := json.NewDecoder(strings.NewReader(stdout))
		if err := dec.Decode(&doc); err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Errorf("%v: more than one JSON document on stdout", args)
		}
		checkKeys(t, strings.Join(args[:2], " "), doc)
	}
}

func TestPetpackInspect(t *testing.T) {
	sample := sampleCopy(t)
	code, stdout, stderr := runCLI("petpack", "inspect", sample)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		sample + "  pet_tabby \"Tabby\", flat pixel art, low quality 192x208, 58 entries, ",
		"\nmanifest.json  ",
		"\nassets/frames/idle/0005.png  ",
		"\nidle         periodic           6       2000      2        260 220 240 260 380 640\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("inspect lacks %q:\n%s", want, stdout)
		}
	}
	_, js, _ := runCLI("petpack", "inspect", sample, "--json")
	var doc petpackInspection
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != "pet_tabby" || len(doc.Entries) != 58 || len(doc.States) != 9 || doc.States[0].Name != "idle" || doc.States[0].CycleMS != 2000 || doc.Warnings == nil {
		t.Errorf("inspect --json: %+v", doc)
	}
	dir := t.TempDir()
	notZip := write(t, filepath.Join(dir, "x.petpack"), "not a zip")
	code, stdout, stderr = runCLI("petpack", "inspect", notZip)
	if code != exitRejected || stdout != "" || !strings.HasPrefix(stderr, notZip+": zip_end_missing: ") {
		t.Errorf("inspect of a non-archive: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestBuildWorkingDirectory: under `bazel run` a relative path means the
// user's directory, named by BUILD_WORKING_DIRECTORY, not the runfiles
// tree the tool starts in.
func TestBuildWorkingDirectory(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs(canonicalGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	t.Setenv("BUILD_WORKING_DIRECTORY", filepath.Dir(golden))
	if err := enterWorkingDir(); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("pack", "verify", filepath.Base(golden))
	if code != exitOK || !strings.HasPrefix(stdout, filepath.Base(golden)+": ok") {
		t.Errorf("relative path under BUILD_WORKING_DIRECTORY: exit %d, %q %q", code, stdout, stderr)
	}
	t.Setenv("BUILD_WORKING_DIRECTORY", filepath.Join(t.TempDir(), "gone"))
	if err := enterWorkingDir(); err == nil || !strings.Contains(err.Error(), "BUILD_WORKING_DIRECTORY") {
		t.Errorf("a missing BUILD_WORKING_DIRECTORY: %v", err)
	}
}

// TestFlagTerminator: after "--" everything is positional, even text that
// looks like a flag.
func TestFlagTerminator(t *testing.T) {
	fs := newFlags("t")
	j := fs.Bool("json", false, "")
	if err := parseFlags(fs, []string{"a", "--json", "--", "--json", "b"}); err != nil {
		t.Fatal(err)
	}
	if !*j || strings.Join(fs.Args(), " ") != "a --json b" {
		t.Errorf("json %v, args %q", *j, fs.Args())
	}
}
