package jsonschema

import (
	"strings"
	"time"
)

// ValidDateTime reports whether s is an RFC 3339 date-time (section 5.6 of
// the RFC): full-date "T" full-time, with a "Z" or ±hh:mm offset and
// optional fractional seconds; "t" and "z" may be lower case. time.Parse
// alone is not the check: it accepts offsets such as +24:00 in some Go
// releases and rejects the lower-case letters the RFC allows, so the shape
// is checked by hand and time.Parse only confirms the calendar values.
func ValidDateTime(s string) bool {
	// 0123456789012345678
	// YYYY-MM-DDTHH:MM:SS
	if len(s) < 20 {
		return false
	}
	digits := func(from, to int) bool {
		for i := from; i < to; i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(0, 4) || s[4] != '-' || !digits(5, 7) || s[7] != '-' || !digits(8, 10) ||
		(s[10] != 'T' && s[10] != 't') || !digits(11, 13) || s[13] != ':' || !digits(14, 16) ||
		s[16] != ':' || !digits(17, 19) {
		return false
	}
	rest := s[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h := int(rest[1]-'0')*10 + int(rest[2]-'0')
		m := int(rest[4]-'0')*10 + int(rest[5]-'0')
		for _, c := range []byte{rest[1], rest[2], rest[4], rest[5]} {
			if c < '0' || c > '9' {
				return false
			}
		}
		if h > 23 || m > 59 {
			return false
		}
	default:
		return false
	}
	norm := strings.ToUpper(s[:19]) + strings.ToUpper(s[19:])
	// Seconds of 60 (a leap second) are RFC 3339 but time.Parse refuses
	// them; check the rest of the calendar with :59 in their place.
	if norm[17:19] == "60" {
		norm = norm[:17] + "59" + norm[19:]
	}
	_, err := time.Parse(time.RFC3339Nano, norm)
	return err == nil
}
