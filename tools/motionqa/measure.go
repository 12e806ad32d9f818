package motionqa

import (
	"image"
	"math/big"
)

// signature is what registration measures of one frame, in integers:
// pixels with alpha >= VisibleAlpha only.
type signature struct {
	w, h                     int64
	visible                  bool
	alpha, wx, wy            int64 // sum of alpha, of x*alpha, of y*alpha
	left, top, right, bottom int64 // inclusive bounding box
}

func measureSignature(img *image.NRGBA) signature {
	s := signature{w: int64(img.Rect.Dx()), h: int64(img.Rect.Dy())}
	s.left, s.top, s.right, s.bottom = s.w, s.h, -1, -1
	for y := int64(0); y < s.h; y++ {
		row := img.Pix[y*int64(img.Stride):]
		for x := int64(0); x < s.w; x++ {
			a := int64(row[4*x+3])
			if a < VisibleAlpha {
				continue
			}
			s.alpha += a
			s.wx += x * a
			s.wy += y * a
			if x < s.left {
				s.left = x
			}
			if x > s.right {
				s.right = x
			}
			if y < s.top {
				s.top = y
			}
			if y > s.bottom {
				s.bottom = y
			}
		}
	}
	s.visible = s.alpha > 0
	if !s.visible {
		s.left, s.top, s.right, s.bottom = 0, 0, -1, -1
	}
	return s
}

func rat(num, den int64) *big.Rat { return big.NewRat(num, den) }

func (s signature) area() *big.Rat { return rat(s.alpha, 255*s.w*s.h) }
func (s signature) centroidX() *big.Rat {
	if !s.visible {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(big.NewInt(s.wx), new(big.Int).Mul(big.NewInt(s.alpha), big.NewInt(s.w)))
}
func (s signature) centroidY() *big.Rat {
	if !s.visible {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(big.NewInt(s.wy), new(big.Int).Mul(big.NewInt(s.alpha), big.NewInt(s.h)))
}
func (s signature) bboxWidth() *big.Rat  { return rat(s.right-s.left+1, s.w) }
func (s signature) bboxHeight() *big.Rat { return rat(s.bottom-s.top+1, s.h) }
func (s signature) baseline() *big.Rat   { return rat(s.bottom+1, s.h) }

// margins are the transparent rows or columns between the visible box and
// each side, as fractions: left, top, right, bottom.
func (s signature) margins() [4]*big.Rat {
	if !s.visible {
		return [4]*big.Rat{rat(1, 1), rat(1, 1), rat(1, 1), rat(1, 1)}
	}
	return [4]*big.Rat{rat(s.left, s.w), rat(s.top, s.h), rat(s.w-1-s.right, s.w), rat(s.h-1-s.bottom, s.h)}
}

// edgeSides names the sides a visible pixel touches: the clipping check.
func (s signature) edgeSides() []string {
	var sides []string
	if !s.visible {
		return sides
	}
	if s.left == 0 {
		sides = append(sides, "left")
	}
	if s.top == 0 {
		sides = append(sides, "top")
	}
	if s.right == s.w-1 {
		sides = append(sides, "right")
	}
	if s.bottom == s.h-1 {
		sides = append(sides, "bottom")
	}
	return sides
}

// frameDelta is the mean absolute difference of two normalised frames over
// every byte, as a fraction of 255 (the authors' adjacent delta).
func frameDelta(a, b []byte) *big.Rat {
	var sum int64
	for i := range a {
		d := int64(a[i]) - int64(b[i])
		if d < 0 {
			d = -d
		}
		sum += d
	}
	if len(a) == 0 {
		return new(big.Rat)
	}
	return rat(sum, int64(len(a))*255)
}

// BlendFit is the least-squares fit of a middle frame as left + w*(right -
// left), on the raw RGBA channels of every stride-th pixel, in integers.
type BlendFit struct {
	// Frame is the middle frame's index.
	Frame int
	// Den, Num and Soo are the sums of delta^2, observed*delta and
	// observed^2, where delta = right - left and observed = middle - left.
	Den, Num, Soo int64
	// Count is the number of channel samples.
	Count int64
}

// BlendStride is the sampling step of the blend fit over n pixels.
func BlendStride(n int) int {
	s := n / 50000
	if s < 1 {
		s = 1
	}
	return s
}

func fitBlend(frame int, l, m, r *image.NRGBA) BlendFit {
	f := BlendFit{Frame: frame}
	w, h := l.Rect.Dx(), l.Rect.Dy()
	n := w * h
	stride := BlendStride(n)
	for p := 0; p < n; p += stride {
		x, y := p%w, p/w
		lo, mo, ro := l.PixOffset(x, y), m.PixOffset(x, y), r.PixOffset(x, y)
		for c := 0; c < 4; c++ {
			start := int64(l.Pix[lo+c])
			delta := int64(r.Pix[ro+c]) - start
			obs := int64(m.Pix[mo+c]) - start
			f.Den += delta * delta
			f.Num += obs * delta
			f.Soo += obs * obs
			f.Count++
		}
	}
	return f
}

// Candidate says whether the fit marks a synthetic blend: motion RMS >= 2
// (of 255), 0.05 <= w <= 0.95 and relative residual <= 0.06, each decided
// exactly: den >= 4*count; 20*num in [den, 19*den]; and
// (soo*den - num^2) * 10000 <= 36 * den^2.
func (f BlendFit) Candidate() bool {
	if f.Den <= 0 || f.Count == 0 {
		return false
	}
	if f.Den < 4*f.Count || 20*f.Num < f.Den || 20*f.Num > 19*f.Den {
		return false
	}
	den, num, soo := big.NewInt(f.Den), big.NewInt(f.Num), big.NewInt(f.Soo)
	lhs := new(big.Int).Sub(new(big.Int).Mul(soo, den), new(big.Int).Mul(num, num))
	lhs.Mul(lhs, big.NewInt(10000))
	rhs := new(big.Int).Mul(new(big.Int).Mul(den, den), big.NewInt(36))
	return lhs.Cmp(rhs) <= 0
}

// Weight is num/den.
func (f BlendFit) Weight() *big.Rat { return rat(f.Num, f.Den) }

// RelativeResidual2 is the square of the relative residual,
// (soo*den - num^2) / den^2.
func (f BlendFit) RelativeResidual2() *big.Rat {
	den, num, soo := big.NewInt(f.Den), big.NewInt(f.Num), big.NewInt(f.Soo)
	n := new(big.Int).Sub(new(big.Int).Mul(soo, den), new(big.Int).Mul(num, num))
	return new(big.Rat).SetFrac(n, new(big.Int).Mul(den, den))
}

// MotionRMS2 is the square of the motion RMS in 0..255, den/count.
func (f BlendFit) MotionRMS2() *big.Rat { return rat(f.Den, f.Count) }

// BlendCandidates fits every middle frame of a state against its
// neighbours and returns the candidates.
func BlendCandidates(frames []*image.NRGBA) []BlendFit {
	var out []BlendFit
	for i := 1; i+1 < len(frames); i++ {
		if f := fitBlend(i, frames[i-1], frames[i], frames[i+1]); f.Candidate() {
			out = append(out, f)
		}
	}
	return out
}
