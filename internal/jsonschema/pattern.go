package jsonschema

import (
	"regexp"
	"strings"
	"sync"
)

// ecmaSpace is ECMA-262's \s: its WhiteSpace and LineTerminator code
// points. Go's \s is ASCII only, so a name of one no-break space would pass
// a "\S" pattern in Go and fail it in JSON Schema.
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// translate rewrites an ECMA-262 pattern for Go's RE2. The schemas use
// only the syntax the two share, except \s and \S, which are rewritten
// outside and inside character classes (a negated \S inside a class has no
// RE2 form and panics, which a test of every schema would show).
func translate(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			i++
			switch {
			case next == 's' && inClass:
				b.WriteString(ecmaSpace)
			case next == 's':
				b.WriteString("[" + ecmaSpace + "]")
			case next == 'S' && !inClass:
				b.WriteString("[^" + ecmaSpace + "]")
			case next == 'S':
				panic("jsonschema: \\S inside a character class: " + p)
			default:
				b.WriteByte('\\')
				b.WriteByte(next)
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// patterns caches each compiled pattern; validations may run concurrently.
var patterns sync.Map

func compile(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(translate(p))
	patterns.Store(p, re)
	return re
}
