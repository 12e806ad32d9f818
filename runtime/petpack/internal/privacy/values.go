package privacy

import (
	"regexp"
	"strings"
	"sync"
)

// The string-value detectors of section 7, one per bullet of its list, in
// its order. Each finds what its bullet names in any string value of the
// metadata, wherever it stands in the string, and says what it found in
// a label that never repeats the value.
//
// Each is written against prose as well as against leaks: metadata is
// full of motion descriptions, styles, palettes and render notes, and a
// word that merely appears in a leak ("bearer", "sudo", "shell", "&&",
// "#") is not one. So a detector fires on a shape, not a word: a header
// with its value, a token of the form a vendor issues, a program followed
// by a flag or a script, a path at a word boundary, a role-labelled turn.
// The tables in tables_test.go hold, for each bullet, leaks that must be
// caught and harmless producer text that must pass.
var privacyDetectors = []struct {
	bullet string
	detect func(string) (Kind, string, bool)
}{
	{"credentials, tokens, cookies, API keys, authorization headers, secrets", detectCredential},
	{"absolute, home and host-configuration paths, external locators", detectLocation},
	{"agent thread, session, turn, job, command-source, tool-call, connector and runtime identifiers", detectAgentID},
	{"command lines, tool input or output, transcripts, hidden reasoning, internal prompts, environment dumps", detectCommand},
	{"executable code, text meant to override an importer, agent or user", detectCode},
}

// pattern is one shape a detector looks for: a regular expression (Go's,
// linear in the input) and, where the expression alone would catch prose,
// a check on its submatches.
//
// need lists lower-case literals (space-separated; "~sp~" stands for a space) one of which any match contains: the
// expression runs only on a string holding one. Go's expressions are
// linear but slow on long text (an automaton step per byte and state), and
// producer prose holds none of most literals, so this keeps the scan of a
// megabyte of descriptions to milliseconds.
type pattern struct {
	label string
	need  []string
	re    *lazyRegexp
	check func(m []string) bool
	pre   func(s string) bool // when set, needed as well as need
}

func pat(label, need, expr string) pattern {
	return pattern{label: label, need: needList(need), re: lazyCompile(expr)}
}

func patCheck(label, need, expr string, check func([]string) bool) pattern {
	p := pat(label, need, expr)
	p.check = check
	return p
}

// firstHit returns the label of the first pattern s holds; lower is s
// lower-cased.
// agentWord: s holds, as a whole word, one of the names the agent
// pattern addresses.
func agentWord(s string) bool {
	return hasWord(strings.ToLower(s), "importer", "importing", "agent", "assistant", "ai", "llm", "model", "codex", "claude", "chatgpt", "copilot", "validator", "you")
}

// hasWord: lower holds one of words with no ASCII letter either side.
func hasWord(lower string, words ...string) bool {
	for _, w := range words {
		for off := 0; ; {
			i := strings.Index(lower[off:], w)
			if i < 0 {
				break
			}
			i += off
			end := i + len(w)
			if (i == 0 || !isLower(lower[i-1])) && (end == len(lower) || !isLower(lower[end])) {
				return true
			}
			off = i + 1
		}
	}
	return false
}

// hostPort: s holds "localhost", the loopback address, or a dotted quad
// of digits followed by ':' and a digit.
func hostPort(s string) bool {
	return strings.Contains(strings.ToLower(s), "localhost") || strings.Contains(s, "127.0.0.1") || ipPort(s)
}

// ipPort: s holds a dotted quad of digits followed by ':' and a digit.
func ipPort(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] != ':' || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
			continue
		}
		dots := 0
		for j := i - 1; j >= 0 && (isDigit(s[j]) || s[j] == '.'); j-- {
			if s[j] == '.' {
				dots++
			}
		}
		if dots >= 3 {
			return true
		}
	}
	return false
}

