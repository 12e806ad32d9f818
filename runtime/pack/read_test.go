package pack_test

import (
	"bytes"
	"errors"
	"hash/crc32"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/testsupport/assetpackbuildtest"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

// fault is one change to a valid pack.
type fault func(b []byte) []byte

// Header and record offsets the faults use.
const (
	hdrVersion   = 4
	hdrHeaderLen = 6
	hdrPackLen   = 8
	hdrPixel     = 12
	hdrTransp    = 13
	hdrImages    = 14
	hdrAnims     = 16
	hdrFrames    = 18
	hdrRoles     = 20
	hdrFallback  = 22
	hdrPayload   = 24
)

func set16(off, v int) fault { return func(b []byte) []byte { put16(b, off, v); return b } }
func set8(off int, v byte) fault {
	return func(b []byte) []byte { b[off] = v; return b }
}

// at computes an offset from the pack being damaged, for faults whose
// target depends on the layout.
func at(off func(b []byte) int, f func(b []byte, off int)) fault {
	return func(b []byte) []byte { f(b, off(b)); return b }
}

func anim(i, field int) func(b []byte) int {
	return func(b []byte) int { return tables(b).Animations + i*assetpackformat.AnimationRecordLength + field }
}
func frame(i, field int) func(b []byte) int {
	return func(b []byte) int { return tables(b).Frames + i*assetpackformat.FrameRecordLength + field }
}
func role(i, field int) func(b []byte) int {
	return func(b []byte) int { return tables(b).Roles + i*assetpackformat.RoleRecordLength + field }
}
func imageRec(i, field int) func(b []byte) int {
	return func(b []byte) int { return tables(b).Images + i*assetpackformat.ImageRecordLength + field }
}
func entry(i, field int) func(b []byte) int {
	return func(b []byte) int { return entryOff(b, i) + field }
}

func w16(v int) func(b []byte, off int)    { return func(b []byte, off int) { put16(b, off, v) } }
func w32(v uint32) func(b []byte, off int) { return func(b []byte, off int) { put32(b, off, v) } }
func add32(d int) func(b []byte, off int) {
	return func(b []byte, off int) { put32(b, off, uint32(int(get32(b, off))+d)) }
}
func fill(n int, c byte) func(b []byte, off int) {
	return func(b []byte, off int) {
		for i := 0; i < n; i++ {
			b[off+i] = c
		}
	}
}

// ruleCases has, for every acceptance rule, packs that break exactly that
// rule. fix re-seals the length and the check after the change, which every
// rule after check_mismatch needs to be reached at all.
var ruleCases = []struct {
	name string
	base func(testing.TB) []byte
	f    fault
	fix  bool
	want pack.Rule
}{
	{"empty", canonicalPack, func(b []byte) []byte { return nil }, false, pack.RuleTruncatedHeader},
	{"27 bytes", canonicalPack, func(b []byte) []byte { return b[:27] }, false, pack.RuleTruncatedHeader},
	{"magic", canonicalPack, set8(0, 'X'), false, pack.RuleBadMagic},
	{"magic lowercase", canonicalPack, set8(3, 'p'), false, pack.RuleBadMagic},
	{"version 2", canonicalPack, set16(hdrVersion, 2), false, pack.RuleUnsupportedVersion},
	{"version 0", canonicalPack, set16(hdrVersion, 0), false, pack.RuleUnsupportedVersion},
	{"header length 32", canonicalPack, set16(hdrHeaderLen, 32), false, pack.RuleBadHeaderLength},
	{"declared longer", canonicalPack, at(func([]byte) int { return hdrPackLen }, add32(4)), false, pack.RulePackLengthMismatch},
	{"supplied shorter", canonicalPack, func(b []byte) []byte { return b[:len(b)-4] }, false, pack.RulePackLengthMismatch},
	{"supplied longer", canonicalPack, func(b []byte) []byte { return append(b, 0, 0, 0, 0) }, false, pack.RulePackLengthMismatch},
	{"declared length 2^32-1", canonicalPack, at(func([]byte) int { return hdrPackLen }, w32(0xffffffff)), false, pack.RulePackLengthMismatch},
	{"length not a multiple of 4", canonicalPack, func(b []byte) []byte {
		b = append(b, 0)
		put32(b, hdrPackLen, uint32(len(b)))
		return b
	}, false, pack.RulePackLengthUnaligned},
	{"length 28, no room for a check", canonicalPack, func(b []byte) []byte {
		b = b[:28]
		put32(b, hdrPackLen, 28)
		return b
	}, false, pack.RulePackLengthOutOfRange},
	{"length over 16 MiB", canonicalPack, func(b []byte) []byte {
		big := make([]byte, assetpackformat.MaxPackLength+4)
		copy(big, b)
		put32(big, hdrPackLen, uint32(len(big)))
		return big
	}, false, pack.RulePackLengthOutOfRange},
	{"payload byte flipped", canonicalPack, func(b []byte) []byte { b[len(b)-100] ^= 1; return b }, false, pack.RuleCheckMismatch},
	{"check flipped", canonicalPack, func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b }, false, pack.RuleCheckMismatch},
	{"header count changed, check not", canonicalPack, set16(hdrRoles, 7), false, pack.RuleCheckMismatch},
	{"pixel encoding 2", canonicalPack, set8(hdrPixel, 2), true, pack.RuleUnsupportedEncoding},
	{"pixel encoding 0", canonicalPack, set8(hdrPixel, 0), true, pack.RuleUnsupportedEncoding},
	{"transparency 0", canonicalPack, set8(hdrTransp, 0), true, pack.RuleUnsupportedEncoding},
	{"33 images", canonicalPack, set16(hdrImages, manifest.MaxImages+1), true, pack.RuleCountOutOfRange},
	{"33 animations", canonicalPack, set16(hdrAnims, manifest.MaxAnimations+1), true, pack.RuleCountOutOfRange},
	{"129 frames", canonicalPack, set16(hdrFrames, manifest.MaxFrames+1), true, pack.RuleCountOutOfRange},
	{"65 roles", canonicalPack, set16(hdrRoles, manifest.MaxRoles+1), true, pack.RuleCountOutOfRange},
	{"65535 roles", canonicalPack, set16(hdrRoles, 0xffff), true, pack.RuleCountOutOfRange},
	{"payload offset +4", canonicalPack, at(func([]byte) int { return hdrPayload }, add32(4)), true, pack.RulePayloadOffsetMismatch},
	{"payload offset -4", canonicalPack, at(func([]byte) int { return hdrPayload }, add32(-4)), true, pack.RulePayloadOffsetMismatch},
	{"one more role, offset not moved", canonicalPack, set16(hdrRoles, 7), true, pack.RulePayloadOffsetMismatch},
	{"tables past the check", minimalPack, func(b []byte) []byte {
		put16(b, hdrImages, manifest.MaxImages)
		put16(b, hdrRoles, manifest.MaxRoles)
		put32(b, hdrPayload, uint32(tables(b).Payload))
		return b
	}, true, pack.RulePayloadOffsetOutOfRange},
	{"fallback = role count", canonicalPack, set16(hdrFallback, 6), true, pack.RuleFallbackOutOfRange},
	{"fallback 65535", canonicalPack, set16(hdrFallback, 0xffff), true, pack.RuleFallbackOutOfRange},
	{"animation without frames", canonicalPack, at(anim(2, 34), w16(0)), true, pack.RuleAnimationRunOutOfRange},
	{"animation of 17 frames", canonicalPack, at(anim(0, 34), w16(17)), true, pack.RuleAnimationRunOutOfRange},
	{"run past the frame table", canonicalPack, at(anim(4, 32), w16(5)), true, pack.RuleAnimationRunOutOfRange},
	{"run starts past the table", canonicalPack, at(anim(0, 32), w16(0xffff)), true, pack.RuleAnimationRunOutOfRange},
	{"frame image = image count", canonicalPack, at(frame(5, 0), w16(5)), true, pack.RuleFrameImageOutOfRange},
	{"frame image 65535", canonicalPack, at(frame(0, 0), w16(0xffff)), true, pack.RuleFrameImageOutOfRange},
	{"frame duration 0", canonicalPack, at(frame(1, 2), w16(0)), true, pack.RuleFrameDurationOutOfRange},
	{"frame duration 60001", canonicalPack, at(frame(1, 2), w16(60001)), true, pack.RuleFrameDurationOutOfRange},
	{"role animation = animation count", canonicalPack, at(role(3, 32), w16(5)), true, pack.RuleRoleAnimationOutOfRange},
	{"role padding low byte", canonicalPack, set8Fn(role(2, 34), 1), true, pack.RuleRolePaddingNonzero},
	{"role padding high byte", canonicalPack, set8Fn(role(5, 35), 0x80), true, pack.RuleRolePaddingNonzero},
	{"image identifier fills 32 bytes", canonicalPack, at(imageRec(1, 0), fill(32, 'a')), true, pack.RuleIdentifierUnterminated},
	{"animation identifier fills 32 bytes", canonicalPack, at(anim(0, 0), fill(32, 'a')), true, pack.RuleIdentifierUnterminated},
	{"role identifier fills 32 bytes", canonicalPack, at(role(5, 0), fill(32, 'a')), true, pack.RuleIdentifierUnterminated},
	{"byte after image terminator", canonicalPack, set8Fn(imageRec(0, 31), 'x'), true, pack.RuleIdentifierPaddingNonzero},
	{"byte after role terminator", canonicalPack, set8Fn(role(1, 20), 1), true, pack.RuleIdentifierPaddingNonzero},
	{"width 0", canonicalPack, at(entry(0, 0), w16(0)), true, pack.RuleEntryDimensionOutOfRange},
	{"width 1025", canonicalPack, at(entry(1, 0), w16(1025)), true, pack.RuleEntryDimensionOutOfRange},
	{"height 0", canonicalPack, at(entry(4, 2), w16(0)), true, pack.RuleEntryDimensionOutOfRange},
	{"height 65535", canonicalPack, at(entry(2, 2), w16(0xffff)), true, pack.RuleEntryDimensionOutOfRange},
	{"colour length +2", canonicalPack, at(entry(0, 8), add32(2)), true, pack.RuleEntryLengthMismatch},
	{"mask length -1", canonicalPack, at(entry(3, 16), add32(-1)), true, pack.RuleEntryLengthMismatch},
	{"width 32, lengths for 64", canonicalPack, at(entry(2, 0), w16(32)), true, pack.RuleEntryLengthMismatch},
	{"colour offset +2", canonicalPack, at(entry(1, 4), add32(2)), true, pack.RulePayloadMisaligned},
	{"mask offset +1", canonicalPack, at(entry(4, 12), add32(1)), true, pack.RulePayloadMisaligned},
	{"colour before the region", canonicalPack, at(entry(0, 4), add32(-4)), true, pack.RulePayloadOutOfRegion},
	{"mask over the check", canonicalPack, func(b []byte) []byte { put32(b, entryOff(b, 4)+12, uint32(len(b)-4-508)); return b }, true, pack.RulePayloadOutOfRegion},
	{"mask offset 2^32-4", canonicalPack, at(entry(2, 12), w32(0xfffffffc)), true, pack.RulePayloadOutOfRegion},
	{"colour offset 0", canonicalPack, at(entry(0, 4), w32(0)), true, pack.RulePayloadOutOfRegion},
	{"colour payloads swapped", canonicalPack, func(b []byte) []byte {
		c0, c1 := get32(b, entryOff(b, 0)+4), get32(b, entryOff(b, 1)+4)
		put32(b, entryOff(b, 0)+4, c1)
		put32(b, entryOff(b, 1)+4, c0)
		return b
	}, true, pack.RulePayloadLayoutMismatch},
	{"two colour payloads overlap", canonicalPack, func(b []byte) []byte {
		put32(b, entryOff(b, 1)+4, get32(b, entryOff(b, 0)+4))
		return b
	}, true, pack.RulePayloadLayoutMismatch},
	{"mask inside its colour", canonicalPack, at(entry(0, 12), add32(-512)), true, pack.RulePayloadLayoutMismatch},
	{"bytes between the last payload and the check", canonicalPack, func(b []byte) []byte {
		return append(b[:len(b)-4:len(b)-4], 0, 0, 0, 0, 0, 0, 0, 0)
	}, true, pack.RulePayloadLayoutMismatch},
	{"padding after a colour payload", paddedPack, func(b []byte) []byte {
		b[tables(b).Payload+18] = 1
		return b
	}, true, pack.RulePayloadPaddingNonzero},
	{"padding after the last mask", paddedPack, func(b []byte) []byte {
		b[len(b)-5] = 0xff
		return b
	}, true, pack.RulePayloadPaddingNonzero},
}

