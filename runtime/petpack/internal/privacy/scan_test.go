package privacy

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTables runs each bullet's leaks and harmless text through the
// whole scan as a string value: every leak raises one of its bullet's
// rules, and no harmless text raises any rule at all.
func TestTables(t *testing.T) {
	for _, tb := range privacyTables {
		if len(tb.leaks) < 20 || len(tb.harmless) < 20 {
			t.Errorf("bullet %s: %d leaks and %d harmless texts, want 20 of each", tb.bullet, len(tb.leaks), len(tb.harmless))
		}
		for _, s := range tb.leaks {
			found := scanString(t, s)
			hit := false
			for _, f := range found {
				for _, r := range tb.rules {
					hit = hit || f.Kind == r
				}
			}
			if !hit {
				t.Errorf("bullet %s: leak not caught: %q (found %v)", tb.bullet, s, found)
			}
		}
		for _, s := range tb.harmless {
			if found := scanString(t, s); len(found) != 0 {
				t.Errorf("bullet %s: harmless text flagged: %q: %v", tb.bullet, s, found)
			}
		}
	}
	for _, tb := range privacyKeyTables {
		for _, k := range tb.leaks {
			if r, _, ok := forbiddenKey(k); !ok || r != tb.rule {
				t.Errorf("key %q: got %q %v, want %s", k, r, ok, tb.rule)
			}
		}
		for _, k := range tb.harmless {
			if r, name, ok := forbiddenKey(k); ok {
				t.Errorf("harmless key %q flagged as %s (%q)", k, r, name)
			}
		}
	}
}

// scanString scans s as the one string value of a document.
func scanString(t *testing.T, s string) []Finding {
	t.Helper()
	doc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	found, err := Scan(doc)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestBaseline pins the contract authors' lists and bounds.
func TestBaseline(t *testing.T) {
	if len(baselineKeys) != 57 || len(baselineAffixes) != 9 {
		t.Errorf("%d baseline names and %d affixes, want 57 and 9", len(baselineKeys), len(baselineAffixes))
	}
	for name := range baselineKeys {
		if _, _, ok := forbiddenKey(name); !ok {
			t.Errorf("baseline name %q not found", name)
		}
	}
	// The authors' value rules, at and off their boundaries.
	for s, want := range map[string]bool{
		"~/x": true, "/x": true, "a /x": true, "(/x)": true, "C:/x": true, `C:\x`: true, `\\host`: true, "x+/y": true,
		"中/x": true, "→/x": true, "a/x": false, "24/7": false, "_/x": false, "-/x": false, "/ x": false, "C:x": false, "ftp:/x": true,
	} {
		if got := absolutePath(s); got != want {
			t.Errorf("absolutePath(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"a://b": true, "git+ssh://h": true, "x.y-z://": true, "://x": false, "1a://x": false, "see ://x": false,
	} {
		if got := externalLocator(s); got != want {
			t.Errorf("externalLocator(%q) = %v, want %v", s, got, want)
		}
	}
	// Values down to depth 64 (the root is 0) are read; one deeper is
	// refused.
	ok := []byte(strings.Repeat("[", 66) + strings.Repeat("]", 66))
	if found, _ := Scan(ok[1 : len(ok)-1]); len(found) != 0 {
		t.Errorf("depth 64 refused: %v", found)
	}
	if found, _ := Scan(ok); len(found) != 1 || found[0].Kind != TooComplex {
		t.Errorf("depth 65: %v", found)
	}
	many := []byte("[" + strings.TrimSuffix(strings.Repeat("0,", MaxNodes-1), ",") + "]")
	if found, _ := Scan(many); len(found) != 0 {
		t.Errorf("65,536 values refused: %v", found)
	}
}
