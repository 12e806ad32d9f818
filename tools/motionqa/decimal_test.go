package motionqa

import (
	"math/big"
	"testing"
)

func TestDecimals(t *testing.T) {
	for _, c := range []struct {
		num, den int64
		d        int
		want     Decimal
	}{
		{1, 3, 6, "0.333333"},
		{2, 3, 6, "0.666667"},
		{1, 8, 2, "0.12"}, // 0.125: half to even
		{3, 8, 2, "0.38"}, // 0.375: half to even
		{5, 2, 0, "2"},
		{7, 2, 0, "4"},
		{0, 5, 4, "0"},
		{1, 2, 4, "0.5"},
		{-1, 3, 3, "-0.333"},
		{-1, 10000, 3, "0"},
		{12345, 100, 6, "123.45"},
	} {
		if got := fracDecimal(c.num, c.den, c.d); got != c.want {
			t.Errorf("fracDecimal(%d/%d, %d) = %s, want %s", c.num, c.den, c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		num, den int64
		d        int
		want     Decimal
	}{
		{2, 1, 6, "1.414214"},
		{1, 4, 3, "0.5"},
		{9, 1, 0, "3"},
		{1, 4, 0, "0"},          // sqrt = 0.5 exactly: half to even
		{9, 4, 0, "2"},          // 1.5: half to even
		{25, 4, 0, "2"},         // 2.5: half to even
		{49, 4, 0, "4"},         // 3.5
		{1, 1000000000, 3, "0"}, // 0.0000316
		{0, 1, 4, "0"},
		{3, 1, 4, "1.7321"},
	} {
		if got := sqrtDecimal(big.NewRat(c.num, c.den), c.d); got != c.want {
			t.Errorf("sqrtDecimal(%d/%d, %d) = %s, want %s", c.num, c.den, c.d, got, c.want)
		}
	}
}
