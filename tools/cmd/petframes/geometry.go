package main

// ---------------------------------------------------------------------------
// Integer geometry.
//
// Shapes are sampled at pixel centres in sub-pixel units (q per pixel), with
// y growing downwards. Coordinates given to the shape constructors are in
// whole pixels; line radii are in sub-pixel units.

// q is the number of sub-pixel units per pixel.
const q = 8

// shape reports whether the point (x, y), in sub-pixel units, is inside.
type shape func(x, y int64) bool

// pt is a point in whole pixels.
type pt struct{ x, y int }

func (p pt) add(dx, dy int) pt { return pt{p.x + dx, p.y + dy} }

// sinTable and cosTable are round(16384 * sin(d°)) and round(16384 * cos(d°))
// for d = 0..30, fixed here so no floating point is involved.
var sinTable = [31]int64{0, 286, 572, 857, 1143, 1428, 1713, 1997, 2280, 2563, 2845, 3126, 3406, 3686, 3964, 4240, 4516, 4790, 5063, 5334, 5604, 5872, 6138, 6402, 6664, 6924, 7182, 7438, 7692, 7943, 8192}
var cosTable = [31]int64{16384, 16382, 16374, 16362, 16344, 16322, 16294, 16262, 16225, 16182, 16135, 16083, 16026, 15964, 15897, 15826, 15749, 15668, 15582, 15491, 15396, 15296, 15191, 15082, 14968, 14849, 14726, 14598, 14466, 14330, 14189}

// sinCos returns the Q14 sine and cosine of deg degrees (-30..30).
func sinCos(deg int) (int64, int64) {
	if deg < 0 {
		return -sinTable[-deg], cosTable[-deg]
	}
	return sinTable[deg], cosTable[deg]
}

// q14 rounds a Q14 fixed-point product to an integer (half up).
func q14(v int64) int64 { return (v + 8192) >> 14 }

// ellipse is the axis-aligned ellipse centred on (cx, cy) with radii rx, ry.
func ellipse(cx, cy, rx, ry int) shape {
	CX, CY := int64(cx*q), int64(cy*q)
	RX, RY := int64(rx*q), int64(ry*q)
	lim := RX * RX * RY * RY
	return func(x, y int64) bool {
		dx, dy := x-CX, y-CY
		return dx*dx*RY*RY+dy*dy*RX*RX <= lim
	}
}

// disc is the circle centred on (cx, cy) with radius r.
func disc(cx, cy, r int) shape { return ellipse(cx, cy, r, r) }

// ring is the circle of radius r around (cx, cy) drawn w sub-pixel units thick.
func ring(cx, cy, r int, w int64) shape {
	CX, CY, R := int64(cx*q), int64(cy*q), int64(r*q)
	lo, hi := R-w/2, R+w/2
	return func(x, y int64) bool {
		dx, dy := x-CX, y-CY
		d := dx*dx + dy*dy
		return d >= lo*lo && d <= hi*hi
	}
}

// below is the half plane at or below the row y (y in pixels).
func below(y int) shape {
	Y := int64(y * q)
	return func(_, sy int64) bool { return sy >= Y }
}

// above is the half plane above the row y.
func above(y int) shape {
	Y := int64(y * q)
	return func(_, sy int64) bool { return sy < Y }
}

// polygon is the simple polygon with the given vertices (even-odd rule).
func polygon(v ...pt) shape {
	return func(x, y int64) bool {
		in := false
		for i, j := 0, len(v)-1; i < len(v); j, i = i, i+1 {
			ax, ay := int64(v[i].x*q), int64(v[i].y*q)
			bx, by := int64(v[j].x*q), int64(v[j].y*q)
			if (ay > y) == (by > y) {
				continue
			}
			// Is x left of the edge's crossing of the row y?
			lhs, rhs := (x-ax)*(by-ay), (bx-ax)*(y-ay)
			if (by > ay && lhs < rhs) || (by < ay && lhs > rhs) {
				in = !in
			}
		}
		return in
	}
}

// near reports whether (px, py) is within r of the segment from (ax, ay) to
// (bx, by), all in sub-pixel units.
func near(px, py, ax, ay, bx, by, r int64) bool {
	dx, dy := bx-ax, by-ay
	ex, ey := px-ax, py-ay
	l2 := dx*dx + dy*dy
	t := ex*dx + ey*dy
	if l2 == 0 || t <= 0 {
		return ex*ex+ey*ey <= r*r
	}
	if t >= l2 {
		fx, fy := px-bx, py-by
		return fx*fx+fy*fy <= r*r
	}
	cr := ex*dy - ey*dx
	return cr*cr <= r*r*l2
}

// line is the segment from a to b thickened to radius r sub-pixel units,
// with round caps.
func line(a, b pt, r int64) shape {
	ax, ay, bx, by := int64(a.x*q), int64(a.y*q), int64(b.x*q), int64(b.y*q)
	return func(x, y int64) bool { return near(x, y, ax, ay, bx, by, r) }
}

// tube is the quadratic Bézier curve from p0 (control point p1) to p2,
// thickened to a radius going from r0 to r2 pixels along it.
func tube(p0, p1, p2 pt, r0, r2 int) shape {
	const steps = 16
	var xs, ys, rs [steps + 1]int64
	minX, minY, maxX, maxY := int64(1)<<40, int64(1)<<40, -(int64(1) << 40), -(int64(1) << 40)
	for i := 0; i <= steps; i++ {
		u, t := int64(steps-i), int64(i)
		xs[i] = (u*u*int64(p0.x) + 2*u*t*int64(p1.x) + t*t*int64(p2.x)) * q / (steps * steps)
		ys[i] = (u*u*int64(p0.y) + 2*u*t*int64(p1.y) + t*t*int64(p2.y)) * q / (steps * steps)
		rs[i] = (u*int64(r0) + t*int64(r2)) * q / steps
		if xs[i]-rs[i] < minX {
			minX = xs[i] - rs[i]
		}
		if ys[i]-rs[i] < minY {
			minY = ys[i] - rs[i]
		}
		if xs[i]+rs[i] > maxX {
			maxX = xs[i] + rs[i]
		}
		if ys[i]+rs[i] > maxY {
			maxY = ys[i] + rs[i]
		}
	}
	return func(x, y int64) bool {
		if x < minX || x > maxX || y < minY || y > maxY {
			return false
		}
		for i := 0; i < steps; i++ {
			if near(x, y, xs[i], ys[i], xs[i+1], ys[i+1], (rs[i]+rs[i+1])/2) {
				return true
			}
		}
		return false
	}
}

// union is inside any of the shapes.
func union(s ...shape) shape {
	return func(x, y int64) bool {
		for _, f := range s {
			if f(x, y) {
				return true
			}
		}
		return false
	}
}

// intersect is inside all of the shapes.
func intersect(s ...shape) shape {
	return func(x, y int64) bool {
		for _, f := range s {
			if !f(x, y) {
				return false
			}
		}
		return true
	}
}

// towards moves corner p a third of the way towards the middle of the
// opposite side ab, to inset the pink inside of an ear.
func towards(p, a, b pt) pt {
	mx, my := (a.x+b.x)/2, (a.y+b.y)/2
	return pt{p.x + (mx-p.x)/3, p.y + (my-p.y)/3}
}
