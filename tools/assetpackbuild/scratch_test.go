package assetpackbuild

import "testing"

// TestNewScratch: small and mapped sizes alike give n writable zero
// bytes, and releasing them is safe.
func TestNewScratch(t *testing.T) {
	for _, n := range []int{0, 1, populateMinForTest() - 1, populateMinForTest(), 3*populateMinForTest() + 5} {
		b, free := newScratch(n)
		if len(b) != n {
			t.Fatalf("%d bytes: got %d", n, len(b))
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("%d bytes: byte %d is %d, not zero", n, i, v)
			}
			b[i] = byte(i)
		}
		free()
	}
}
