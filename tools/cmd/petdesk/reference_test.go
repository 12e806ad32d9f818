package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/dev/docgen"
)

// TestHelpReferenceUpToDate fails when docs/cli.md's petdesk reference
// differs from petdesk's own --help (`go test` runs in tools/cmd/petdesk of
// the checkout, `bazel test` in the same place of the runfiles tree, which
// holds docs/cli.md as data).
func TestHelpReferenceUpToDate(t *testing.T) {
	var help bytes.Buffer
	if code := run([]string{"--help"}, &help); code != 0 {
		t.Fatalf("petdesk --help: exit %d: %s", code, help.String())
	}
	for _, want := range []string{"usage: petdesk", "-library ROOT", "exit status:"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("petdesk --help lacks %q:\n%s", want, help.String())
		}
	}
	if err := docgen.Check("../../..", docgen.PetdeskPage, docgen.PetdeskReference(help.String())); err != nil {
		t.Fatal(err)
	}
}
