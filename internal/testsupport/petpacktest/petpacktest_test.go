package petpacktest

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestRewriteAndUnpack(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.zip")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range []Entry{{"a.json", []byte(`{"id":"pet_tabby"}`)}, {"b/c.txt", []byte("keep")}} {
		write(t, zw, &zip.FileHeader{Name: e.Name, Method: zip.Deflate}, e.Data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out := filepath.Join(dir, "out.zip")
	Rewrite(t, src, out, Replace("a.json", "pet_tabby", "pet_other"), Entry{"a.json", []byte("ignored: present")}, Entry{"new.txt", []byte("added")})
	got := Unpack(t, out, filepath.Join(dir, "x"))
	for name, want := range map[string]string{"a.json": `{"id":"pet_other"}`, "b/c.txt": "keep", "new.txt": "added"} {
		b, err := os.ReadFile(filepath.Join(got, filepath.FromSlash(name)))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

// TestReduceMotionPet: the fixture validates, and no two actions share a
// reduced-motion index or a frame, so a presentation that shows another
// action's representative frame cannot pass for the right one.
func TestReduceMotionPet(t *testing.T) {
	dir := t.TempDir()
	m := ReduceMotionPet(t, filepath.Join(dir, "a.petpack"))
	m2 := ReduceMotionPet(t, filepath.Join(dir, "b.petpack"))
	a, _ := os.ReadFile(filepath.Join(dir, "a.petpack"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.petpack"))
	if len(a) == 0 || string(a) != string(b) || m.ID != m2.ID {
		t.Fatal("two builds of the Reduce Motion pet differ")
	}
	seenIndex := map[int]string{}
	seenFrame := map[string]string{}
	for _, s := range m.States {
		if prev, dup := seenIndex[s.ReducedMotionFrameIndex]; dup {
			t.Errorf("%s and %s share reduced_motion_frame_index %d", prev, s.Name, s.ReducedMotionFrameIndex)
		}
		seenIndex[s.ReducedMotionFrameIndex] = string(s.Name)
		if p := s.Playback.SettleFrameIndex; p != nil && *p == s.ReducedMotionFrameIndex {
			t.Errorf("%s: the settle frame is the representative frame", s.Name)
		}
		for i := range s.FrameDurationsMS {
			f := string(ReduceMotionFrame(s.Name, i))
			if prev, dup := seenFrame[f]; dup {
				t.Errorf("%s frame %d is %s", s.Name, i, prev)
			}
			seenFrame[f] = fmt.Sprintf("%s frame %d", s.Name, i)
		}
	}
	if len(seenIndex) != 9 {
		t.Fatalf("%d distinct indices, want 9", len(seenIndex))
	}
}
