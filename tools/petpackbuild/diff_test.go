package petpackbuild

import (
	"strings"
	"testing"
)

func TestFirstDifference(t *testing.T) {
	base := []File{{Path: "a.txt", Data: []byte("one")}, {Path: "b/c.txt", Data: []byte("two")}}
	archive := func(files []File) []byte {
		b, err := Archive(files)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want := archive(base)
	tests := []struct {
		name  string
		got   []byte
		match string
	}{
		{"equal", archive(base), ""},
		{"content", archive([]File{base[0], {Path: "b/c.txt", Data: []byte("TWO!")}}), "entry b/c.txt: content differs (4 bytes, 3 bytes)"},
		{"missing entry", archive(base[:1]), "entry b/ is only in the second archive"},
		{"extra entry", archive(append(append([]File(nil), base...), File{Path: "z.txt"})), "entry z.txt is only in the first archive"},
		{"renamed", archive([]File{{Path: "a.txt", Data: []byte("one")}, {Path: "b/d.txt", Data: []byte("two")}}), "entry 2 is b/d.txt in the first archive and b/c.txt in the second"},
		{"not an archive", []byte("junk"), "the first archive does not open"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FirstDifference(tc.got, want)
			if tc.match == "" && got != "" || !strings.Contains(got, tc.match) {
				t.Fatalf("FirstDifference = %q, want %q", got, tc.match)
			}
		})
	}
}
