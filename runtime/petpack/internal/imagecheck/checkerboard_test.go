package imagecheck

import "testing"

// TestCoverCorners: the patches are a third of each side, clamped to 48
// and 160 px and to the cover, and coinciding corners are read once.
func TestCoverCorners(t *testing.T) {
	cases := []struct {
		w, h, n, pw, ph int
	}{
		{384, 416, 4, 128, 138},
		{1024, 1024, 4, 160, 160},
		{100, 100, 4, 48, 48},
		{30, 200, 2, 30, 66},
		{40, 40, 1, 40, 40},
		{11, 100, 0, 0, 0},
	}
	for _, tc := range cases {
		cc := NewCoverCorners(tc.w, tc.h)
		if len(cc) != tc.n {
			t.Errorf("%dx%d: %d patches, want %d", tc.w, tc.h, len(cc), tc.n)
			continue
		}
		for _, p := range cc {
			if p.w != tc.pw || p.h != tc.ph || p.x0+p.w > tc.w || p.y0+p.h > tc.h {
				t.Errorf("%dx%d: patch %+v, want %dx%d inside the cover", tc.w, tc.h, p, tc.pw, tc.ph)
			}
		}
	}
}
