package motionqa

import (
	"math/big"
	"strings"
)

// Decimal is a measurement already rounded to a fixed number of decimals:
// its JSON text. Every metric is computed from integers (sums over pixels)
// and rounded here once, exactly, so no result depends on floating-point
// contraction (fused multiply-add) or the order of float additions, and the
// report's bytes are the same on every machine.
type Decimal string

// MarshalJSON writes the number as is.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(d), nil }

var ten = big.NewInt(10)

func pow10(d int) *big.Int { return new(big.Int).Exp(ten, big.NewInt(int64(d)), nil) }

// ratDecimal rounds r to d decimals, halves to even.
func ratDecimal(r *big.Rat, d int) Decimal {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(d)))
	return formatScaled(roundHalfEven(scaled), d)
}

// fracDecimal is ratDecimal of num/den; den must not be zero.
func fracDecimal(num, den int64, d int) Decimal {
	return ratDecimal(big.NewRat(num, den), d)
}

// roundHalfEven rounds a rational to the nearest integer, halves to even.
func roundHalfEven(r *big.Rat) *big.Int {
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// Go's QuoRem truncates toward zero; make q the floor.
	if m.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
		m.Add(m, den)
	}
	twice := new(big.Int).Lsh(m, 1)
	switch twice.Cmp(den) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// sqrtDecimal rounds sqrt(r) (r >= 0) to d decimals, halves to even: with
// X = r*10^(2d), the result is the integer m nearest sqrt(X), the largest
// m with (2m-1)^2 <= 4X, found with an integer square root.
func sqrtDecimal(r *big.Rat, d int) Decimal {
	if r.Sign() <= 0 {
		return formatScaled(new(big.Int), d)
	}
	x4 := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Mul(pow10(2*d), big.NewInt(4))))
	n := new(big.Int).Quo(x4.Num(), x4.Denom()) // floor(4X), X > 0
	s := new(big.Int).Sqrt(n)
	if s.Bit(0) == 0 {
		s.Sub(s, big.NewInt(1)) // the largest odd number <= isqrt(n)
	}
	m := new(big.Int).Rsh(new(big.Int).Add(s, big.NewInt(1)), 1)
	if s.Sign() >= 0 {
		// An exact half: 4X == (2m-1)^2; round to the even neighbour.
		sq := new(big.Rat).SetInt(new(big.Int).Mul(s, s))
		if sq.Cmp(x4) == 0 && m.Bit(0) == 1 {
			m.Sub(m, big.NewInt(1))
		}
	}
	return formatScaled(m, d)
}

// formatScaled writes v/10^d in the shortest decimal form: no trailing
// zeros, no trailing point, "0" for zero.
func formatScaled(v *big.Int, d int) Decimal {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	if d > 0 {
		for len(digits) <= d {
			digits = "0" + digits
		}
		digits = digits[:len(digits)-d] + "." + digits[len(digits)-d:]
		digits = strings.TrimRight(strings.TrimRight(digits, "0"), ".")
	}
	if neg && digits != "0" {
		digits = "-" + digits
	}
	return Decimal(digits)
}

// roundHalfEvenInt is round(num/den) with halves to even, den > 0: the
// rounding of the authors' keyframe indices (Python's round).
func roundHalfEvenInt(num, den int) int {
	return int(roundHalfEven(big.NewRat(int64(num), int64(den))).Int64())
}

// KeyframeIndices are the authors' five keyframes of an n-frame state:
// round(i*(n-1)/4) for i = 0..4, halves to even; fewer when n < 5.
func KeyframeIndices(n int) []int {
	if n <= 0 {
		return []int{}
	}
	count := 5
	if n < count {
		count = n
	}
	if count == 1 {
		return []int{0}
	}
	out := make([]int, count)
	for i := range out {
		out[i] = roundHalfEvenInt(i*(n-1), count-1)
	}
	return out
}