func set8Fn(off func(b []byte) int, v byte) fault {
	return at(off, func(b []byte, o int) { b[o] = v })
}

func minimalPack(t testing.TB) []byte {
	return encode(t, oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(1, 1, 1)})
}

// checkRejected reads data and asserts a rejection by want that leaves the
// destination zero and returns no pack.
func checkRejected(t *testing.T, data []byte, want pack.Rule) {
	t.Helper()
	dst := pack.Pack{Check: 1, Images: []pack.Image{{ID: "stale"}}}
	err := pack.ReadInto(data, &dst)
	var pe *pack.Error
	if !errors.As(err, &pe) {
		t.Fatalf("ReadInto = %v, want a *pack.Error %s", err, want)
	}
	if pe.Rule != want {
		t.Fatalf("rejected by %s, want %s", err, want)
	}
	if !strings.HasPrefix(err.Error(), string(want)+": ") {
		t.Errorf("message %q does not start with the rule", err)
	}
	if !reflect.DeepEqual(dst, pack.Pack{}) {
		t.Errorf("rejection left %+v", dst)
	}
	if p, err := pack.Read(data); p != nil || err == nil {
		t.Errorf("Read = %v, %v", p, err)
	}
	if err := pack.Verify(data); err == nil || err.(*pack.Error).Rule != want {
		t.Errorf("Verify = %v, want %s", err, want)
	}
}

