package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/dev/docgen"
)

// helpText runs the command in-process, as `petasset ARGS...` would, and
// returns its stdout; anything but exit 0 with an empty stderr fails.
func helpText(args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		return "", fmt.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	return stdout.String(), nil
}

// TestCLIReferenceUpToDate fails when docs/cli.md's reference differs from
// the commands' own --help (`go test` runs in tools/cmd/petasset of the
// checkout, `bazel test` in the same place of the runfiles tree, which
// holds docs/cli.md as data).
func TestCLIReferenceUpToDate(t *testing.T) {
	ref, err := docgen.CLIReference(helpText)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !strings.Contains(ref, fmt.Sprintf("\n#### petasset %s %s\n", c.group, c.verb)) {
			t.Errorf("the reference lacks petasset %s %s", c.group, c.verb)
		}
	}
	if err := docgen.Check("../../..", docgen.CLIPage, ref); err != nil {
		t.Fatal(err)
	}
}
