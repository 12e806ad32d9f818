package jsonschema

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// Decode parses one JSON value for Validate: objects become
// map[string]interface{}, arrays []interface{}, numbers json.Number (never
// float64, so 50 and 50.5 and 1e400 stay what they were written as).
// Duplicate keys are the caller's to refuse before this (encoding/json keeps
// the last).
func Decode(data []byte) (interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// decimal is a JSON number as sign, significant digits and exponent:
// value = digits × 10^exp, with no leading or trailing zero in digits (""
// is zero). Equal numbers have equal decimals, however they were written
// (50, 50.0, 5e1, 0.5E2).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// maxExponent bounds the exponent read from a number's text: a hostile
// 1e999999999 is still compared correctly (as huge) without computing it.
const maxExponent = 1 << 20

func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, expPart := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expPart = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	if intPart == "" {
		return d, false
	}
	exp := 0
	if expPart != "" {
		neg := false
		switch expPart[0] {
		case '-':
			neg, expPart = true, expPart[1:]
		case '+':
			expPart = expPart[1:]
		}
		if expPart == "" {
			return d, false
		}
		for _, c := range expPart {
			if c < '0' || c > '9' {
				return d, false
			}
			if exp < maxExponent {
				exp = exp*10 + int(c-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	digits := intPart + frac
	for _, c := range digits {
		if c < '0' || c > '9' {
			return d, false
		}
	}
	exp -= len(frac)
	digits = strings.TrimLeft(digits, "0")
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	d.digits, d.exp = digits, exp
	if digits == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

func (d decimal) isInteger() bool { return d.digits == "" || d.exp >= 0 }

// magnitude is the number of digits before the decimal point (may be
// negative for |d| < 1).
func (d decimal) magnitude() int { return len(d.digits) + d.exp }

// cmpInt compares d with the integer b: -1, 0 or +1.
func (d decimal) cmpInt(b int64) int {
	if d.digits == "" {
		return sign(0, b)
	}
	m := d.magnitude()
	switch {
	case m > 19: // |d| >= 10^19 > any int64
		if d.neg {
			return -1
		}
		return 1
	case m < -19: // 0 < |d| < 1: compares like a tiny signed value
		if d.neg {
			if b >= 0 {
				return -1
			}
			return 1
		}
		if b <= 0 {
			return 1
		}
		return -1
	}
	r, ok := new(big.Rat).SetString(d.String())
	if !ok {
		return 0
	}
	return r.Cmp(new(big.Rat).SetInt64(b))
}

func sign(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// String writes d as digits with an exponent, for big.Rat and messages.
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	s := d.digits
	if d.exp != 0 {
		s += "e" + strconv.Itoa(d.exp)
	}
	if d.neg {
		s = "-" + s
	}
	return s
}

// Int64 returns the number as an int64 when it is an integer that fits.
func Int64(n json.Number) (int64, bool) {
	d, ok := parseDecimal(string(n))
	if !ok || !d.isInteger() || d.magnitude() > 18 {
		return 0, false
	}
	if d.digits == "" {
		return 0, true
	}
	v, err := strconv.ParseInt(d.digits+strings.Repeat("0", d.exp), 10, 64)
	if err != nil {
		return 0, false
	}
	if d.neg {
		v = -v
	}
	return v, true
}

// typeOf is the JSON type of a decoded value; a number with no fraction is
// "integer" (it is a "number" too).
func typeOf(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []interface{}:
		return "array"
	case map[string]interface{}:
		return "object"
	case json.Number:
		if d, ok := parseDecimal(string(x)); ok && d.isInteger() {
			return "integer"
		}
		return "number"
	case int, int64:
		return "integer"
	}
	return "unknown"
}

// normalize turns a schema constant (int, int64, string, bool, nil) into
// the decoded form Validate compares with.
func normalize(v interface{}) interface{} {
	switch x := v.(type) {
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	}
	return v
}

// Equal reports whether two decoded JSON values are equal as JSON Schema
// compares them: numbers by value, objects by their members in any order.
func Equal(a, b interface{}) bool {
	a, b = normalize(a), normalize(b)
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		dx, ok1 := parseDecimal(string(x))
		dy, ok2 := parseDecimal(string(y))
		return ok1 && ok2 && dx == dy
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	return false
}
