package model

import "testing"

func TestNaturalLess(t *testing.T) {
	sorted := []string{"0.png", "01.png", "1.png", "2.png", "10.png", "0010a.png", "a.png", "a2.png", "a10.png", "b.png"}
	for i := range sorted {
		for j := range sorted {
			if got := NaturalLess(sorted[i], sorted[j]); got != (i < j) {
				t.Errorf("NaturalLess(%q, %q) = %v", sorted[i], sorted[j], got)
			}
		}
	}
}
