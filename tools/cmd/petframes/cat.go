package main

// ---------------------------------------------------------------------------
// The sitting cat.

type eyeStyle int

const (
	eyesOpen   eyeStyle = iota
	eyesWide            // white eyes with round pupils
	eyesHalf            // lids half down
	eyesClosed          // relaxed closed curves
	eyesHappy           // ^ ^
)

type mouthStyle int

const (
	mouthW     mouthStyle = iota // the small "w"
	mouthSmile                   // open smile with tongue
	mouthO                       // small round "oh"
	mouthFrown                   // downturned
	mouthFlat                    // a short straight line
)

// face is everything drawn on and around the head.
type face struct {
	eyes         eyeStyle
	lookX, lookY int // pupil offset for open and wide eyes
	mouth        mouthStyle
	blush        bool
	sadBrows     bool
	droop        int // ears: 0 upright .. 4 folded flat sideways
	earTwitch    int // the right ear's tip moves this many pixels outwards
}

// pose is one frame of the sitting cat.
type pose struct {
	dx, dy         int // the whole cat
	breathe        int // body height change (the body stays on the ground)
	squash         int // body wider and lower (a crouch)
	headDX, headDY int
	tilt           int // head tilt in degrees, clockwise, around the neck
	face
	tail [2]pt // the tail's control point and tip; the root is fixed
	// Front paws: how far each is lifted from the ground (left and right on
	// screen); a lifted paw shows its foreleg.
	pawL, pawR int
}

// neck is the pivot of head tilts.
var neck = pt{96, 140}

// restTail is the tail's control point and tip in the calm sitting pose.
var restTail = [2]pt{{178, 190}, {166, 134}}

// tailRoot is where the tail leaves the body.
var tailRoot = pt{126, 182}

// drawSitting paints the tail, body, haunches and paws of the sitting cat
// (then the head, see drawHead).
func drawSitting(c *canvas, p pose) {
	c.place(p.dx, p.dy, 0, pt{})
	tail := p.tail
	if tail == ([2]pt{}) {
		tail = restTail
	}
	drawTail(c, tailRoot, tail[0], tail[1])

	// Body, resting on the ground at y = 196.
	rx, ry := 44+p.squash, 38+p.breathe-p.squash
	cy := 196 - ry
	body := ellipse(96, cy, rx, ry)
	c.outlined(body, fur, outline)
	for _, s := range [][2]pt{{{52, cy - 10}, {64, cy - 6}}, {{50, cy + 2}, {62, cy + 4}}, {{128, cy - 6}, {140, cy - 10}}, {{130, cy + 4}, {142, cy + 2}}} {
		c.fill(intersect(body, line(s[0], s[1], 20)), furShade)
	}
	// Haunches.
	for _, hx := range []int{62, 130} {
		h := ellipse(hx, 180, 17, 16)
		c.outlined(h, fur, outline)
		c.fill(intersect(h, line(pt{hx - 8, 174}, pt{hx + 8, 174}, 16)), furShade)
	}
	c.fill(intersect(body, ellipse(96, cy+10, 24, ry-8)), cream)

	// Front paws on the ground, or lifted with the foreleg showing.
	for i, lift := range []int{p.pawL, p.pawR} {
		px := 78 + 36*i
		if lift > 0 {
			sx := 82 + 28*i
			c.outlined(line(pt{sx, 160}, pt{px, 192 - lift}, 9*q), fur, outline)
		}
		drawPaw(c, px, 193-lift)
	}
}

// drawPaw paints a front paw centred on (x, y) with two toe lines.
func drawPaw(c *canvas, x, y int) {
	c.outlined(ellipse(x, y, 12, 7), cream, outline)
	for _, tx := range []int{x - 4, x + 4} {
		c.fill(line(pt{tx, y + 1}, pt{tx, y + 5}, 6), outline)
	}
}

// drawTail paints the tail from root through control point ctrl to tip,
// striped, with a cream tip.
func drawTail(c *canvas, root, ctrl, tip pt) {
	tail := tube(root, ctrl, tip, 9, 7)
	c.outlined(tail, fur, outline)
	// Stripes: discs on the curve at a third and two thirds.
	for _, t := range []int{5, 9} {
		u := 16 - t
		bx := (u*u*root.x + 2*u*t*ctrl.x + t*t*tip.x) / 256
		by := (u*u*root.y + 2*u*t*ctrl.y + t*t*tip.y) / 256
		c.fill(intersect(tail, disc(bx, by, 5)), furShade)
	}
	c.fill(intersect(tail, disc(tip.x, tip.y, 12)), cream)
}

