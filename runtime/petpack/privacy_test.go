package petpack

import (
	"strings"
	"testing"
)

// TestPrivacy puts one forbidden key or value into a metadata document of
// an otherwise valid package; each is rejected with its rule at the JSON
// pointer of the offending member.
func TestPrivacy(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		doc     string
		rule    Rule
		path    string
		pointer string
	}{
		{"api key field", "brief.json", `{"schema_version":"apc.pet-brief.v1","api_key":"x"}`, RulePrivacyCredential, "brief.json", "/api_key"},
		{"nested token", "source/source.json", `{"schema_version":"apc.pet-source.v1","generator":{"auth":{"github_token":"abc"}}}`, RulePrivacyCredential, "source/source.json", "/generator/auth/github_token"},
		{"bearer value", "brief.json", `{"schema_version":"apc.pet-brief.v1","notes":["ok","Authorization: Bearer abcdefghijklmnop"]}`, RulePrivacyCredential, "brief.json", "/notes/1"},
		{"openai style key", "build/validation.json", `{"schema_version":"apc.pet-validation.v1","ok":true,"x":"sk-abcdefghijklmnopqrstuvwx"}`, RulePrivacyCredential, "build/validation.json", "/x"},
		{"private key block", "brief.json", `{"schema_version":"apc.pet-brief.v1","k":"-----BEGIN RSA PRIVATE KEY-----"}`, RulePrivacyCredential, "brief.json", "/k"},
		{"home path", "source/source.json", `{"schema_version":"apc.pet-source.v1","reference":"/Users/ana/Pictures/cat.png"}`, RulePrivacyAbsolutePath, "source/source.json", "/reference"},
		{"linux home in text", "brief.json", `{"schema_version":"apc.pet-brief.v1","notes":"made from /home/ana/cat.png today"}`, RulePrivacyAbsolutePath, "brief.json", "/notes"},
		{"tilde path", "brief.json", `{"schema_version":"apc.pet-brief.v1","ref":"~/cat.png"}`, RulePrivacyAbsolutePath, "brief.json", "/ref"},
		{"windows drive", "brief.json", `{"schema_version":"apc.pet-brief.v1","ref":"C:\\Users\\ana\\cat.png"}`, RulePrivacyAbsolutePath, "brief.json", "/ref"},
		{"unc path", "brief.json", `{"schema_version":"apc.pet-brief.v1","ref":"\\\\server\\share\\cat.png"}`, RulePrivacyAbsolutePath, "brief.json", "/ref"},
		{"file url", "brief.json", `{"schema_version":"apc.pet-brief.v1","ref":"see file:///srv/cat.png"}`, RulePrivacyFileURL, "brief.json", "/ref"},
		{"session id key", "source/skill_session.jsonl", `{"schema_version":"apc.pet-source-event.v1","session_id":"x"}` + "\n", RulePrivacyAgentIdentifier, "source/skill_session.jsonl:1", "/session_id"},
		{"tool call value", "source/skill_session.jsonl", `{"schema_version":"apc.pet-source-event.v1"}` + "\n" + `{"schema_version":"apc.pet-source-event.v1","ref":"call_abcdefghijklmnop"}` + "\n", RulePrivacyAgentIdentifier, "source/skill_session.jsonl:2", "/ref"},
		{"command key", "source/source.json", `{"schema_version":"apc.pet-source.v1","command":"make pet"}`, RulePrivacyCommandLine, "source/source.json", "/command"},
		{"shell line value", "brief.json", `{"schema_version":"apc.pet-brief.v1","how":"ran sudo make install"}`, RulePrivacyCommandLine, "brief.json", "/how"},
		{"environment key", "build/validation.json", `{"schema_version":"apc.pet-validation.v1","ok":true,"environment":{}}`, RulePrivacyEnvironment, "build/validation.json", "/environment"},
		{"environment value", "brief.json", `{"schema_version":"apc.pet-brief.v1","notes":"PATH=/usr/bin"}`, RulePrivacyEnvironment, "brief.json", "/notes"},
		{"escaped pointer", "brief.json", `{"schema_version":"apc.pet-brief.v1","a/b":{"password":"x"}}`, RulePrivacyCredential, "brief.json", "/a~1b/password"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(zipStd(t, validPackage().with(tc.file, []byte(tc.doc))))
			expectRules(t, v, tc.rule)
			f := v.Errors[0]
			if f.Path != tc.path || f.Pointer != tc.pointer || f.Rule.Stage() != StageMetadata {
				t.Errorf("finding %+v, want path %q pointer %q", f, tc.path, tc.pointer)
			}
		})
	}
}

// TestPrivacyAllows keeps ordinary metadata valid: relative paths, dates,
// prose with slashes, counts of tokens.
func TestPrivacyAllows(t *testing.T) {
	doc := `{"schema_version":"apc.pet-brief.v1","name":"Build Cat","style":"flat pixel art / 2D",
	"references":["cat.png","sketches/cat-2.png"],"created_at":"2026-01-02T03:04:05Z","token_count":1200,
	"notes":"A calm cat who waves hello and naps 24/7.","ratio":"12:13","url":"https://example.com/cats"}`
	v := validateBytes(zipStd(t, validPackage().with("brief.json", []byte(doc))))
	if !v.OK() {
		t.Fatalf("ordinary metadata rejected:\n%s", describeVerdict(v))
	}
}

func TestPrivacyDoesNotEchoSecrets(t *testing.T) {
	secret := "sk-abcdefghijklmnopqrstuvwxyz0123"
	v := validateBytes(zipStd(t, validPackage().with("brief.json", []byte(`{"schema_version":"apc.pet-brief.v1","x":"`+secret+`"}`))))
	expectRules(t, v, RulePrivacyCredential)
	for _, f := range v.Errors {
		if len(f.Msg) == 0 || strings.Contains(f.Msg, secret[:12]) {
			t.Errorf("message repeats the secret: %q", f.Msg)
		}
	}
}