func firstHit(s, lower string, ps []pattern) (string, bool) {
	for _, p := range ps {
		if !containsAny(lower, p.need) || p.pre != nil && !p.pre(s) {
			continue
		}
		if p.check == nil {
			if p.re.get().MatchString(s) {
				return p.label, true
			}
			continue
		}
		for _, m := range p.re.get().FindAllStringSubmatch(s, 16) {
			if p.check(m) {
				return p.label, true
			}
		}
	}
	return "", false
}

// needList splits a space-separated need, reading "~sp~" as a space
// (literals such as "cd " and "you are" hold one).
func needList(need string) []string {
	var out []string
	for _, l := range strings.Fields(need) {
		out = append(out, strings.ReplaceAll(l, "~sp~", " "))
	}
	return out
}

// withPre is patCheck with a check on the whole string first.
func withPre(pre func(string) bool, label, need, expr string, check func([]string) bool) pattern {
	p := patCheck(label, need, expr, check)
	p.pre = pre
	return p
}

// longRun: s holds 24 letters, digits, '_' or '-' in a row, as a token
// does and prose does not.
func longRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; isAlnum(c) || c == '_' || c == '-' {
			n++
			if n >= 24 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

func containsAny(s string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(s, l) {
			return true
		}
	}
	return false
}

// tokenLike: at least n bytes holding a digit or a symbol tokens use, as
// random credentials do and words do not.
func tokenLike(s string, n int) bool {
	if len(s) < n {
		return false
	}
	return strings.ContainsAny(s, "0123456789_~+/=!@#$%^&*")
}

// mixed: a letter and a digit both, as an identifier and not a number or
// a word.
func mixed(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, func(r rune) bool {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}) >= 0
}

// ---- 1. credentials ----