func TestRejections(t *testing.T) {
	for _, tt := range ruleCases {
		t.Run(string(tt.want)+"/"+tt.name, func(t *testing.T) {
			base := tt.base(t)
			if err := pack.Verify(base); err != nil {
				t.Fatalf("base pack rejected: %v", err)
			}
			b := tt.f(clone(base))
			if tt.fix {
				b = fixCheck(b)
			}
			checkRejected(t, b, tt.want)
		})
	}
}

// TestEveryRuleHasACase keeps ruleCases complete as rules are added.
func TestEveryRuleHasACase(t *testing.T) {
	covered := map[pack.Rule]bool{}
	for _, c := range ruleCases {
		covered[c.want] = true
	}
	for _, r := range pack.Rules() {
		if !covered[r] {
			t.Errorf("no rejection case for %s", r)
		}
	}
}

// TestRuleOrder damages a pack twice: the rule earlier in contract order
// is the one reported, even when its fault lies later in the pack.
func TestRuleOrder(t *testing.T) {
	tests := []struct {
		name   string
		base   func(testing.TB) []byte
		faults []fault
		fix    bool
		want   pack.Rule
	}{
		{"magic before version", canonicalPack, []fault{set16(hdrVersion, 9), set8(0, 'Q')}, false, pack.RuleBadMagic},
		{"version before header length", canonicalPack, []fault{set16(hdrHeaderLen, 1), set16(hdrVersion, 9)}, false, pack.RuleUnsupportedVersion},
		{"header length before pack length", canonicalPack, []fault{func(b []byte) []byte { return b[:40] }, set16(hdrHeaderLen, 1)}, false, pack.RuleBadHeaderLength},
		{"pack length before check", canonicalPack, []fault{func(b []byte) []byte { b[100] ^= 1; return b[:len(b)-4] }}, false, pack.RulePackLengthMismatch},
		{"check before encoding", canonicalPack, []fault{set8(hdrPixel, 3)}, false, pack.RuleCheckMismatch},
		{"encoding before counts", canonicalPack, []fault{set16(hdrImages, 99), set8(hdrTransp, 2)}, true, pack.RuleUnsupportedEncoding},
		{"counts before payload offset", canonicalPack, []fault{set16(hdrFrames, 200)}, true, pack.RuleCountOutOfRange},
		{"payload offset before fallback", canonicalPack, []fault{set16(hdrFallback, 50), at(func([]byte) int { return hdrPayload }, add32(8))}, true, pack.RulePayloadOffsetMismatch},
		{"fallback before animations", canonicalPack, []fault{at(anim(0, 34), w16(0)), set16(hdrFallback, 6)}, true, pack.RuleFallbackOutOfRange},
		{"animation 4 before frame 0", canonicalPack, []fault{at(frame(0, 0), w16(9)), at(anim(4, 34), w16(0))}, true, pack.RuleAnimationRunOutOfRange},
		{"frame image in frame 5 before duration in frame 0", canonicalPack, []fault{at(frame(0, 2), w16(0)), at(frame(5, 0), w16(9))}, true, pack.RuleFrameImageOutOfRange},
		{"duration before role animation", canonicalPack, []fault{at(role(0, 32), w16(9)), at(frame(5, 2), w16(0))}, true, pack.RuleFrameDurationOutOfRange},
		{"role animation in role 5 before padding in role 0", canonicalPack, []fault{set8Fn(role(0, 34), 1), at(role(5, 32), w16(9))}, true, pack.RuleRoleAnimationOutOfRange},
		{"role padding before identifiers", canonicalPack, []fault{at(imageRec(0, 0), fill(32, 'z')), set8Fn(role(5, 35), 1)}, true, pack.RuleRolePaddingNonzero},
		{"unterminated role before padded image", canonicalPack, []fault{set8Fn(imageRec(0, 30), 'q'), at(role(5, 0), fill(32, 'r'))}, true, pack.RuleIdentifierUnterminated},
		{"identifier padding before dimensions", canonicalPack, []fault{at(entry(0, 0), w16(0)), set8Fn(anim(3, 31), 1)}, true, pack.RuleIdentifierPaddingNonzero},
		{"dimension in entry 4 before length in entry 0", canonicalPack, []fault{at(entry(0, 8), add32(2)), at(entry(4, 2), w16(2000))}, true, pack.RuleEntryDimensionOutOfRange},
		{"length before alignment", canonicalPack, []fault{at(entry(0, 4), add32(1)), at(entry(4, 16), add32(4))}, true, pack.RuleEntryLengthMismatch},
		{"alignment before region", canonicalPack, []fault{at(entry(0, 4), w32(0)), at(entry(4, 12), add32(2))}, true, pack.RulePayloadMisaligned},
		{"region before layout", canonicalPack, []fault{at(entry(0, 4), add32(4)), at(entry(4, 12), w32(0x10000000))}, true, pack.RulePayloadOutOfRegion},
		{"layout before padding", paddedPack, []fault{func(b []byte) []byte { b[len(b)-5] = 1; return b }, at(entry(1, 4), add32(4))}, true, pack.RulePayloadLayoutMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := clone(tt.base(t))
			for _, f := range tt.faults {
				b = f(b)
			}
			if tt.fix {
				b = fixCheck(b)
			}
			checkRejected(t, b, tt.want)
		})
	}
}

