package jsonschema

import "testing"

func TestValidDateTime(t *testing.T) {
	for s, want := range map[string]bool{
		"2025-01-02T03:04:05Z":           true,
		"2025-01-02t03:04:05z":           true,
		"2025-01-02T03:04:05.123456Z":    true,
		"2025-01-02T03:04:05+05:30":      true,
		"2025-01-02T03:04:05-00:00":      true,
		"2016-12-31T23:59:60Z":           true,
		"2024-02-29T00:00:00Z":           true,
		"2025-02-29T00:00:00Z":           false,
		"2025-01-02T03:04:05+24:00":      false,
		"2025-01-02T03:04:05+0530":       false,
		"2025-01-02 03:04:05Z":           false,
		"2025-01-02T03:04:05.Z":          false,
		"2025-01-02T24:00:00Z":           false,
		"2025-1-02T03:04:05Z":            false,
		"2025-01-02T03:04:05Z ":          false,
		" 2025-01-02T03:04:05Z":          false,
		"2025-01-02T03:04:05+05:3x":      false,
		"":                               false,
		"2025-01-02T03:04:05.000000001Z": true,
	} {
		if got := ValidDateTime(s); got != want {
			t.Errorf("ValidDateTime(%q) = %v, want %v", s, got, want)
		}
	}
}
