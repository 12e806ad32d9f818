package model

import "strings"

// NaturalLess is the ASCII natural comparator of section 6 that orders a
// state's frames: runs of ASCII digits compare by numeric value (so 2.png
// sorts before 10.png), every other byte by its value. Names equal under
// that reading ("01.png" and "1.png") fall back to byte order, so the
// order is total and the same on every platform.
func NaturalLess(a, b string) bool {
	return naturalCompare(a, b) < 0
}

func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			// Compare without leading zeros: first by length, then by
			// digits, which needs no integer that could overflow.
			da, db := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if len(da) != len(db) {
				return sign(len(da) - len(db))
			}
			if c := strings.Compare(da, db); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return sign(int(a[i]) - int(b[j]))
		}
		i++
		j++
	}
	if c := sign((len(a) - i) - (len(b) - j)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