// TestTruncations reads every proper prefix of a valid pack.
func TestTruncations(t *testing.T) {
	for _, base := range [][]byte{canonicalPack(t), paddedPack(t)} {
		for n := 0; n < len(base); n++ {
			want := pack.RulePackLengthMismatch
			if n < assetpackformat.HeaderLength {
				want = pack.RuleTruncatedHeader
			}
			err := pack.Verify(base[:n])
			if err == nil || err.(*pack.Error).Rule != want {
				t.Fatalf("%d of %d bytes: %v, want %s", n, len(base), err, want)
			}
		}
	}
}

// TestTruncationsResealed truncates and then re-seals length and check, so
// the cut reaches the structural rules instead of stopping at the length.
func TestTruncationsResealed(t *testing.T) {
	base := canonicalPack(t)
	for n := assetpackformat.MinPackLength; n < len(base); n += 4 {
		b := fixCheck(clone(base[:n]))
		if err := pack.Verify(b); err == nil {
			t.Fatalf("resealed %d-byte prefix accepted", n)
		}
	}
}

func TestCRCVector(t *testing.T) {
	if got := crc32.ChecksumIEEE([]byte("123456789")); got != 0xCBF43926 {
		t.Fatalf("CRC-32 of 123456789 = 0x%08x, want 0xcbf43926", got)
	}
}

