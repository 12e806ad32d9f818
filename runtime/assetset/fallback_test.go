package assetset

import (
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

func TestRGB565(t *testing.T) {
	tests := []struct {
		name  string
		c     RGB
		want  uint16
		bytes [2]byte
	}{
		{"black", RGB{0, 0, 0}, 0x0000, [2]byte{0x00, 0x00}},
		{"white", RGB{0xFF, 0xFF, 0xFF}, 0xFFFF, [2]byte{0xFF, 0xFF}},
		{"red", RGB{0xFF, 0, 0}, 0xF800, [2]byte{0xF8, 0x00}},
		{"green", RGB{0, 0xFF, 0}, 0x07E0, [2]byte{0x07, 0xE0}},
		{"blue", RGB{0, 0, 0xFF}, 0x001F, [2]byte{0x00, 0x1F}},
		{"low bits discarded, not rounded", RGB{0x07, 0x03, 0x07}, 0x0000, [2]byte{0x00, 0x00}},
		{"builtin fallback", BuiltinFallback.Colour, 0x5C75, [2]byte{0x5C, 0x75}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.RGB565(); got != tc.want {
				t.Errorf("RGB565(%v) = %#04x, want %#04x", tc.c, got, tc.want)
			}
			if got := tc.c.RGB565Bytes(); got != tc.bytes {
				t.Errorf("RGB565Bytes(%v) = % x, want % x", tc.c, got, tc.bytes)
			}
		})
	}
}

func TestBuiltinFallback(t *testing.T) {
	want := FallbackPresentation{Colour: RGB{0x5B, 0x8F, 0xA8}, DurationMS: 1000}
	if BuiltinFallback != want {
		t.Errorf("BuiltinFallback = %+v, want %+v", BuiltinFallback, want)
	}
	if d := BuiltinFallback.DurationMS; d < manifest.MinDurationMS || d > manifest.MaxDurationMS {
		t.Errorf("DurationMS %d outside the manifest's frame duration range", d)
	}
}