var credentialPatterns = []pattern{
	pat("a private key block", "private~sp~key", `-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`),
	patCheck("an authorization header", "authori", `(?i)\b(?:proxy-)?authori[sz]ation\s*[:=]\s*"?((?:bearer|basic|digest|token|negotiate|aws4-hmac-sha256)\b|[A-Za-z0-9._~+/=-]{16,})`, func(m []string) bool {
		return authScheme(m[1]) || tokenLike(m[1], 16)
	}),
	patCheck("a bearer token", "bearer", `(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{12,})`, func(m []string) bool { return mixed(m[1]) }),
	patCheck("a basic-auth credential", "basic", `(?i)\bbasic\s+([A-Za-z0-9+/]{12,}={0,2})`, func(m []string) bool { return mixed(m[1]) }),
	pat("a cookie header", "cookie", `(?i)\b(?:set-)?cookie\s*:\s*[^=\s;:]+=[^\s;]+`),
	pat("an API key header", "x-", `(?i)\bx-(?:api|auth|access)-(?:key|token)\s*:\s*\S{8,}`),
	pat("a vendor API token", "sk- rk- pk- _live_ _test_ gh github_pat_ akia asia xox aiza glpat- npm_ hf_ ya29. sg.", `\b(?:sk|rk|pk)-(?:[a-z]+-)?[A-Za-z0-9_-]{20,}|\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bxox[abeprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}|\bglpat-[A-Za-z0-9_-]{20,}|\bnpm_[A-Za-z0-9]{36}\b|\bhf_[A-Za-z0-9]{30,}\b|\bya29\.[A-Za-z0-9_-]{20,}|\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
	pat("a JSON web token", "eyj", `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.`),
	pat("a connection-string key", "accountkey sharedaccess", `(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=[A-Za-z0-9+/=%]{16,}`),
	patCheck("a secret assignment", "password passwd passphrase secret token api access private auth session cookie", `(?i)\b(?:[a-z0-9]+[_-])?(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|private[_-]?key|auth|session[_-]?token|cookie)\s*[:=]\s*["']?([^\s"',;]{6,})`, func(m []string) bool {
		return tokenLike(m[1], 6) || len(m[1]) >= 20
	}),
	withPre(longRun, "a token in a key=value pair", "= :", `\b([A-Za-z][A-Za-z0-9_.-]{0,30})\s*[=:]\s*["']?([A-Za-z0-9_-]{24,})`, func(m []string) bool {
		return randomish(m[2]) && !hashName(m[1])
	}),
}

// authScheme: an HTTP authentication scheme's name.
func authScheme(s string) bool {
	for _, a := range []string{"bearer", "basic", "digest", "token", "negotiate", "aws4-hmac-sha256"} {
		if strings.EqualFold(s, a) {
			return true
		}
	}
	return false
}

// randomish: a value shaped like a generated secret, not a name or a
// version: 32 or more hex digits with a letter and a digit, or upper- and
// lower-case letters and digits together, and no word of five or more
// letters between its '-' and '_'.
func randomish(v string) bool {
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' }) {
		if len(seg) >= 5 && strings.IndexFunc(seg, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) < 0 {
			return false
		}
	}
	hex := strings.IndexFunc(v, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') }) < 0
	if hex {
		return len(v) >= 32 && mixed(v)
	}
	return strings.ContainsAny(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(v, "0123456789")
}

// digits counts the ASCII digits of s.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

// hashName: a key naming a digest, whose long hex value is a checksum a
// producer may record, not a secret.
func hashName(k string) bool {
	k = strings.ToLower(k)
	for _, h := range []string{"sha", "md5", "hash", "digest", "checksum", "crc", "etag", "commit", "rev"} {
		if strings.Contains(k, h) {
			return true
		}
	}
	return false
}

func detectCredential(s string) (Kind, string, bool) {
	label, ok := firstHit(s, strings.ToLower(s), credentialPatterns)
	return Credential, label, ok
}

// ---- 2. paths and locators ----

var hostConfigPatterns = []pattern{
	pat("a home path through an environment variable", "$ %", `(?i)\$\{?(?:HOME|USERPROFILE|TMPDIR|XDG_[A-Z_]+)\}?(?:[/\\]|\b)|%(?:USERPROFILE|APPDATA|LOCALAPPDATA|HOMEPATH|HOMEDRIVE|TEMP|TMP|PROGRAMDATA)%|\$env:(?:USERPROFILE|HOME|APPDATA|LOCALAPPDATA|TEMP)\b`),
	pat("a user's home path", "~", `(?:^|[\s"'(=,;])~[A-Za-z0-9_.-]+/`),
	pat("a host configuration path", ".ssh/ .aws/ .gnupg/ .kube/ .docker/ .azure/ .gcloud/ .netrc .npmrc .pypirc .pgpass .git-credentials .gitconfig _history .bashrc .zshrc .bash_profile id_rsa id_ed25519 id_ecdsa id_dsa authorized_keys known_hosts .env etc/", `(?:^|[^A-Za-z0-9_])\.(?:ssh|aws|gnupg|kube|docker|azure|gcloud)/|(?:^|[^A-Za-z0-9_])\.(?:netrc|npmrc|pypirc|pgpass|git-credentials|gitconfig|bash_history|zsh_history|bashrc|zshrc|bash_profile)\b|\b(?:id_rsa|id_ed25519|id_ecdsa|id_dsa|authorized_keys|known_hosts)\b|(?:^|[\s"'(=,;])\.env(?:\.[a-z]+)?(?:$|[\s"'),;])|\betc/(?:passwd|shadow|hosts|sudoers)\b`),
	withPre(hostPort, "a host address", "localhost 127.0.0.1 :", `\blocalhost:\d{2,5}\b|\b127\.0\.0\.1\b|\b(?:\d{1,3}\.){3}\d{1,3}:\d{2,5}\b`, nil),
}

func detectLocation(s string) (Kind, string, bool) {
	if fileURL(s) {
		return FileURL, "a file URL", true
	}
	if externalLocator(s) {
		return ExternalLocator, "a scheme:// locator", true
	}
	if absolutePath(s) {
		return AbsolutePath, "an absolute or home path", true
	}
	label, ok := firstHit(s, strings.ToLower(s), hostConfigPatterns)
	return AbsolutePath, label, ok
}

var fileURLPattern = lazyCompile(`(?i)(?:^|[^A-Za-z0-9+.-])file:(?:/|[A-Za-z]:)`)

func fileURL(s string) bool {
	return strings.Contains(strings.ToLower(s), "file:") && fileURLPattern.get().MatchString(s)
}

// externalLocator is the authors' rule: "://" after a scheme, a letter
// then letters, digits, '+', '-' or '.'.
func externalLocator(s string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return false
		}
		i += off
		start := i
		for start > 0 && (isAlnum(s[start-1]) || s[start-1] == '+' || s[start-1] == '-' || s[start-1] == '.') {
			start--
		}
		if start < i && (isUpper(s[start]) || isLower(s[start])) {
			return true
		}
		off = i + 3
	}
}

