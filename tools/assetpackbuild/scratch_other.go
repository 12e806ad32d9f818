//go:build !linux

package assetpackbuild

// newScratch returns n zero bytes for a buffer the build drops when it
// is done with it, and the function that releases them (the heap's, here).
func newScratch(n int) ([]byte, func()) {
	return make([]byte, n), func() {}
}

func populateMinForTest() int { return 1 << 20 }
