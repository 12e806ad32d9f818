package petpack

import (
	"bytes"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack/internal/privacy"
)

// The metadata documents of section 7 that the privacy check reads. The
// JSONL file is checked record by record, each record its own document.
var privacyDocuments = []string{
	"brief.json",
	"source/source.json",
	"source/skill_session.jsonl",
	"build/validation.json",
}

// privacyRule is the rule of a scanner finding. internal/privacy's kinds
// are this package's rule identifiers for the same leaks, so the rule is
// the kind itself (TestPrivacyRules checks every kind is a rule); a kind
// that is not one is a bug in this package, not in the input.
func privacyRule(k privacy.Kind) Rule {
	rule := Rule(k)
	if rule.Stage() == 0 {
		panic("petpack: the privacy scanner's kind " + string(k) + " is not a rule")
	}
	return rule
}

// checkPrivacy applies the recursive privacy check of section 7 to every
// metadata document present; a missing or malformed one is the layout's and
// the schemas' to report.
func checkPrivacy(c *checker, fs *fileSet) {
	var names []string
	names = append(names, privacyDocuments...)
	sort.Strings(names)
	for _, name := range names {
		data := readSmallFile(fs, name)
		if data == nil {
			continue
		}
		docs := [][]byte{data}
		if strings.HasSuffix(name, ".jsonl") {
			docs = bytes.Split(data, []byte("\n"))
		}
		for i, doc := range docs {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			where := name
			if len(docs) > 1 || strings.HasSuffix(name, ".jsonl") {
				where = name + ":" + strconv.Itoa(i+1)
			}
			found, err := privacy.Scan(doc)
			if err != nil {
				continue
			}
			for _, f := range found {
				rule := privacyRule(f.Kind)
				c.fail(rule, where, f.Pointer, "%s: %s", f.What, privacyMessage[rule])
			}
		}
	}
}

var privacyMessage = map[Rule]string{
	RulePrivacyTooComplex:      "the privacy check reads at most 65,536 values nested at most 64 deep",
	RulePrivacyCredential:      "portable metadata must not carry credentials, tokens, cookies, API keys, authorization headers or secrets",
	RulePrivacyAbsolutePath:    "portable metadata must not carry absolute, home or host-configuration paths",
	RulePrivacyFileURL:         "portable metadata must not carry file URLs",
	RulePrivacyExternalLocator: "portable metadata must not carry external locators",
	RulePrivacyAgentIdentifier: "portable metadata must not carry agent thread, session, turn, job, command-source, tool-call, connector or runtime identifiers",
	RulePrivacyCommandLine:     "portable metadata must not carry command lines, tool input or output, chat transcripts, hidden reasoning or internal prompts",
	RulePrivacyEnvironment:     "portable metadata must not carry environment dumps",
	RulePrivacyExecutable:      "portable metadata must not carry executable code or text meant to override an importer, agent or user",
}

// readSmallFile returns the bytes of a regular file of the set, at most
// MaxManifestBytes of them, or nil when it is absent, a directory, larger,
// or unreadable.
func readSmallFile(fs *fileSet, name string) []byte {
	n := fs.lookup(name)
	if n == nil || n.dir || n.e.size > MaxManifestBytes {
		return nil
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		return nil
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
	if err != nil || len(data) > MaxManifestBytes {
		return nil
	}
	return data
}
