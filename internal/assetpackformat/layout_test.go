package assetpackformat

import "testing"

// TestLayoutCanonical holds Layout, Place and PackLength to the canonical
// pack of the contract's section 13 (5 images, 5 animations, 6 frames, 6
// roles; five 64x64 entries; 44232 bytes).
func TestLayoutCanonical(t *testing.T) {
	tb := Layout(Counts{Images: 5, Animations: 5, Frames: 6, Roles: 6})
	want := Tables{Images: 28, Animations: 188, Frames: 368, Roles: 392, Entries: 608, Payload: 708}
	if tb != want {
		t.Fatalf("Layout = %+v, want %+v", tb, want)
	}
	cursor := tb.Payload
	for i := 0; i < 5; i++ {
		p := Place(cursor, 64, 64)
		if p.ColourOffset != cursor || p.MaskOffset != cursor+8192 || p.End != cursor+8704 {
			t.Fatalf("entry %d placed %+v after %d", i, p, cursor)
		}
		cursor = p.End
	}
	if n := PackLength(cursor); n != 44232 {
		t.Fatalf("PackLength = %d, want 44232", n)
	}
	for _, tc := range []struct{ in, want int }{{0, 0}, {1, 4}, {4, 4}, {5, 8}} {
		if got := Align4(tc.in); got != tc.want {
			t.Errorf("Align4(%d) = %d", tc.in, got)
		}
	}
}