// bitwiseCRC is CRC-32 IEEE written out from its definition (reflected,
// polynomial 0xEDB88320, initial and final value all ones), so the pack's
// check is tested against the contract and not only against hash/crc32.
func bitwiseCRC(b []byte) uint32 {
	crc := ^uint32(0)
	for _, c := range b {
		crc ^= uint32(c)
		for k := 0; k < 8; k++ {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0xEDB88320
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

func TestCheckIsIEEE(t *testing.T) {
	if got := bitwiseCRC([]byte("123456789")); got != 0xCBF43926 {
		t.Fatalf("bitwise CRC of the vector = 0x%08x", got)
	}
	b := canonicalPack(t)
	if got, want := get32(b, len(b)-4), bitwiseCRC(b[:len(b)-4]); got != want {
		t.Fatalf("stored check 0x%08x, bitwise CRC 0x%08x", got, want)
	}
}

func TestAcceptLimits(t *testing.T) {
	sixteen := oneImage()
	sixteen.Frames = nil
	for i := 0; i < manifest.MaxFramesPerAnimation; i++ {
		sixteen.Frames = append(sixteen.Frames, manifest.Frame{Image: 0, DurationMS: uint32(1 + i*3999)})
	}
	sixteen.Animations[0].FrameCount = manifest.MaxFramesPerAnimation
	tests := []struct {
		name   string
		m      *manifest.Manifest
		images []assetpackbuild.Image
	}{
		{"every count at its limit", limitsManifest(), assetpackbuildtest.LimitsImages()},
		{"16 frames in one animation", sixteen, []assetpackbuild.Image{assetpackbuildtest.Synth(2, 2, 0)}},
		{"1x1", oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(1, 1, 0)}},
		{"1024x1", oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(1024, 1, 0)}},
		{"1x1024", oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(1, 1024, 0)}},
		{"1024x1024", oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(1024, 1024, 0)}},
		{"9 wide", oneImage(), []assetpackbuild.Image{assetpackbuildtest.Synth(9, 3, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := encode(t, tt.m, tt.images)
			p, err := pack.Read(b)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Manifest()
			if !reflect.DeepEqual(&got, tt.m) {
				t.Errorf("materialised manifest differs:\n got %+v\nwant %+v", got, *tt.m)
			}
			for i, e := range p.Entries {
				if !bytes.Equal(e.Colour, tt.images[i].Colour) || !bytes.Equal(e.Mask, tt.images[i].Mask) {
					t.Errorf("entry %d payloads differ from the encoded image", i)
				}
			}
		})
	}
}

