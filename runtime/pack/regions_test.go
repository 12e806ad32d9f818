package pack_test

import (
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/testsupport/assetpackbuildtest"
)

// TestRegionsCanonical checks the coarse regions of the canonical layout
// against contract section 13 and that they tile the pack exactly.
func TestRegionsCanonical(t *testing.T) {
	b := canonicalPack(t)
	want := []assetpackformat.Region{
		{Name: "header", Offset: 0, Length: 28},
		{Name: "image table", Offset: 28, Length: 160},
		{Name: "animation table", Offset: 188, Length: 180},
		{Name: "frame table", Offset: 368, Length: 24},
		{Name: "role table", Offset: 392, Length: 216},
		{Name: "entry table", Offset: 608, Length: 100},
	}
	off := 708
	for i := 0; i < 5; i++ {
		want = append(want,
			assetpackformat.Region{Name: "entry " + string(rune('0'+i)) + " colour payload", Offset: off, Length: 8192},
			assetpackformat.Region{Name: "entry " + string(rune('0'+i)) + " mask payload", Offset: off + 8192, Length: 512})
		off += 8704
	}
	want = append(want, assetpackformat.Region{Name: "check", Offset: 44228, Length: 4})
	got := assetpackformat.Regions(b)
	if len(got) != len(want) {
		t.Fatalf("Regions = %v\nwant %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("region %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRegionsTile shows both listings cover every byte of an accepted pack
// once, in order, padding included.
func TestRegionsTile(t *testing.T) {
	for _, b := range [][]byte{canonicalPack(t), paddedPack(t), minimalPack(t), encode(t, limitsManifest(), assetpackbuildtest.LimitsImages())} {
		for name, rs := range map[string][]assetpackformat.Region{"Regions": assetpackformat.Regions(b), "Fields": assetpackformat.Fields(b)} {
			next := 0
			for _, r := range rs {
				if r.Offset != next || r.Length <= 0 {
					t.Fatalf("%s: %+v does not start at %d", name, r, next)
				}
				next = r.End()
			}
			if next != len(b) {
				t.Fatalf("%s end at %d of %d bytes", name, next, len(b))
			}
		}
	}
	var padding int
	for _, r := range assetpackformat.Regions(paddedPack(t)) {
		if strings.HasPrefix(r.Name, "padding after ") {
			padding += r.Length
		}
	}
	if padding != 2+1+2+1 {
		t.Errorf("padded pack has %d padding bytes listed, want 6", padding)
	}
}

// TestRegionsDamaged shows damaged bytes give clipped regions, not a panic.
func TestRegionsDamaged(t *testing.T) {
	b := canonicalPack(t)
	for _, d := range [][]byte{nil, b[:10], b[:100], b[:800], func() []byte {
		c := clone(b)
		put32(c, entryOff(c, 0)+4, 0xfffffff0)
		put32(c, entryOff(c, 1)+8, 0xfffffff0)
		put16(c, 14, 0xffff)
		return c
	}()} {
		for _, r := range assetpackformat.Regions(d) {
			if r.Offset < 0 || r.End() > len(d) {
				t.Errorf("%d bytes: region %+v outside the data", len(d), r)
			}
		}
	}
}

func TestFirstDifference(t *testing.T) {
	want := canonicalPack(t)
	tests := []struct {
		name   string
		got    func() []byte
		region string
	}{
		{"equal", func() []byte { return clone(want) }, ""},
		{"pack length", func() []byte { c := clone(want); c[9] ^= 1; return c }, "header field pack length differs at byte 9"},
		{"fallback", func() []byte { c := clone(want); c[22] ^= 1; return c }, "header field fallback role"},
		{"role record", func() []byte { c := clone(want); c[tables(c).Roles+3*36+5] ^= 1; return c }, "role table record 3 (expression_neutral) differs"},
		{"entry record", func() []byte { c := clone(want); c[entryOff(c, 4)] ^= 1; return c }, "entry table record 4 (image sprite_happy)"},
		{"colour", func() []byte { c := clone(want); c[708+2*8704+100] ^= 1; return c }, "entry 2 (image sprite_curious) colour payload differs"},
		{"mask", func() []byte { c := clone(want); c[708+8192+1] ^= 1; return c }, "entry 0 (image sprite_fallback) mask payload differs"},
		{"check", func() []byte { c := clone(want); c[len(c)-2] ^= 1; return c }, "check differs"},
		{"shorter", func() []byte { return want[:40000] }, "got is 40000 bytes, want 44232: got stops inside entry 4 (image sprite_happy) colour payload"},
		{"longer", func() []byte { return append(clone(want), 1, 2, 3, 4) }, "got is 44236 bytes, want 44232: got runs on into"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := assetpackformat.FirstDifference(tt.got(), want)
			if tt.region == "" {
				if d != "" {
					t.Fatalf("equal packs: %q", d)
				}
				return
			}
			if !strings.Contains(d, tt.region) {
				t.Fatalf("FirstDifference = %q, want it to contain %q", d, tt.region)
			}
		})
	}
}
