package manifest

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParse checks that no input panics the parser, that a rejection leaves
// the destination empty, and that an accepted manifest survives Format and a
// second parse unchanged (and Format is a fixed point after one pass). Seeds
// live in testdata/fuzz/FuzzParse and run as ordinary tests.
func FuzzParse(f *testing.F) {
	f.Add([]byte(canonical(f)))
	f.Add([]byte(minimal()))
	f.Fuzz(func(t *testing.T, data []byte) {
		dst := Manifest{Fallback: 7, Images: []Image{{ID: "stale"}}}
		err := ParseInto(data, &dst)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !reflect.DeepEqual(dst, Manifest{}) {
				t.Fatalf("rejection left %+v", dst)
			}
			return
		}
		text := Format(&dst)
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("formatted manifest rejected: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(*again, dst) {
			t.Fatalf("round trip differs:\n%+v\n%+v", *again, dst)
		}
		if !bytes.Equal(Format(again), text) {
			t.Fatalf("Format is not stable")
		}
	})
}