// TestCanonicalPack checks the synthetic canonical pack against the sizes
// of contract section 13 and its decoded tables against the manifest.
func TestCanonicalPack(t *testing.T) {
	b := canonicalPack(t)
	if len(b) != 44232 {
		t.Fatalf("canonical pack is %d bytes, want 44232", len(b))
	}
	p, err := pack.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	want := canonicalManifest(t)
	for i := range want.Images {
		want.Images[i].Path = ""
	}
	if got := p.Manifest(); !reflect.DeepEqual(&got, want) {
		t.Fatalf("Manifest() = %+v\nwant %+v", got, *want)
	}
	h := p.Header
	if h.Version != 1 || h.HeaderLength != 28 || h.PackLength != 44232 || h.PixelEncoding != 1 || h.Transparency != 1 ||
		h.ImageCount != 5 || h.AnimationCount != 5 || h.FrameCount != 6 || h.RoleCount != 6 || h.FallbackRole != 5 || h.PayloadOffset != 708 {
		t.Errorf("header %+v", h)
	}
	if p.Check != get32(b, len(b)-4) {
		t.Errorf("Check 0x%08x", p.Check)
	}
}

// TestPayloadsAlias shows payloads are views of the input, bounded so that
// neither reslicing to capacity nor append reaches past the payload.
func TestPayloadsAlias(t *testing.T) {
	for _, b := range [][]byte{canonicalPack(t), paddedPack(t)} {
		p, err := pack.Read(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range p.Entries {
			if &e.Colour[0] != &b[e.ColourOffset] || &e.Mask[0] != &b[e.MaskOffset] {
				t.Errorf("entry %d payloads are copies, not views of the pack", i)
			}
			if cap(e.Colour) != len(e.Colour) || cap(e.Mask) != len(e.Mask) {
				t.Errorf("entry %d payload capacity reaches past the payload", i)
			}
			if int(e.ColourLength) != len(e.Colour) || int(e.MaskLength) != len(e.Mask) {
				t.Errorf("entry %d lengths", i)
			}
		}
	}
}

// TestReadIntoReplaces shows an accepted read replaces every field of dst.
func TestReadIntoReplaces(t *testing.T) {
	b := minimalPack(t)
	want, err := pack.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	dst := pack.Pack{Images: []pack.Image{{ID: "a"}, {ID: "b"}}, Frames: make([]pack.Frame, 9)}
	if err := pack.ReadInto(b, &dst); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&dst, want) {
		t.Fatalf("ReadInto kept stale fields: %+v", dst)
	}
}

