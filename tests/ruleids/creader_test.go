package ruleids

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/pack"
)

// cHeader declares the C reader's status enum.
const cHeader = "firmware/pet_pack.h"

var (
	statusEnum  = regexp.MustCompile(`(?s)typedef enum pet_pack_status \{(.*?)\} pet_pack_status;`)
	enumerator  = regexp.MustCompile(`(?m)^\s*(PET_PACK_[A-Z0-9_]+)(?:\s*=\s*0)?,?\s*(?:/\* "([a-z0-9_]*)" \*/|/\*[^"]*\*/)?\s*$`)
	statusArray = regexp.MustCompile(`(?s)status_names\[PET_PACK_STATUS_COUNT\] = \{(.*?)\};`)
)

// checkCReader compares the C reader's status enum (header) and
// status_names (source) with the Go PETP rules in their order, and returns
// every difference: the array is "ok" then the rules; the enum is
// PET_PACK_OK, then PET_PACK_<RULE> commented with the rule, then
// PET_PACK_STATUS_COUNT.
func checkCReader(header, source string, rules []string) []string {
	var problems []string
	var names []string
	if m := statusArray.FindStringSubmatch(source); m == nil {
		problems = append(problems, cReader+": no status_names[PET_PACK_STATUS_COUNT] table")
	} else {
		for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
			names = append(names, q[1])
		}
	}
	want := append([]string{"ok"}, rules...)
	if strings.Join(names, " ") != strings.Join(want, " ") {
		problems = append(problems, fmt.Sprintf("%s: status_names is\n  %s\nthe Go PETP rules (pack.Rules) give\n  %s", cReader, strings.Join(names, " "), strings.Join(want, " ")))
	}
	m := statusEnum.FindStringSubmatch(header)
	if m == nil {
		return append(problems, cHeader+": no pet_pack_status enum")
	}
	var got, wantEnum []string
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		e := enumerator.FindStringSubmatch(line)
		if e == nil {
			problems = append(problems, fmt.Sprintf("%s: enum line %q is not ENUMERATOR, /* \"rule\" */", cHeader, strings.TrimSpace(line)))
			continue
		}
		got = append(got, e[1]+" "+e[2])
	}
	wantEnum = append(wantEnum, "PET_PACK_OK ")
	for _, r := range rules {
		wantEnum = append(wantEnum, "PET_PACK_"+strings.ToUpper(r)+" "+r)
	}
	wantEnum = append(wantEnum, "PET_PACK_STATUS_COUNT ")
	if strings.Join(got, "\n") != strings.Join(wantEnum, "\n") {
		problems = append(problems, fmt.Sprintf("%s: the pet_pack_status enum (enumerator and its rule comment) is\n  %s\nthe Go PETP rules give\n  %s", cHeader, strings.Join(got, "\n  "), strings.Join(wantEnum, "\n  ")))
	}
	return problems
}

// TestCReaderStatusNames holds firmware/pet_pack.c's status_names and
// pet_pack.h's enum to runtime/pack's rules, in the reader's order.
func TestCReaderStatusNames(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var rules []string
	for _, r := range pack.Rules() {
		rules = append(rules, string(r))
	}
	for _, p := range checkCReader(read(cHeader), read(cReader), rules) {
		t.Error(p)
	}
}

// TestCheckCReaderFails: two names swapped, one left out, or an enum
// comment naming another rule are each reported.
func TestCheckCReaderFails(t *testing.T) {
	rules := []string{"bad_magic", "check_mismatch"}
	header := "typedef enum pet_pack_status {\n    PET_PACK_OK = 0,\n    PET_PACK_BAD_MAGIC, /* \"bad_magic\" */\n    PET_PACK_CHECK_MISMATCH, /* \"check_mismatch\" */\n    PET_PACK_STATUS_COUNT /* number */\n} pet_pack_status;\n"
	source := "static const char *const status_names[PET_PACK_STATUS_COUNT] = {\n    \"ok\",\n    \"bad_magic\",\n    \"check_mismatch\",\n};\n"
	if p := checkCReader(header, source, rules); len(p) != 0 {
		t.Fatalf("a matching reader: %v", p)
	}
	for _, tc := range []struct{ name, header, source, want string }{
		{"swapped names", header, strings.Replace(strings.Replace(source, "bad_magic", "X", 1), "check_mismatch", "bad_magic", 1), "status_names is"},
		{"name left out", header, strings.Replace(source, "    \"check_mismatch\",\n", "", 1), "status_names is"},
		{"enum comment", strings.Replace(header, `/* "check_mismatch" */`, `/* "bad_magic" */`, 1), source, "the pet_pack_status enum"},
		{"enum order", strings.Replace(strings.Replace(header, "PET_PACK_BAD_MAGIC, /* \"bad_magic\" */", "TMP", 1), "PET_PACK_CHECK_MISMATCH, /* \"check_mismatch\" */", "PET_PACK_BAD_MAGIC, /* \"bad_magic\" */", 1), source, "enum line \"TMP\""},
		{"no table", header, "", "no status_names"},
	} {
		p := checkCReader(tc.header, tc.source, rules)
		if !strings.Contains(strings.Join(p, "\n"), tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.name, p, tc.want)
		}
	}
}
