package pack_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/testsupport/assetpackbuildtest"
	"github.com/agentpet/rules_pet/internal/testsupport/fuzzseed"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzRead from the test packs")

const seedDir = "testdata/fuzz/FuzzRead"

// FuzzRead checks, for the input and for the input with its length and
// check resealed (so mutations get past the CRC and reach the structural
// rules): Read never panics; a rejection is a *pack.Error that leaves the
// destination zero; and an accepted pack, materialised and re-encoded by
// the converter from its own payloads, gives back exactly the same bytes.
// The seeds in testdata/fuzz/FuzzRead also run as plain tests.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReadProperties(t, data)
		if len(data) >= assetpackformat.MinPackLength && len(data) <= assetpackformat.MaxPackLength {
			checkReadProperties(t, fixCheck(clone(data)))
		}
	})
}

func checkReadProperties(t *testing.T, data []byte) {
	dst := pack.Pack{Check: 7, Images: []pack.Image{{ID: "stale"}}}
	err := pack.ReadInto(data, &dst)
	if verr := pack.Verify(data); (verr == nil) != (err == nil) {
		t.Fatalf("Verify = %v, ReadInto = %v", verr, err)
	}
	if err != nil {
		var pe *pack.Error
		if !errors.As(err, &pe) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if !reflect.DeepEqual(dst, pack.Pack{}) {
			t.Fatalf("rejection left %+v", dst)
		}
		return
	}
	m := dst.Manifest()
	images := make([]assetpackbuild.Image, len(dst.Entries))
	for i, e := range dst.Entries {
		if &e.Colour[0] != &data[e.ColourOffset] || &e.Mask[0] != &data[e.MaskOffset] {
			t.Fatalf("entry %d payloads do not alias the input", i)
		}
		images[i] = assetpackbuild.Image{Width: int(e.Width), Height: int(e.Height), Colour: e.Colour, Mask: e.Mask}
	}
	again, err := assetpackbuild.Encode(&m, images)
	if err != nil {
		t.Fatalf("accepted pack does not re-encode: %v", err)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("re-encoded pack differs: %s", assetpackformat.FirstDifference(again, data))
	}
}

// seeds are the fuzz corpus: the golden pack, small valid packs, and
// damaged ones that each stop at a different rule.
func seeds(t *testing.T) map[string][]byte {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	minimal, padded := minimalPack(t), paddedPack(t)
	s := map[string][]byte{
		"golden":            golden,
		"minimal":           minimal,
		"padded":            padded,
		"limits_small":      encode(t, limitsManifest(), smallLimitsImages()),
		"truncated_header":  minimal[:20],
		"bad_magic":         append([]byte("PETQ"), minimal[4:]...),
		"truncated":         padded[:len(padded)-8],
		"check_mismatch":    func() []byte { b := clone(padded); b[40] ^= 1; return b }(),
		"count_resealed":    fixCheck(set16(hdrFrames, 129)(clone(minimal))),
		"misaligned":        fixCheck(at(entry(0, 4), add32(2))(clone(padded))),
		"padding_nonzero":   fixCheck(func(b []byte) []byte { b[len(b)-5] = 9; return b }(clone(padded))),
		"layout_mismatch":   fixCheck(at(entry(1, 12), add32(4))(clone(padded))),
		"unterminated_role": fixCheck(at(role(0, 0), fill(32, 'r'))(clone(minimal))),
	}
	return s
}

// smallLimitsImages keeps the limits seed small: every image 2 by 2.
func smallLimitsImages() []assetpackbuild.Image {
	var images []assetpackbuild.Image
	for i := 0; i < 32; i++ {
		images = append(images, assetpackbuildtest.Synth(2, 2, i))
	}
	return images
}

// TestFuzzSeeds writes the corpus with -update-seeds and otherwise checks
// that it is there and current, so the plain test run exercises every seed.
func TestFuzzSeeds(t *testing.T) {
	fuzzseed.Sync(t, seedDir, seeds(t), *updateSeeds, "go test ./runtime/pack -run TestFuzzSeeds -update-seeds")
}
