package imagecheck

import (
	"image"
	"strings"
)

// The checkerboard detector for cover.png (section 6: a cover "contains no
// baked-in checkerboard background", the transparency preview of an image
// editor flattened into the pixels).
//
// A background fills the cover's corners; the pet and what it holds do
// not. So, as the contract's authors do, only the four corner patches are
// read, each about a third of the cover's width and height (clamped to 48
// to 160 px, and to the cover itself), and the cover is refused when at
// least two distinct patches (the only one, when the cover is so small
// that all four coincide) carry an alternating two-tone pattern. A
// checkered flag held by the pet on a transparent canvas sits away from
// the corners and passes.
//
// In a patch, for each cell size s from 4 px to a third of the patch (at
// most 64), every second pixel p in both directions is a sample with its
// three partners p+(s,0), p+(0,s) and p+(s,s). A sample counts only when
// all four points are visible (alpha at least 16): a semi-transparent
// baked checkerboard still counts, real transparency does not. It
// matches when p and p+(s,s) agree, and p+(s,0) and p+(0,s) agree, within
// 8 per RGB channel, while p differs from both p+(s,0) and p+(0,s) by a
// squared RGB distance of at least 300 (about 10 per channel): two tones
// alternating along both axes. The patch carries a checkerboard when at
// least 128 samples count and 85% of them match at one cell size.
//
// Stripes fail the second difference, gradients and flat fills the first,
// random dither the 85%; colour plays no part, so a coloured checked
// background is refused as a grey one is. The cost is bounded by the
// patches (at most four of 160x160 px), not the cover, and the patches
// are all the detector keeps of the pixels.
const (
	checkerMinPatch   = 48
	checkerMaxPatch   = 160
	checkerMinCover   = 12
	checkerMinCell    = 4
	checkerMaxCell    = 64
	checkerMinAlpha   = 16
	checkerSameColour = 8
	checkerDiffColour = 300 // squared RGB distance
	checkerMinSamples = 128
	checkerMatchPct   = 85
)

// cornerPatch is one corner region of the cover as canonical RGBA pixels.
type cornerPatch struct {
	name   string
	x0, y0 int
	w, h   int
	pix    []byte
}

// CoverCorners holds the distinct corner patches of a cover.
type CoverCorners []cornerPatch

// NewCoverCorners lays out the corner patches of a w x h cover, dropping
// a corner that coincides with one already listed.
func NewCoverCorners(w, h int) CoverCorners {
	if w < checkerMinCover || h < checkerMinCover {
		return nil
	}
	pw, ph := patchSide(w), patchSide(h)
	var out CoverCorners
	for _, c := range []struct {
		name string
		x, y int
	}{
		{"top-left", 0, 0},
		{"top-right", w - pw, 0},
		{"bottom-left", 0, h - ph},
		{"bottom-right", w - pw, h - ph},
	} {
		dup := false
		for _, o := range out {
			dup = dup || (o.x0 == c.x && o.y0 == c.y)
		}
		if !dup {
			out = append(out, cornerPatch{name: c.name, x0: c.x, y0: c.y, w: pw, h: ph, pix: make([]byte, 4*pw*ph)})
		}
	}
	return out
}

// patchSide is a third of side, clamped to the patch bounds and the side.
func patchSide(side int) int {
	s := side / 3
	if s < checkerMinPatch {
		s = checkerMinPatch
	}
	if s > checkerMaxPatch {
		s = checkerMaxPatch
	}
	if s > side {
		s = side
	}
	return s
}

// addRow copies the parts of canonical row y that fall in a patch.
func (cc CoverCorners) AddRow(y int, row []byte) {
	for i := range cc {
		p := &cc[i]
		if y >= p.y0 && y < p.y0+p.h {
			copy(p.pix[4*p.w*(y-p.y0):], row[4*p.x0:4*(p.x0+p.w)])
		}
	}
}

// CoverPixels reads the cover once for its alpha coverage and corners.
func CoverPixels(img image.Image) (AlphaCount, CoverCorners) {
	b := img.Bounds()
	corners := NewCoverCorners(b.Dx(), b.Dy())
	var count AlphaCount
	EachRow(img, func(y int, row []byte) {
		count.Add(row)
		corners.AddRow(y, row)
	})
	return count, corners
}

// checkerboard reports whether the cover holds a baked checkerboard, as
// the comment above defines it, and which corners carry it with the cell
// size found first.
func (cc CoverCorners) Checkerboard() (corners string, cell int, found bool) {
	need := 2
	if len(cc) < need {
		need = len(cc)
	}
	if need == 0 {
		return "", 0, false
	}
	var names []string
	for _, p := range cc {
		if s, ok := p.checkered(); ok {
			names = append(names, p.name)
			if cell == 0 {
				cell = s
			}
		}
	}
	if len(names) < need {
		return "", 0, false
	}
	return strings.Join(names, ", "), cell, true
}

// checkered returns the first cell size at which the patch alternates in
// two tones.
func (p cornerPatch) checkered() (int, bool) {
	maxCell := checkerMaxCell
	if p.w/3 < maxCell {
		maxCell = p.w / 3
	}
	if p.h/3 < maxCell {
		maxCell = p.h / 3
	}
	stride := 4 * p.w
	for s := checkerMinCell; s <= maxCell; s++ {
		counted, matched := 0, 0
		for y := 0; y+s < p.h; y += 2 {
			for x := 0; x+s < p.w; x += 2 {
				tl := p.pix[y*stride+4*x:]
				tr := p.pix[y*stride+4*(x+s):]
				bl := p.pix[(y+s)*stride+4*x:]
				br := p.pix[(y+s)*stride+4*(x+s):]
				if tl[3] < checkerMinAlpha || tr[3] < checkerMinAlpha || bl[3] < checkerMinAlpha || br[3] < checkerMinAlpha {
					continue
				}
				counted++
				if sameColour(tl, br) && sameColour(tr, bl) && colourDistance(tl, tr) >= checkerDiffColour && colourDistance(tl, bl) >= checkerDiffColour {
					matched++
				}
			}
		}
		if counted >= checkerMinSamples && matched*100 >= counted*checkerMatchPct {
			return s, true
		}
	}
	return 0, false
}

// sameColour: every RGB channel of a and b within checkerSameColour.
func sameColour(a, b []byte) bool {
	for i := 0; i < 3; i++ {
		d := int(a[i]) - int(b[i])
		if d > checkerSameColour || d < -checkerSameColour {
			return false
		}
	}
	return true
}

// colourDistance is the squared RGB distance of a and b.
func colourDistance(a, b []byte) int {
	sum := 0
	for i := 0; i < 3; i++ {
		d := int(a[i]) - int(b[i])
		sum += d * d
	}
	return sum
}