// absolutePath is the authors' rule: at a boundary (the start, white
// space, or punctuation other than '_' and '-'), "~/", '/' before a
// letter, digit, '/', '.', '_' or '-', a drive letter with ':' and a
// slash either way, or "\\" before a host name. "and/or" and "24/7" have
// no boundary before their slash.
func absolutePath(s string) bool {
	for i := 0; i < len(s); i++ {
		if i > 0 {
			p := s[i-1]
			// Any other byte is a boundary, non-ASCII text included (a
			// UTF-8 sequence ends in a byte of 0x80 or more), as for
			// the authors, whose boundary is any character but an ASCII
			// letter, digit, '_' or '-'.
			if isAlnum(p) || p == '_' || p == '-' {
				continue
			}
		}
		c := s[i]
		next, after := byte(0), byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		if i+2 < len(s) {
			after = s[i+2]
		}
		switch {
		case c == '~' && next == '/':
			return true
		case c == '/' && (isAlnum(next) || next == '/' || next == '.' || next == '_' || next == '-'):
			return true
		case (isUpper(c) || isLower(c)) && next == ':' && (after == '/' || after == '\\'):
			return true
		case c == '\\' && next == '\\' && (isAlnum(after) || after == '.' || after == '_' || after == '-'):
			return true
		}
	}
	return false
}

// ---- 3. agent identifiers ----

var agentIDPatterns = []pattern{
	patCheck("a prefixed agent identifier", "call_ toolu_ thread_ run_ resp_ msg_ asst_ sess_ conv_ conn_ turn_ job_ req_ fc_ ws_ step_ batch_", `\b(?:call|toolu|srvtoolu|thread|run|resp|msg|asst|sess|conv|conn|turn|job|req|fc|ws|step|batch)_([A-Za-z0-9]{12,})\b`, func(m []string) bool { return mixed(m[1]) && digits(m[1]) >= 3 }),
	pat("a completion identifier", "chatcmpl-", `\bchatcmpl-[A-Za-z0-9]{10,}`),
	// An agent thread's identifier whatever its opaque token: letters
	// only or few digits pass the generic rule above, which needs digits
	// to tell a token from a word. Eight characters keep field names
	// (thread_id, thread_count) out; an underscore after the token makes
	// it a name, not an identifier.
	pat("an agent thread identifier", "thread_", `\bthread_[A-Za-z0-9]{8,}\b`),
	patCheck("a labelled agent identifier", "thread session turn job run conversation request call connector runtime source trace span response", `(?i)\b(?:thread|session|turn|job|run|conversation|request|tool[ _-]?call|call|connector|runtime|command[ _-]?source|trace|span|response)[ _-]?id\b\s*[:=#]?\s*["']?([A-Za-z0-9][A-Za-z0-9_.:-]{5,})`, func(m []string) bool { return mixed(m[1]) }),
	patCheck("a labelled agent identifier", "thread session turn job run conversation request call connector runtime source trace span response", `(?i)\b(?:thread|session|conversation|job|connector|runtime)\s*[:=#]\s*["']?([A-Za-z0-9_-]{8,})`, func(m []string) bool { return mixed(m[1]) && digits(m[1]) >= 2 }),
	pat("an agent identifier UUID", "thread session turn job run conversation request call connector runtime trace", `(?i)\b(?:thread|session|turn|job|run|conversation|request|call|connector|runtime|trace)\b[^\n]{0,16}?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`),
	pat("a process identifier", "pid", `(?i)\b(?:pid|ppid)\s*[:=#]?\s*\d{2,}\b`),
}

