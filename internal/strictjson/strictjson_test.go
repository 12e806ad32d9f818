package strictjson

import (
	"encoding/json"
	"testing"
)

func TestCheckObject(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Problem
	}{
		{"an object", `{"a": [1, {"b": "x"}], "c": null}`, nil},
		{"an empty object", ` {} `, nil},
		{"an array", `[]`, []Problem{{Malformed, "", "the document is not a JSON object"}}},
		{"nothing", ``, []Problem{{Malformed, "", "the document ends early"}}},
		{"two objects", `{}{}`, []Problem{{Malformed, "", "data follows the top-level object"}}},
		{"cut short", `{"a": [1,`, []Problem{{Malformed, "", "the document ends early"}}},
		{"not UTF-8", "{\"a\": \"\xff\"}", []Problem{{Malformed, "", "the file is not valid UTF-8"}}},
		{"a key twice", `{"a": 1, "a": 2}`, []Problem{{DuplicateKey, "/a", `key "a" appears more than once in one object`}}},
		{"a key twice once unescaped", `{"a": 1, "\u0061": 2}`, []Problem{{DuplicateKey, "/a", `key "a" appears more than once in one object`}}},
		{"a nested key twice", `{"s": [{"x/y": {"k": 1, "k": 2}}]}`, []Problem{{DuplicateKey, "/s/0/x~1y/k", `key "k" appears more than once in one object`}}},
		{"the same key in two objects", `{"a": {"k": 1}, "b": {"k": 2}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckObject([]byte(tc.in))
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %+v, want %+v", got[i], tc.want[i])
				}
			}
		})
	}
	if p := CheckObject([]byte(`{"a": 1 2}`)); len(p) != 1 || p[0].Kind != Malformed {
		t.Fatalf("a syntax error: %+v", p)
	}
}

func TestPointer(t *testing.T) {
	if got := Pointer([]string{"a/b", "c~d", "0"}); got != "/a~1b/c~0d/0" {
		t.Fatalf("Pointer = %q", got)
	}
	if got := EscapeToken("x/~"); got != "x~1~0" {
		t.Fatalf("EscapeToken = %q", got)
	}
}

// FuzzCheckObject: any bytes; never panics, every problem has a kind, and
// bytes it accepts are valid JSON that encoding/json reads as one object.
// The seeds in testdata/fuzz/FuzzCheckObject also run as plain tests.
func FuzzCheckObject(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		probs := CheckObject(data)
		for _, p := range probs {
			if p.Kind != Malformed && p.Kind != DuplicateKey {
				t.Fatalf("problem of kind %d", p.Kind)
			}
		}
		if len(probs) > 0 {
			return
		}
		var m map[string]interface{}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if err := json.Unmarshal(data, &m); err != nil && len(data) < 1<<16 {
			t.Fatalf("accepted bytes encoding/json does not read as an object: %v", err)
		}
	})
}
