package pack_test

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/testsupport/assetpackbuildtest"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/manifest/manifesttest"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

// The tests build packs with the converter's Encode and then damage them,
// so every rejection test starts from a pack the writer really produces.

const goldenPath = "../../tests/golden/pet.pack"

// canonicalManifest is the canonical asset set's manifest.
func canonicalManifest(t testing.TB) *manifest.Manifest {
	t.Helper()
	text, err := os.ReadFile("../../assets/pet/manifest.petasset")
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t testing.TB, m *manifest.Manifest, images []assetpackbuild.Image) []byte {
	t.Helper()
	b, err := assetpackbuild.Encode(m, images)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// canonicalPack is the canonical manifest with five synthetic 64 by 64
// images: the layout of the golden pack without depending on the sprites.
func canonicalPack(t testing.TB) []byte {
	t.Helper()
	m := canonicalManifest(t)
	images := make([]assetpackbuild.Image, len(m.Images))
	for i := range images {
		images[i] = assetpackbuildtest.Synth(64, 64, i)
	}
	return encode(t, m, images)
}

// oneImage is the smallest manifest: one image, animation, frame and role.
func oneImage() *manifest.Manifest {
	return &manifest.Manifest{
		Images:     []manifest.Image{{ID: "img"}},
		Animations: []manifest.Animation{{ID: "anim", FirstFrame: 0, FrameCount: 1}},
		Frames:     []manifest.Frame{{Image: 0, DurationMS: 100}},
		Roles:      []manifest.Role{{ID: "role", Animation: 0}},
	}
}

// paddedPack has two 3 by 3 images, so there is padding after each colour
// payload (18 bytes to 20) and each mask (3 bytes to 4).
func paddedPack(t testing.TB) []byte {
	t.Helper()
	m := oneImage()
	m.Images = append(m.Images, manifest.Image{ID: "img2"})
	m.Frames = append(m.Frames, manifest.Frame{Image: 1, DurationMS: 5})
	m.Animations[0].FrameCount = 2
	return encode(t, m, []assetpackbuild.Image{assetpackbuildtest.Synth(3, 3, 0), assetpackbuildtest.Synth(3, 3, 1)})
}

// limitsManifest is at every count limit at once, with 31-byte
// identifiers everywhere (see manifesttest.Limits), and no paths, as a
// pack materialises it.
func limitsManifest() *manifest.Manifest {
	m := manifesttest.Limits(manifest.MaxIdentifierBytes)
	for i := range m.Images {
		m.Images[i].Path = ""
	}
	return m
}

func put16(b []byte, off, v int)        { binary.LittleEndian.PutUint16(b[off:], uint16(v)) }
func put32(b []byte, off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }
func get16(b []byte, off int) int       { return int(binary.LittleEndian.Uint16(b[off:])) }
func get32(b []byte, off int) uint32    { return binary.LittleEndian.Uint32(b[off:]) }

// fixCheck makes the declared length and the check agree with b again, so
// a change reaches the rules after the CRC.
func fixCheck(b []byte) []byte {
	put32(b, 8, uint32(len(b)))
	put32(b, len(b)-4, crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// tables returns the table offsets of a pack from its own header.
func tables(b []byte) assetpackformat.Tables {
	return assetpackformat.Layout(assetpackformat.Counts{Images: get16(b, 14), Animations: get16(b, 16), Frames: get16(b, 18), Roles: get16(b, 20)})
}

// entryOff is the offset of entry i's record.
func entryOff(b []byte, i int) int { return tables(b).Entries + i*assetpackformat.EntryRecordLength }