func detectAgentID(s string) (Kind, string, bool) {
	label, ok := firstHit(s, strings.ToLower(s), agentIDPatterns)
	return AgentIdentifier, label, ok
}

// ---- 4. command lines, tool traffic, transcripts, prompts, environment ----

// Programs whose name is also an English word (or a pet: a python, a
// cat) count only with a flag, a script or a path after them; the others
// also with one of their subcommands.
var (
	wordPrograms = "python|python3|node|cat|make|open|find|go|set|source|echo|env|cd|rm|cp|mv|ls|kill|curl|tar|apt|brew|cargo|bun|codex|claude|gemini|cursor|aider|llm|run|sort|head|tail|watch|touch|say"
	toolPrograms = "bash|zsh|sh|fish|pwsh|powershell|cmd|cmd\\.exe|npm|npx|pnpm|yarn|pip|pip3|pipx|uv|poetry|conda|git|gh|docker|kubectl|helm|terraform|bazel|bazelisk|cmake|gcc|clang|rustc|deno|ruby|perl|php|java|javac|dotnet|ffmpeg|magick|convert|wget|ssh|scp|rsync|chmod|chown|sudo|apt-get|dnf|yum|pacman|systemctl|launchctl|osascript|defaults|xargs|grep|sed|awk|jq|unzip|openssl|ollama|aws|gcloud|az|printenv|export|eval|exec"
	subcommands  = map[string]string{
		"git": "clone commit push pull checkout add status log diff reset rebase merge fetch init stash apply",
		"npm": "install i ci run exec publish test start build init", "pnpm": "install i add run dlx exec", "yarn": "install add run dlx",
		"pip": "install uninstall download", "pip3": "install uninstall download", "pipx": "install run", "uv": "run pip add sync tool",
		"docker": "run build exec pull push compose", "kubectl": "apply get exec delete logs", "gh": "pr repo issue api auth run release",
		"bazel": "build run test query", "bazelisk": "build run test", "brew": "install uninstall",
		"apt": "install", "apt-get": "install update upgrade remove", "dnf": "install update remove", "yum": "install update remove",
		"codex": "exec login resume mcp", "claude": "mcp", "gemini": "mcp", "ollama": "run pull serve", "make": "install",
		"go": "mod vet", "conda": "install create activate", "poetry": "install run add", "systemctl": "start stop restart enable",
		"aws": "s3 ec2 iam sts configure", "gcloud": "auth config compute", "openssl": "req genrsa enc", "helm": "install upgrade",
	}
	programPattern = lazyCompile("(?:^|[\\s;&|(`]|\\$\\()(" + toolPrograms + "|" + wordPrograms + ")[ \\t]+([^\\s;&|]+)(?:[ \\t]+([^\\s;&|]+))?(?:[ \\t]+([^\\s;&|]+))?")
	flagPattern    = lazyCompile(`^(?:--?[A-Za-z][A-Za-z0-9_-]*(?:=\S*)?|\+[rwx]+)$`)
	scriptPattern  = lazyCompile(`^["']?(?:\.{1,2}/|/|~/|[A-Za-z]:\\)|\.(?:py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|ps1|bat|cmd|exe|php|jar)["']?$`)
)

