package petpack

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestMain checks, after a full run, that every rule was produced by at
// least one fixture: a rule nothing exercises is a rule nobody knows works.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && !testing.Short() {
		var missing []Rule
		for _, r := range Rules() {
			if !covered[r] {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "rules without a fixture: %v\n", missing)
			code = 1
		}
	}
	os.Exit(code)
}

// TestRuleTable keeps doc.go's table, Rules and the stages in step.
func TestRuleTable(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^//\t\| (\d)     \| ([a-z0-9_]+) +\| (.*)\|$`)
	var got []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		warn := strings.HasPrefix(m[3], "(warning)")
		got = append(got, fmt.Sprintf("%s %s %v", m[1], m[2], warn))
	}
	var want []string
	seen := map[Rule]bool{}
	for _, r := range Rules() {
		if seen[r] {
			t.Errorf("rule %s listed twice", r)
		}
		seen[r] = true
		want = append(want, fmt.Sprintf("%d %s %v", r.Stage(), r, r.IsWarning()))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("doc.go table:\n%s\n\nRules():\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if Rule("nope").Stage() != 0 {
		t.Fatal("an unknown rule has a stage")
	}
}
