package petpack

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPrivacy puts one forbidden key or value into a metadata document of
// an otherwise valid package; each is rejected with its rule at the JSON
// pointer of the offending member.
func TestPrivacy(t *testing.T) {
	const x = "/extensions/com.example.test"
	cases := []struct {
		name    string
		p       pkg
		rule    Rule
		path    string
		pointer string
	}{
		{"api key field", withExtension(briefPath, 0, `{"api_key":"x"}`), RulePrivacyCredential, briefPath, x + "/api_key"},
		{"nested token", withExtension(sourcePath, 0, `{"auth":{"github_token":"abc"}}`), RulePrivacyCredential, sourcePath, x + "/auth/github_token"},
		{"bearer value", withExtension(briefPath, 0, `{"notes":["ok","Authorization: Bearer abcdefghijklmnop"]}`), RulePrivacyCredential, briefPath, x + "/notes/1"},
		{"openai style key", withExtension(validationPath, 0, `{"x":"sk-abcdefghijklmnopqrstuvwx"}`), RulePrivacyCredential, validationPath, x + "/x"},
		{"private key block", withExtension(briefPath, 0, `{"k":"-----BEGIN RSA PRIVATE KEY-----"}`), RulePrivacyCredential, briefPath, x + "/k"},
		{"home path", withExtension(sourcePath, 0, `{"reference":"/Users/ana/Pictures/cat.png"}`), RulePrivacyAbsolutePath, sourcePath, x + "/reference"},
		{"linux home in the description", withMeta(func(mt *testMeta) { d := "made from /home/ana/cat.png today"; mt.brf.Description = &d }), RulePrivacyAbsolutePath, briefPath, "/description"},
		{"tilde path", withExtension(briefPath, 0, `{"ref":"~/cat.png"}`), RulePrivacyAbsolutePath, briefPath, x + "/ref"},
		{"windows drive", withExtension(briefPath, 0, `{"ref":"C:\\Users\\ana\\cat.png"}`), RulePrivacyAbsolutePath, briefPath, x + "/ref"},
		{"unc path", withExtension(briefPath, 0, `{"ref":"\\\\server\\share\\cat.png"}`), RulePrivacyAbsolutePath, briefPath, x + "/ref"},
		{"file url", withExtension(briefPath, 0, `{"ref":"see file:///srv/cat.png"}`), RulePrivacyFileURL, briefPath, x + "/ref"},
		{"session id key", withExtension(sessionPath, 0, `{"session_id":"x"}`), RulePrivacyAgentIdentifier, sessionPath + ":1", x + "/session_id"},
		{"tool call value", withExtension(sessionPath, 1, `{"ref":"call_abcdefghijklmnop"}`), RulePrivacyAgentIdentifier, sessionPath + ":2", x + "/ref"},
		{"command key", withExtension(sourcePath, 0, `{"command":"make pet"}`), RulePrivacyCommandLine, sourcePath, x + "/command"},
		{"shell line in the generator", withMeta(func(mt *testMeta) { mt.src.Runner = "ran sudo make install" }), RulePrivacyCommandLine, sourcePath, "/runner"},
		{"environment key", withExtension(validationPath, 0, `{"environment":{}}`), RulePrivacyEnvironment, validationPath, x + "/environment"},
		{"environment value", withExtension(briefPath, 0, `{"notes":"PATH=/usr/bin"}`), RulePrivacyEnvironment, briefPath, x + "/notes"},
		{"escaped pointer", withExtension(briefPath, 0, `{"a/b":{"password":"x"}}`), RulePrivacyCredential, briefPath, x + "/a~1b/password"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(zipStd(t, tc.p))
			expectRules(t, v, tc.rule)
			f := v.Errors[0]
			if f.Path != tc.path || f.Pointer != tc.pointer || f.Rule.Stage() != StageMetadata {
				t.Errorf("finding %+v, want path %q pointer %q", f, tc.path, tc.pointer)
			}
		})
	}
}

// withExtension returns the valid package with payload as the
// com.example.test extension of one metadata document (record selects the
// line of the session log): the one place arbitrary keys may appear, so
// the privacy check is all that stands between it and the package.
func withExtension(name string, record int, payload string) pkg {
	p := validPackage()
	lines := strings.SplitAfter(string(p.get(name)), "\n")
	doc := string(p.get(name))
	if name == sessionPath {
		doc = lines[record]
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		panic(err)
	}
	m["extensions"] = json.RawMessage(`{"com.example.test":` + payload + `}`)
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	if name != sessionPath {
		return p.with(name, append(b, '\n'))
	}
	lines[record] = string(b) + "\n"
	return p.with(name, []byte(strings.Join(lines, "")))
}

// TestPrivacyAllows keeps ordinary metadata valid: relative paths, dates,
// prose with slashes, counts of tokens.
func TestPrivacyAllows(t *testing.T) {
	p := withReferences(prefixed, "sketches/cat-2.png").withDoc(briefPath, func(m jmap) {
		m["description"] = "A calm cat who waves hello and naps 24/7, in flat pixel art / 2D."
		m["extensions"] = jmap{"com.example.test": jmap{"created_at": "2026-01-02T03:04:05Z", "token_count": 1200,
			"ratio": "12:13", "url": "https://example.com/cats"}}
	})
	v := validateBytes(zipStd(t, p))
	if !v.OK() {
		t.Fatalf("ordinary metadata rejected:\n%s", describeVerdict(v))
	}
}

func TestPrivacyDoesNotEchoSecrets(t *testing.T) {
	secret := "sk-abcdefghijklmnopqrstuvwxyz0123"
	v := validateBytes(zipStd(t, withExtension(briefPath, 0, `{"x":"`+secret+`"}`)))
	expectRules(t, v, RulePrivacyCredential)
	for _, f := range v.Errors {
		if len(f.Msg) == 0 || strings.Contains(f.Msg, secret[:12]) {
			t.Errorf("message repeats the secret: %q", f.Msg)
		}
	}
}