// commandLine reports a program invoked with arguments, prompt or not.
func commandLine(s string) bool {
	if !mayBeCommand(s) {
		return false
	}
	for _, m := range programPattern.get().FindAllStringSubmatch(s, 32) {
		prog, args := m[1], m[2:]
		for _, a := range args {
			if a != "" && (flagPattern.get().MatchString(a) || scriptPattern.get().MatchString(a)) {
				return true
			}
		}
		switch subs := subcommands[prog]; {
		case prog == "npx" && args[0] != "":
			return true
		case prog == "sudo":
			if strings.Contains("|"+toolPrograms+"|", "|"+args[0]+"|") || commandLine(strings.TrimSpace(strings.Join(args, " "))) {
				return true
			}
		case subs != "" && containsWord(subs, args[0]):
			return true
		}
	}
	return false
}

// commandHints are what one of commandLine's arguments holds: a flag, a
// path or a script name.
var commandHints = []string{" -", "\t-", " +", " /", "\t/", "./", "~/", ":\\", ".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".ps1", ".bat", ".cmd", ".exe", ".php", ".jar", "sudo", "npx"}

// mayBeCommand: s holds one of commandHints or the name of a program with
// subcommands, so that the program expression (slow on long prose) runs
// only where it can match.
func mayBeCommand(s string) bool {
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "/") || containsAny(lower, commandHints) {
		return true
	}
	for prog := range subcommands {
		if hasWord(lower, prog) {
			return true
		}
	}
	return false
}

func containsWord(list, w string) bool {
	for _, x := range strings.Fields(list) {
		if x == w {
			return true
		}
	}
	return false
}

var commandPatterns = []pattern{
	pat("a shell prompt", "$ @ ps~sp~ :\\", `(?m)^[ \t]*(?:\$|[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#%]|PS [A-Za-z]:\\[^>\n]*>|[A-Za-z]:\\[^>\n]*>)[ \t]+[A-Za-z./~]`),
	pat("a command chain", "cd~sp~ | $(", `\bcd[ \t]+\S+[ \t]*(?:&&|;|\|\|)|\|[ \t]*(?:grep|sed|awk|xargs|sh|bash|zsh|tee|jq|head|tail|wc|sort|base64)\b|\$\([a-z]`),
	pat("tool-call traffic", "< \"tool_use\" \"tool_result\" \"function_call\" \"type\" functions.", `(?i)</?(?:tool_call|tool_use|tool_result|function_calls|function_results|invoke|antml:[a-z_]+)\b|"(?:tool_use|tool_result|function_call)"|"type"\s*:\s*"function"|\bfunctions\.[a-z_]+\(`),
	pat("tool output", "traceback exit~sp~ stdout stderr npm~sp~err! command~sp~not~sp~found no~sp~such~sp~file permission~sp~denied", `Traceback \(most recent call last\)|(?i)\bexit (?:code|status)\s*[:=]?\s*-?\d+\b|(?m)^[ \t]*(?:stdout|stderr)\s*:|\bnpm ERR!|: command not found\b|: No such file or directory\b|\bPermission denied \(publickey`),
	pat("a chat-format token", "<| [inst] [/inst] <<sys>> <start_of_turn> <end_of_turn>", `<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<</?SYS>>|<start_of_turn>|<end_of_turn>`),
	pat("hidden reasoning", "< chain hidden~sp~reasoning internal~sp~reasoning internal~sp~monologue reasoning~sp~trace", `(?i)</?(?:think|thinking|reasoning|scratchpad|inner_monologue)>|(?i)\b(?:chain[- ]of[- ]thought|hidden reasoning|internal reasoning|internal monologue|reasoning trace)\s*:`),
	pat("an internal prompt", "~sp~prompt ~sp~message ~sp~instruction you~sp~are <system>", `(?i)\b(?:system|developer|internal|hidden) (?:prompt|message|instructions?)\s*:|(?i)\byou are (?:chatgpt|claude|codex|gemini|copilot|a helpful assistant|an ai assistant|an ai language model|a large language model)\b|(?i)<system>`),
}

