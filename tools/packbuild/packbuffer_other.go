//go:build !linux

package packbuild

// newPackBuffer returns n zero bytes for a pack that is written out and
// dropped, and the function that releases them (the heap's, here).
func newPackBuffer(n int) ([]byte, func()) {
	return make([]byte, n), func() {}
}

func populateMinForTest() int { return 1 << 20 }