// drawHead paints the ears, head and face with the head centred on
// (96+ox, 100+oy) in the current placement.
func drawHead(c *canvas, f face, ox, oy int) {
	o := func(x, y int) pt { return pt{x + ox, y + oy} }
	// Ears: outer base, tip, inner base; drooping swings the tip outwards
	// and down.
	d := f.droop
	left := [3]pt{o(50, 90), o(52-7*d, 34+11*d), o(88, 62)}
	right := [3]pt{o(142, 90), o(140+7*d+f.earTwitch, 34+11*d), o(104, 62)}
	for _, e := range [][3]pt{left, right} {
		c.outlined(polygon(e[0], e[1], e[2]), fur, outline)
		c.fill(polygon(towards(e[0], e[1], e[2]), towards(e[1], e[0], e[2]), towards(e[2], e[0], e[1])), earPink)
	}
	hx, hy := 96+ox, 100+oy
	head := ellipse(hx, hy, 54, 42)
	c.outlined(head, fur, outline)
	// Forehead and cheek stripes.
	for _, dx := range []int{-12, 0, 12} {
		c.fill(line(o(96+dx, 60), o(96+dx*4/5, 74), 20), furShade)
	}
	for _, s := range [][2]pt{{o(42, 92), o(54, 95)}, {o(42, 102), o(52, 103)}, {o(150, 92), o(138, 95)}, {o(150, 102), o(140, 103)}} {
		c.fill(intersect(head, line(s[0], s[1], 16)), furShade)
	}
	c.fill(intersect(head, ellipse(hx, hy+24, 30, 16)), cream)

	// Eyes.
	for _, ex := range []int{hx - 24, hx + 24} {
		ey := hy
		switch f.eyes {
		case eyesOpen:
			c.fill(ellipse(ex+f.lookX, ey+f.lookY, 7, 10), pupil)
			c.fill(disc(ex+f.lookX-2, ey+f.lookY-4, 2), white)
		case eyesWide:
			c.outlined(ellipse(ex, ey, 11, 13), white, outline)
			c.fill(disc(ex+f.lookX, ey+1+f.lookY, 7), pupil)
			c.fill(disc(ex+f.lookX-2, ey-3+f.lookY, 2), white)
		case eyesHalf:
			c.fill(intersect(ellipse(ex+f.lookX, ey+f.lookY, 7, 10), below(ey)), pupil)
			c.fill(line(pt{ex - 9, ey}, pt{ex + 9, ey}, 12), outline)
		case eyesClosed:
			c.fill(intersect(ring(ex, ey-6, 9, 24), below(ey-6)), outline)
		case eyesHappy:
			c.fill(intersect(ring(ex, ey+6, 9, 24), above(ey+6)), outline)
		}
	}
	if f.sadBrows {
		c.fill(line(pt{hx - 34, hy - 14}, pt{hx - 16, hy - 20}, 12), outline)
		c.fill(line(pt{hx + 16, hy - 20}, pt{hx + 34, hy - 14}, 12), outline)
	}
	if f.blush {
		c.fill(ellipse(hx-38, hy+18, 9, 5), blush)
		c.fill(ellipse(hx+38, hy+18, 9, 5), blush)
	}

	// Nose and mouth.
	c.fill(polygon(o(89, 112), o(103, 112), o(96, 119)), nose)
	switch f.mouth {
	case mouthW:
		for _, mx := range []int{hx - 6, hx + 6} {
			c.fill(intersect(ring(mx, hy+19, 6, 24), below(hy+19)), outline)
		}
	case mouthSmile:
		m := intersect(ellipse(hx, hy+21, 11, 11), below(hy+21))
		c.outlined(m, mouthRed, outline)
		c.fill(intersect(m, ellipse(hx, hy+31, 7, 5)), tongue)
	case mouthO:
		c.outlined(ellipse(hx, hy+27, 4, 5), mouthRed, outline)
	case mouthFrown:
		c.fill(intersect(ring(hx, hy+32, 8, 24), above(hy+32)), outline)
	case mouthFlat:
		c.fill(line(o(90, 125), o(102, 125), 12), outline)
	}

	// Whiskers.
	for _, w := range [][2]pt{{o(48, 112), o(28, 108)}, {o(48, 119), o(28, 121)}, {o(144, 112), o(164, 108)}, {o(144, 119), o(164, 121)}} {
		c.fill(line(w[0], w[1], 6), outline)
	}
}

// drawCat paints the whole sitting cat in pose p.
func drawCat(c *canvas, p pose) {
	drawSitting(c, p)
	c.place(p.dx+p.headDX, p.dy+p.headDY, p.tilt, neck)
	drawHead(c, p.face, 0, 0)
	c.place(0, 0, 0, pt{})
}