var rolePattern = lazyCompile(`(?im)(?:^|[.!?]["')]*[ \t]+)[ \t>*#-]*\**(user|human|assistant|system|developer|ai)\**[ \t]*:[ \t]*\S`)

// transcript: a turn labelled as the user's and one as the assistant's
// (or system's), as a chat log has. A turn's label starts a line or
// follows the end of a sentence, so a log written on one line, or after a
// sentence of description, is one too; a label inside a sentence ("the
// user: ...") is prose. One "System:" line alone is a render note's
// heading, not a conversation.
func transcript(s string) bool {
	if lower := strings.ToLower(s); !strings.Contains(lower, "user") && !strings.Contains(lower, "human") {
		return false
	}
	user, other := false, false
	for _, m := range rolePattern.get().FindAllStringSubmatch(s, 64) {
		switch strings.ToLower(m[1]) {
		case "user", "human":
			user = true
		default:
			other = true
		}
	}
	return user && other
}

var envPatterns = []pattern{
	pat("an environment variable", "=", `\b(?:PATH|HOME|USER|USERNAME|LOGNAME|SHELL|PWD|OLDPWD|LANG|LC_ALL|TERM|TMPDIR|HOSTNAME|EDITOR|DISPLAY|SSH_AUTH_SOCK|PYTHONPATH|GOPATH|GOROOT|NODE_ENV|JAVA_HOME|USERPROFILE|APPDATA|LOCALAPPDATA|COMPUTERNAME|SYSTEMROOT|XDG_[A-Z_]+|CODEX_[A-Z_]+|OPENAI_[A-Z_]+|ANTHROPIC_[A-Z_]+|AWS_[A-Z_]+|GITHUB_[A-Z_]+)=\S*`),
	pat("an environment assignment", "export setenv declare~sp~-x $env: set~sp~", `\b(?:export|setenv|declare -x)[ \t]+[A-Za-z_][A-Za-z0-9_]*=|\$env:[A-Za-z_][A-Za-z0-9_]*\s*=|(?m)^[ \t]*set [A-Z_][A-Z0-9_]*=`),
}

var envAssignment = lazyCompile(`(?:^|\s)[A-Z][A-Z0-9_]{2,}=\S+`)

func detectCommand(s string) (Kind, string, bool) {
	if label, ok := firstHit(s, strings.ToLower(s), envPatterns); ok {
		return Environment, label, true
	}
	if strings.Count(s, "=") >= 2 && len(envAssignment.get().FindAllStringIndex(s, 2)) >= 2 {
		return Environment, "an environment dump", true
	}
	if label, ok := firstHit(s, strings.ToLower(s), commandPatterns); ok {
		return CommandLine, label, true
	}
	if commandLine(s) {
		return CommandLine, "a command line", true
	}
	if transcript(s) {
		return CommandLine, "a chat transcript", true
	}
	return CommandLine, "", false
}

// ---- 5. executable code and override text ----