// TestGolden reads the checked-in golden pack (written by tools/assetpackbuild
// from the canonical asset set): it is accepted, is 44232 bytes, and every
// payload view stays inside the payload region and inside its own bytes.
func TestGolden(t *testing.T) {
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pack.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 44232 {
		t.Errorf("golden is %d bytes, want 44232", len(b))
	}
	lo, hi := int(p.Header.PayloadOffset), len(b)-assetpackformat.CheckLength
	next := lo
	for i, e := range p.Entries {
		for _, pl := range []struct {
			what      string
			off, n, c int
		}{{"colour", int(e.ColourOffset), len(e.Colour), cap(e.Colour)}, {"mask", int(e.MaskOffset), len(e.Mask), cap(e.Mask)}} {
			if pl.off < lo || pl.off+pl.c > hi {
				t.Errorf("entry %d %s [%d, %d) leaves the payload region [%d, %d)", i, pl.what, pl.off, pl.off+pl.c, lo, hi)
			}
			if pl.off < next {
				t.Errorf("entry %d %s at %d overlaps the payload before it, which ends at %d", i, pl.what, pl.off, next)
			}
			if pl.c != pl.n {
				t.Errorf("entry %d %s can be resliced past its %d bytes", i, pl.what, pl.n)
			}
			next = pl.off + pl.n
		}
	}
	want := canonicalManifest(t)
	for i := range want.Images {
		want.Images[i].Path = ""
	}
	if got := p.Manifest(); !reflect.DeepEqual(&got, want) {
		t.Errorf("golden materialises as %+v\nwant %+v", got, *want)
	}
}

// TestDocListsRules keeps doc.go's table, which the README copies, in step
// with Rules(): every identifier, in order.
func TestDocListsRules(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var listed []pack.Rule
	for _, line := range strings.Split(string(doc), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "//" && f[1] == "|" && strings.Contains(f[2], "_") {
			listed = append(listed, pack.Rule(f[2]))
		}
	}
	if !reflect.DeepEqual(listed, pack.Rules()) {
		t.Fatalf("doc.go lists\n%v\nRules() is\n%v", listed, pack.Rules())
	}
}

func BenchmarkVerify(b *testing.B) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		data = canonicalPack(b)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := pack.Verify(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	data := canonicalPack(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var p pack.Pack
	for i := 0; i < b.N; i++ {
		if err := pack.ReadInto(data, &p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestVerifyDoesNotAllocate: validation works in fixed storage bounded by
// the limits, the shape the C reader on the device must have too.
func TestVerifyDoesNotAllocate(t *testing.T) {
	b := canonicalPack(t)
	if n := testing.AllocsPerRun(20, func() { pack.Verify(b) }); n != 0 {
		t.Fatalf("Verify allocates %v times", n)
	}
}
