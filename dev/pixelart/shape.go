package pixelart

// Shape reports whether the point (x, y), in steps with y growing
// downwards, is inside.
type Shape func(x, y int64) bool

// Point is a point in design units.
type Point struct{ X, Y int }

// Pt is shorthand for Point{x, y}.
func Pt(x, y int) Point { return Point{x, y} }

// Add returns p moved by (dx, dy).
func (p Point) Add(dx, dy int) Point { return Point{p.X + dx, p.Y + dy} }

// steps converts p to steps.
func (p Point) steps() (int64, int64) { return int64(p.X * Q), int64(p.Y * Q) }

// Ellipse is the axis-aligned ellipse centred on (cx, cy) with radii rx, ry.
func Ellipse(cx, cy, rx, ry int) Shape {
	CX, CY := Pt(cx, cy).steps()
	RX, RY := Pt(rx, ry).steps()
	lim := RX * RX * RY * RY
	return func(x, y int64) bool {
		dx, dy := x-CX, y-CY
		return dx*dx*RY*RY+dy*dy*RX*RX <= lim
	}
}

// Disc is the circle centred on (cx, cy) with radius r.
func Disc(cx, cy, r int) Shape { return Ellipse(cx, cy, r, r) }

// Ring is the circle of radius r around (cx, cy) drawn w steps thick.
func Ring(cx, cy, r int, w int64) Shape {
	CX, CY := Pt(cx, cy).steps()
	R := int64(r * Q)
	lo, hi := R-w/2, R+w/2
	return func(x, y int64) bool {
		dx, dy := x-CX, y-CY
		d := dx*dx + dy*dy
		return d >= lo*lo && d <= hi*hi
	}
}

// Arc is the part of Ring(cx, cy, r, w) between the directions from and to
// (see Sector).
func Arc(cx, cy, r int, w int64, from, to int) Shape {
	return Intersect(Ring(cx, cy, r, w), Sector(cx, cy, from, to))
}

// Sector is the wedge at (cx, cy) between the directions from and to, in
// degrees clockwise on screen from the positive x axis, with
// from <= to <= from+180 (wider wedges are a Union of two).
func Sector(cx, cy, from, to int) Shape {
	CX, CY := Pt(cx, cy).steps()
	s0, c0 := SinCos(from)
	s1, c1 := SinCos(to)
	return func(x, y int64) bool {
		dx, dy := x-CX, y-CY
		// Cross products: the point lies clockwise of the first edge and
		// anticlockwise of the second.
		return c0*dy-s0*dx >= 0 && dx*s1-dy*c1 >= 0
	}
}

// Below is the half plane at or below the row y.
func Below(y int) Shape {
	Y := int64(y * Q)
	return func(_, sy int64) bool { return sy >= Y }
}

// Above is the half plane strictly above the row y.
func Above(y int) Shape {
	Y := int64(y * Q)
	return func(_, sy int64) bool { return sy < Y }
}

// Polygon is the simple polygon with the given vertices (even-odd rule).
func Polygon(v ...Point) Shape {
	return func(x, y int64) bool {
		in := false
		for i, j := 0, len(v)-1; i < len(v); j, i = i, i+1 {
			ax, ay := v[i].steps()
			bx, by := v[j].steps()
			if (ay > y) == (by > y) {
				continue
			}
			// Is x left of the edge's crossing of the row y? Compared as
			// cross-multiplied products, so nothing is divided.
			lhs, rhs := (x-ax)*(by-ay), (bx-ax)*(y-ay)
			if (by > ay && lhs < rhs) || (by < ay && lhs > rhs) {
				in = !in
			}
		}
		return in
	}
}

// Inset is the triangle abc shrunk: each corner moved a third of the way
// towards the middle of the opposite side (the pink inside of an ear).
func Inset(a, b, c Point) Shape {
	return Polygon(towards(a, b, c), towards(b, a, c), towards(c, a, b))
}

// towards moves corner p a third of the way towards the middle of the
// opposite side ab.
func towards(p, a, b Point) Point {
	mx, my := (a.X+b.X)/2, (a.Y+b.Y)/2
	return Point{p.X + (mx-p.X)/3, p.Y + (my-p.Y)/3}
}

// near reports whether (px, py) is within r of the segment from (ax, ay) to
// (bx, by), all in steps.
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
	// The squared distance to the line is cr²/l2; compare without dividing.
	cr := ex*dy - ey*dx
	return cr*cr <= r*r*l2
}

// Line is the segment from a to b thickened to radius r steps, with round
// caps; a zero-length Line is a disc of radius r steps.
func Line(a, b Point, r int64) Shape {
	ax, ay := a.steps()
	bx, by := b.steps()
	return func(x, y int64) bool { return near(x, y, ax, ay, bx, by, r) }
}

// tubeSteps is the number of straight pieces a Tube's curve is cut into.
const tubeSteps = 16

// Tube is the quadratic Bézier curve from p0 (control point p1) to p2,
// thickened to a radius going from r0 to r2 design units along it.
func Tube(p0, p1, p2 Point, r0, r2 int) Shape {
	const n = tubeSteps
	var xs, ys, rs [n + 1]int64
	minX, minY, maxX, maxY := int64(1)<<40, int64(1)<<40, -(int64(1) << 40), -(int64(1) << 40)
	for i := 0; i <= n; i++ {
		u, t := int64(n-i), int64(i)
		xs[i] = (u*u*int64(p0.X) + 2*u*t*int64(p1.X) + t*t*int64(p2.X)) * Q / (n * n)
		ys[i] = (u*u*int64(p0.Y) + 2*u*t*int64(p1.Y) + t*t*int64(p2.Y)) * Q / (n * n)
		rs[i] = (u*int64(r0) + t*int64(r2)) * Q / n
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
		// The bounding box first: most samples of a canvas are far away.
		if x < minX || x > maxX || y < minY || y > maxY {
			return false
		}
		for i := 0; i < n; i++ {
			if near(x, y, xs[i], ys[i], xs[i+1], ys[i+1], (rs[i]+rs[i+1])/2) {
				return true
			}
		}
		return false
	}
}

// BezierPoint is the point at t/16 of the way along the curve Tube(p0, p1,
// p2, ...) draws, rounded down to design units.
func BezierPoint(p0, p1, p2 Point, t int) Point {
	u := tubeSteps - t
	return Point{
		(u*u*p0.X + 2*u*t*p1.X + t*t*p2.X) / (tubeSteps * tubeSteps),
		(u*u*p0.Y + 2*u*t*p1.Y + t*t*p2.Y) / (tubeSteps * tubeSteps),
	}
}

// Union is inside any of the shapes.
func Union(s ...Shape) Shape {
	return func(x, y int64) bool {
		for _, f := range s {
			if f(x, y) {
				return true
			}
		}
		return false
	}
}

// Intersect is inside all of the shapes.
func Intersect(s ...Shape) Shape {
	return func(x, y int64) bool {
		for _, f := range s {
			if !f(x, y) {
				return false
			}
		}
		return true
	}
}

// Minus is inside a but not b.
func Minus(a, b Shape) Shape {
	return func(x, y int64) bool { return a(x, y) && !b(x, y) }
}