var codePatterns = []pattern{
	pat("a script element or handler", "< script data: =", `(?i)<\s*/?\s*(?:script|iframe|object|embed|applet)\b|(?i)\b(?:javascript|vbscript)\s*:|(?i)\bdata:\s*text/(?:html|javascript)|(?i)\bon(?:load|error|click|mouseover|focus|begin)\s*=\s*\S|<\?php|<%[=@]?\s`),
	pat("a code call", "eval( exec( execfile( __import__( new~sp~function os. subprocess. child_process runtime.getruntime invoke-expression iex powershell document. window.location ${jndi: :(){", `\b(?:eval|exec|execfile|__import__)\(|\bnew Function\s*\(|\bos\.(?:system|popen|exec[lv]p?e?)\s*\(|\bsubprocess\.(?:run|call|Popen|check_output|check_call)\b|\bchild_process\b|\bRuntime\.getRuntime\(\)\.exec|\bInvoke-Expression\b|\bIEX\s*\(|\bpowershell(?:\.exe)?\s+-(?:e|ec|enc|encodedcommand)\b|\bdocument\.(?:cookie|write)\b|\bwindow\.location\s*=|\$\{jndi:|:\(\)\s*\{\s*:\|:&\s*\};:`),
	pat("program source", "#! import~sp~ from~sp~ def~sp~ function ```", `(?m)^#!\s*/|(?m)^[ \t]*(?:import (?:os|sys|subprocess|socket|shutil)\b|from (?:os|subprocess) import\b)|\bdef [A-Za-z_]\w*\s*\([^)]*\)\s*:|\bfunction\s*[A-Za-z_$]*\s*\([^)]*\)\s*\{|`+"```"+`[ \t]*(?:bash|sh|zsh|shell|console|python|py|js|javascript|ts|typescript|powershell|ps1|cmd|bat|ruby|perl|php)\b`),
	pat("an instruction override", "ignore disregard forget override bypass", `(?i)\b(?:ignore|disregard|forget|override|bypass)\b(?:\s+(?:all|any|the|your|my|of|these|those|every|previous|prior|above|earlier|preceding|system|safety|other))*\s+(?:instructions?|prompts?|guidelines|directives|guardrails|safety checks?|validation(?: checks?)?|system prompt)\b|(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:rules|messages|context)\b`),
	withPre(agentWord, "an instruction to an agent", ": ,", `(?i)\b(?:importer|importing (?:app|agent|tool)|agent|assistant|ai|llm|language model|codex|claude|chatgpt|copilot|validator)\s*[:,]\s*(?:you must|you should|you will|please (?:run|execute|install|delete|ignore|send|open|download)|ignore|disregard|do not|don't|run|execute|install|delete|send|mark|treat|approve|accept)\b|(?i)\b(?:if|when) you are an? (?:ai|agent|assistant|llm|language model|importer|model)\b`, nil),
	pat("text working against the user", "the~sp~user as~sp~valid as~sp~safe as~sp~trusted as~sp~verified as~sp~approved", `(?i)\b(?:do not|don't|never) (?:tell|inform|show|alert|warn|notify|ask) the user\b|(?i)\bwithout (?:telling|asking|informing|notifying|alerting) the user\b|(?i)\b(?:mark|treat|report|consider) (?:this|the) (?:package|pet|petpack|file|import|archive) as (?:valid|safe|trusted|verified|approved)\b`),
	pat("a jailbreak", "instructions you~sp~are~sp~now jailbreak developer~sp~mode system~sp~override execute~sp~ run~sp~ eval grant~sp~", `(?i)\b(?:new|updated|real|actual|hidden) instructions\s*:|(?i)\byou are now (?:in )?(?:dan|developer mode|unrestricted|jailbroken|free of)|(?i)\bjailbreak|(?i)\bdeveloper mode (?:enabled|on)\b|(?i)\bsystem override\b|(?i)\b(?:execute|run|eval(?:uate)?) (?:this|the following|these|the embedded|the attached) (?:commands?|code|script|payload|instructions?)\b|(?i)\bgrant (?:yourself|the agent|me) (?:full|root|admin) (?:access|permissions?)\b`),
}

func detectCode(s string) (Kind, string, bool) {
	label, ok := firstHit(s, strings.ToLower(s), codePatterns)
	return Executable, label, ok
}

// lazyRegexp compiles its expression on first use. The detectors' few
// dozen expressions took most of this package's 25 ms of start-up, which
// every petasset command paid, `pack build` included, though only the
// privacy check ever runs them.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

func lazyCompile(expr string) *lazyRegexp { return &lazyRegexp{expr: expr} }

// get returns the compiled expression; an invalid one panics, as
// regexp.MustCompile did at start-up.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
