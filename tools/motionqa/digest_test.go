package motionqa

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// The expected values below were computed outside the Go code by
// testdata/digest_vectors.py (Python's hashlib, struct and zlib under
// Debian's /usr/bin/python3), which also wrote the two 2x2 frames in
// testdata/digest/tool/ with its own PNG writer:
//
//	cd tools/motionqa/testdata && /usr/bin/python3 digest_vectors.py
//
// The frames cover each normalisation case: opaque, alpha 15 (cleared),
// alpha 16 (kept), alpha 128 and 127 (premultiplied with rounding) and
// hidden colour under alpha 0.
var digestVectors = struct {
	frame, decoded           map[string]string
	motion, frameSet, timing string
}{
	frame: map[string]string{
		"0000.png": "5f5b1267728ba38568525155ffd0ea04acc03fd41465cd4782b3290a4725c62d",
		"0001.png": "59e9efe05b11e86dff3876bde9356a7ffad32c7526768f4d34db91458fb4c624",
	},
	decoded: map[string]string{
		"0000.png": "68a90967a602d8d8c01ff9454fb75742acad8f0c50af558e7c26a389f5efc56e",
		"0001.png": "5d655ef8bbba9dc08f575de976fdb798cb89c21ac16af1eb741d8e6a9919568c",
	},
	motion:   "b02d625da01a7a3a08423ba5c8f6f22e754b6cfc573fdba0047e52e83d6e2c16",
	frameSet: "c656edb4e6e728e8a3caf017927fa71954b14fe5ee3e0eb456a7d6fa0925dba3",
	timing:   "baaf5da51ef80fb50fb0ea261692e72ccee718cf34e56a63ec87bea4dc4cae93",
}

func TestDigestsMatchIndependentVectors(t *testing.T) {
	var nd []NamedDigest
	for _, name := range []string{"0000.png", "0001.png"} {
		data, err := os.ReadFile(filepath.Join("testdata/digest/tool", name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		f := ToNRGBA(img)
		if got := FrameDigest(f); got != digestVectors.frame[name] {
			t.Errorf("%s: frame digest %s, want %s", name, got, digestVectors.frame[name])
		}
		if got := DecodedFrameDigest(f); got != digestVectors.decoded[name] {
			t.Errorf("%s: decoded frame digest %s, want %s", name, got, digestVectors.decoded[name])
		}
		nd = append(nd, NamedDigest{name, FrameDigest(f)})
	}
	md := MotionDigest(petpack.ActionTool, nd)
	if md != digestVectors.motion {
		t.Errorf("motion_digest %s, want %s", md, digestVectors.motion)
	}
	if got := FrameSetDigest(map[petpack.Action]string{petpack.ActionTool: md}); got != digestVectors.frameSet {
		t.Errorf("frame_set_digest %s, want %s", got, digestVectors.frameSet)
	}
	defaults := map[petpack.Action]petpack.State{}
	for _, st := range petpack.DefaultStates() {
		defaults[st.Name] = st
	}
	states := []petpack.State{defaults[petpack.ActionIdle], defaults[petpack.ActionWaiting]}
	if got := TimingDigest(states); got != digestVectors.timing {
		t.Errorf("timing_digest %s of %s, want %s", got, TimingJSON(states), digestVectors.timing)
	}
}

// TestKeyframeIndices holds the authors' five keyframes, as Python's
// round (halves to even) gives them (testdata/digest_vectors.py prints
// the same table).
func TestKeyframeIndices(t *testing.T) {
	want := map[int]string{
		1: "[0]", 2: "[0 1]", 3: "[0 1 2]", 4: "[0 1 2 3]", 5: "[0 1 2 3 4]", 6: "[0 1 2 4 5]",
		7: "[0 2 3 4 6]", 8: "[0 2 4 5 7]", 9: "[0 2 4 6 8]", 10: "[0 2 4 7 9]", 11: "[0 2 5 8 10]", 12: "[0 3 6 8 11]",
	}
	for n, w := range want {
		if got := fmt.Sprint(KeyframeIndices(n)); got != w {
			t.Errorf("KeyframeIndices(%d) = %s, want %s", n, got, w)
		}
	}
}
