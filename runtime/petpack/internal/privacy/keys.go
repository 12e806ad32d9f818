package privacy

import (
	"sort"
	"strings"
)

// Object keys that name what section 7 forbids.
//
// A key is read as the contract's authors read it: lower-cased with
// everything but ASCII letters and digits dropped ("client_secret" and
// "Client-Secret" are both "clientsecret"), then as words split at
// punctuation and camel-case boundaries ("clientSecret" is "client",
// "secret"), every run of adjacent words joined and looked up. So a name
// is found inside a longer key on word boundaries only: "environmental"
// and "commanding" are no hit, "tokenized" neither, but "token_count" is
// (the word "token"), as the authors' importer refuses it too. A few
// compound names are specific enough to be found as a bare prefix or
// suffix of a word as well ("myapikey").

// baselineKeys are the contract authors' 57 forbidden names, each with
// the section 7 category (its rule) it belongs to.
var baselineKeys = keyTable(
	AgentIdentifier, "threadid turnid sessionid requestid conversationid codexappserver",
	CommandLine, "conversation conversations messagehistory messages "+
		"transcript transcripts fulltranscript rawtranscript "+
		"assistanttext assistantmessage usermessage usermessages "+
		"reasoning reasoningtext hiddenreasoning chainofthought internalthoughts "+
		"command commands commandline commandsource shellcommand "+
		"toolargs toolarguments toolinput tooloutput toolresult toolresults toolresponse toolresponses "+
		"stdout stderr",
	Environment, "environment env cwd workingdirectory workspacepath",
	Credential, "token accesstoken refreshtoken apikey cookie cookies authorization auth authentication "+
		"secret secrets password credential credentials",
)

// baselineAffixes are the authors' 9 compound names also found as a
// prefix or suffix of a longer word.
var baselineAffixes = keyTable(
	AgentIdentifier, "threadid turnid sessionid requestid conversationid codexappserver",
	Credential, "apikey accesstoken refreshtoken",
)

// moreKeys go past the authors' list where section 7 names more: the
// identifiers of jobs, runs, tool calls, connectors, runtimes and command
// sources; command and prompt fields; the usual spellings of keys and
// secrets; environment spellings. None is an ordinary word a maker's
// creative fields use (a "shell" or "prompt" key stays allowed: its value
// is what the value detectors read).
var moreKeys = keyTable(
	Credential, "passwd passphrase apitoken authtoken sessiontoken bearertoken idtoken bearer "+
		"clientsecret secretkey privatekey accesskey signingkey sshkey authheader setcookie xapikey",
	AgentIdentifier, "jobid runid callid toolcallid connectorid runtimeid commandsourceid "+
		"responseid messageid traceid spanid",
	CommandLine, "cmd cmdline argv stdin toolcall toolcalls functioncall functioncalls toolinvocation "+
		"systemprompt developerprompt internalprompt hiddenprompt systemmessage developermessage chathistory chatlog",
	Environment, "environ envvar envvars environmentvariables pwd homedir homedirectory userhome",
)

// moreAffixes are our compound names found as a prefix or suffix.
var moreAffixes = keyTable(
	Credential, "clientsecret privatekey secretkey sessiontoken authtoken apitoken bearertoken",
	AgentIdentifier, "toolcallid connectorid runtimeid commandsourceid",
)

// keyTable maps each space-separated name to the rule before it.
func keyTable(pairs ...interface{}) map[string]Kind {
	out := map[string]Kind{}
	for i := 0; i < len(pairs); i += 2 {
		for _, name := range strings.Fields(pairs[i+1].(string)) {
			out[name] = pairs[i].(Kind)
		}
	}
	return out
}

// maxKeyWindow bounds a joined run of words: every name is shorter, and
// the bound keeps a hostile long key linear.
const maxKeyWindow = 32

// forbiddenKey returns the rule and the forbidden name a key holds.
func forbiddenKey(key string) (Kind, string, bool) {
	if r, name, ok := lookupKeyName(normalizeKey(key)); ok {
		return r, name, true
	}
	words := keyWords(key)
	for i := range words {
		joined := ""
		for _, w := range words[i:] {
			joined += w
			if len(joined) > maxKeyWindow {
				break
			}
			if r, name, ok := lookupKeyName(joined); ok {
				return r, name, true
			}
		}
	}
	return "", "", false
}

func lookupKeyName(s string) (Kind, string, bool) {
	for _, t := range []map[string]Kind{baselineKeys, moreKeys} {
		if r, ok := t[s]; ok {
			return r, s, true
		}
	}
	for _, a := range affixes {
		if len(s) > len(a.name) && (strings.HasPrefix(s, a.name) || strings.HasSuffix(s, a.name)) {
			return a.rule, a.name, true
		}
	}
	return "", "", false
}

// affixes are both affix tables in name order, so that the name reported
// for a key holding two is always the same one.
var affixes = func() []struct {
	name string
	rule Kind
} {
	var out []struct {
		name string
		rule Kind
	}
	for _, t := range []map[string]Kind{baselineAffixes, moreAffixes} {
		for name, r := range t {
			out = append(out, struct {
				name string
				rule Kind
			}{name, r})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}()

// normalizeKey keeps a key's ASCII letters and digits, lower-cased.
func normalizeKey(key string) string {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if c := key[i]; isAlnum(c) {
			b.WriteByte(lower(c))
		}
	}
	return b.String()
}

// keyWords splits a key into lower-case words at anything not an ASCII
// letter or digit, before an upper-case letter that follows a lower-case
// letter or digit, and before the last capital of a run followed by a
// lower-case letter ("HTTPHeader" is "http", "header").
func keyWords(key string) []string {
	var words []string
	var cur []byte
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !isAlnum(c) {
			if len(cur) > 0 {
				words = append(words, string(cur))
				cur = cur[:0]
			}
			continue
		}
		if len(cur) > 0 && isUpper(c) && i > 0 {
			p := key[i-1]
			next := byte(0)
			if i+1 < len(key) {
				next = key[i+1]
			}
			if isLower(p) || isDigit(p) || (isUpper(p) && isLower(next)) {
				words = append(words, string(cur))
				cur = cur[:0]
			}
		}
		cur = append(cur, lower(c))
	}
	if len(cur) > 0 {
		words = append(words, string(cur))
	}
	return words
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isAlnum(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}
