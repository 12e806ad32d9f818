package petpack

import "image"

// The checkerboard detector for cover.png (section 6: a cover "contains no
// baked-in checkerboard background", the transparency preview of an image
// editor flattened into the pixels).
//
// A pixel is a tone when it is fully opaque, near-neutral (its largest and
// smallest RGB channels at most 24 apart) and not dark (luma at least 48;
// art's black outlines are not a checkerboard), and flat when it and its
// right and lower neighbours are tones within 6 luma of each other. For a
// cell size s from 4 to 32 px, p is a checker pixel when p, p+(s,0),
// p+(0,s) and p+(s,s) are all flat, p matches its diagonal p+(s,s) and
// p+(s,0) matches p+(0,s) (within 6 luma), and p differs from p+(s,0) by
// at least 16 luma: two tones alternating in square cells along both
// axes. In a real checkerboard the four points sit at the same place in
// their cells, so they are flat together. The cover is refused when, for some s, checker pixels number
// at least 2% of the cover and at least four cells' worth (4*s*s).
//
// Why this does not fire on ordinary art with a transparent background:
// transparent, coloured and dark pixels are never tones; a uniform or
// smoothly shaded grey area has no p+(s,0) that differs while the diagonal
// matches (a linear gradient cannot satisfy both); stripes fail one axis;
// random grey dither is rarely flat at four points at once (about 0.1% of
// its pixels qualify); and a few cells where four grey regions meet
// stay far below 2% of the cover. What it does refuse besides a baked
// background is a light-grey chequered object covering 2% of the cover,
// which a character portrait is not expected to hold. It is deterministic
// (integer thresholds, no sampling) and costs one pass per cell size over
// a byte per pixel, skipped outright when tones are under 2% of the cover.
const (
	checkerMinCell   = 4
	checkerMaxCell   = 32
	checkerMinLuma   = 48
	checkerMaxChroma = 24
	// Thresholds on the tone map, which holds luma halved.
	checkerSame = 6 / 2
	checkerDiff = 16 / 2
)

// toneMap holds a byte per cover pixel: 0 for a pixel that is not a tone,
// otherwise its luma halved (24 to 127) with toneFlat set when the pixel
// is flat.
type toneMap struct {
	w, h  int
	t     []uint8
	tones int
}

const (
	toneFlat = 0x80
	toneMask = 0x7f
)

// coverPixels reads the cover once for its alpha coverage and tone map.
func coverPixels(img image.Image) (alphaCount, toneMap) {
	b := img.Bounds()
	m := toneMap{w: b.Dx(), h: b.Dy(), t: make([]uint8, b.Dx()*b.Dy())}
	var count alphaCount
	eachRow(img, func(y int, row []byte) {
		count.add(row)
		out := m.t[y*m.w : (y+1)*m.w]
		for x := range out {
			r, g, bl, a := int(row[4*x]), int(row[4*x+1]), int(row[4*x+2]), row[4*x+3]
			hi, lo := r, r
			for _, v := range [2]int{g, bl} {
				if v > hi {
					hi = v
				}
				if v < lo {
					lo = v
				}
			}
			luma := (299*r + 587*g + 114*bl) / 1000
			if a == 0xff && hi-lo <= checkerMaxChroma && luma >= checkerMinLuma {
				out[x] = uint8(luma / 2)
				m.tones++
			}
		}
	})
	for y := 0; y+1 < m.h; y++ {
		for x := 0; x+1 < m.w; x++ {
			i := y*m.w + x
			p, r, d := m.t[i]&toneMask, m.t[i+1]&toneMask, m.t[i+m.w]
			if p != 0 && r != 0 && d != 0 && near(p, r, checkerSame) && near(p, d, checkerSame) {
				m.t[i] |= toneFlat
			}
		}
	}
	return count, m
}

func near(a, b, tol uint8) bool {
	if a > b {
		return a-b <= tol
	}
	return b-a <= tol
}

// checkerboard returns the first cell size at which the tone map holds a
// checkerboard, as the comment above defines it.
func (m toneMap) checkerboard() (int, bool) {
	total := m.w * m.h
	if m.tones*50 < total {
		return 0, false
	}
	for s := checkerMinCell; s <= checkerMaxCell && s < m.w && s < m.h; s++ {
		need := total / 50
		if 4*s*s > need {
			need = 4 * s * s
		}
		count := 0
		for y := 0; y+s < m.h; y++ {
			row := m.t[y*m.w:]
			below := m.t[(y+s)*m.w:]
			for x := 0; x+s < m.w; x++ {
				p := row[x]
				if p&toneFlat == 0 {
					continue
				}
				r, d, diag := row[x+s], below[x], below[x+s]
				if r&d&diag&toneFlat == 0 {
					continue
				}
				p, r, d, diag = p&toneMask, r&toneMask, d&toneMask, diag&toneMask
				if near(p, diag, checkerSame) && near(r, d, checkerSame) && !near(p, r, checkerDiff-1) {
					count++
				}
			}
		}
		if count >= need {
			return s, true
		}
	}
	return 0, false
}
