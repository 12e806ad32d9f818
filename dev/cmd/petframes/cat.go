package main

import "github.com/agentpet/rules_pet/dev/pixelart"

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
	tail [2]pixelart.Point // the tail's control point and tip; the root is fixed
	// Front paws: how far each is lifted from the ground (left and right on
	// screen); a lifted paw shows its foreleg.
	pawL, pawR int
}

// neck is the pivot of head tilts.
var neck = pixelart.Pt(96, 140)

// restTail is the tail's control point and tip in the calm sitting pose.
var restTail = [2]pixelart.Point{pixelart.Pt(178, 190), pixelart.Pt(166, 134)}

// tailRoot is where the tail leaves the body.
var tailRoot = pixelart.Pt(126, 182)

// drawSitting paints the tail, body, haunches and paws of the sitting cat
// (then the head, see drawHead).
func drawSitting(c *pixelart.Canvas, p pose) {
	c.Place(p.dx, p.dy, 0, pixelart.Point{})
	tail := p.tail
	if tail == ([2]pixelart.Point{}) {
		tail = restTail
	}
	drawTail(c, tailRoot, tail[0], tail[1])

	// Body, resting on the ground at y = 196.
	rx, ry := 44+p.squash, 38+p.breathe-p.squash
	cy := 196 - ry
	body := pixelart.Ellipse(96, cy, rx, ry)
	c.Outlined(body, pixelart.Fur, pixelart.Outline)
	for _, s := range [][2]pixelart.Point{{pixelart.Pt(52, cy-10), pixelart.Pt(64, cy-6)}, {pixelart.Pt(50, cy+2), pixelart.Pt(62, cy+4)}, {pixelart.Pt(128, cy-6), pixelart.Pt(140, cy-10)}, {pixelart.Pt(130, cy+4), pixelart.Pt(142, cy+2)}} {
		c.Fill(pixelart.Intersect(body, pixelart.Line(s[0], s[1], 20)), pixelart.FurShade)
	}
	// Haunches.
	for _, hx := range []int{62, 130} {
		h := pixelart.Ellipse(hx, 180, 17, 16)
		c.Outlined(h, pixelart.Fur, pixelart.Outline)
		c.Fill(pixelart.Intersect(h, pixelart.Line(pixelart.Pt(hx-8, 174), pixelart.Pt(hx+8, 174), 16)), pixelart.FurShade)
	}
	c.Fill(pixelart.Intersect(body, pixelart.Ellipse(96, cy+10, 24, ry-8)), pixelart.Cream)

	// Front paws on the ground, or lifted with the foreleg showing.
	for i, lift := range []int{p.pawL, p.pawR} {
		px := 78 + 36*i
		if lift > 0 {
			sx := 82 + 28*i
			c.Outlined(pixelart.Line(pixelart.Pt(sx, 160), pixelart.Pt(px, 192-lift), 9*pixelart.Q), pixelart.Fur, pixelart.Outline)
		}
		drawPaw(c, px, 193-lift)
	}
}

// drawPaw paints a front paw centred on (x, y) with two toe lines.
func drawPaw(c *pixelart.Canvas, x, y int) {
	c.Outlined(pixelart.Ellipse(x, y, 12, 7), pixelart.Cream, pixelart.Outline)
	for _, tx := range []int{x - 4, x + 4} {
		c.Fill(pixelart.Line(pixelart.Pt(tx, y+1), pixelart.Pt(tx, y+5), 6), pixelart.Outline)
	}
}

// drawTail paints the tail from root through control point ctrl to tip,
// striped, with a cream tip.
func drawTail(c *pixelart.Canvas, root, ctrl, tip pixelart.Point) {
	tail := pixelart.Tube(root, ctrl, tip, 9, 7)
	c.Outlined(tail, pixelart.Fur, pixelart.Outline)
	// Stripes: discs on the curve at a third and two thirds.
	for _, t := range []int{5, 9} {
		b := pixelart.BezierPoint(root, ctrl, tip, t)
		c.Fill(pixelart.Intersect(tail, pixelart.Disc(b.X, b.Y, 5)), pixelart.FurShade)
	}
	c.Fill(pixelart.Intersect(tail, pixelart.Disc(tip.X, tip.Y, 12)), pixelart.Cream)
}

// drawHead paints the ears, head and face with the head centred on
// (96+ox, 100+oy) in the current placement.
func drawHead(c *pixelart.Canvas, f face, ox, oy int) {
	o := func(x, y int) pixelart.Point { return pixelart.Pt(x+ox, y+oy) }
	// Ears: outer base, tip, inner base; drooping swings the tip outwards
	// and down.
	d := f.droop
	left := [3]pixelart.Point{o(50, 90), o(52-7*d, 34+11*d), o(88, 62)}
	right := [3]pixelart.Point{o(142, 90), o(140+7*d+f.earTwitch, 34+11*d), o(104, 62)}
	for _, e := range [][3]pixelart.Point{left, right} {
		c.Outlined(pixelart.Polygon(e[0], e[1], e[2]), pixelart.Fur, pixelart.Outline)
		c.Fill(pixelart.Inset(e[0], e[1], e[2]), pixelart.EarPink)
	}
	hx, hy := 96+ox, 100+oy
	head := pixelart.Ellipse(hx, hy, 54, 42)
	c.Outlined(head, pixelart.Fur, pixelart.Outline)
	// Forehead and cheek stripes.
	for _, dx := range []int{-12, 0, 12} {
		c.Fill(pixelart.Line(o(96+dx, 60), o(96+dx*4/5, 74), 20), pixelart.FurShade)
	}
	for _, s := range [][2]pixelart.Point{{o(42, 92), o(54, 95)}, {o(42, 102), o(52, 103)}, {o(150, 92), o(138, 95)}, {o(150, 102), o(140, 103)}} {
		c.Fill(pixelart.Intersect(head, pixelart.Line(s[0], s[1], 16)), pixelart.FurShade)
	}
	c.Fill(pixelart.Intersect(head, pixelart.Ellipse(hx, hy+24, 30, 16)), pixelart.Cream)

	// Eyes.
	for _, ex := range []int{hx - 24, hx + 24} {
		ey := hy
		switch f.eyes {
		case eyesOpen:
			c.Fill(pixelart.Ellipse(ex+f.lookX, ey+f.lookY, 7, 10), pixelart.Pupil)
			c.Fill(pixelart.Disc(ex+f.lookX-2, ey+f.lookY-4, 2), pixelart.White)
		case eyesWide:
			c.Outlined(pixelart.Ellipse(ex, ey, 11, 13), pixelart.White, pixelart.Outline)
			c.Fill(pixelart.Disc(ex+f.lookX, ey+1+f.lookY, 7), pixelart.Pupil)
			c.Fill(pixelart.Disc(ex+f.lookX-2, ey-3+f.lookY, 2), pixelart.White)
		case eyesHalf:
			c.Fill(pixelart.Intersect(pixelart.Ellipse(ex+f.lookX, ey+f.lookY, 7, 10), pixelart.Below(ey)), pixelart.Pupil)
			c.Fill(pixelart.Line(pixelart.Pt(ex-9, ey), pixelart.Pt(ex+9, ey), 12), pixelart.Outline)
		case eyesClosed:
			c.Fill(pixelart.Intersect(pixelart.Ring(ex, ey-6, 9, 24), pixelart.Below(ey-6)), pixelart.Outline)
		case eyesHappy:
			c.Fill(pixelart.Intersect(pixelart.Ring(ex, ey+6, 9, 24), pixelart.Above(ey+6)), pixelart.Outline)
		}
	}
	if f.sadBrows {
		c.Fill(pixelart.Line(pixelart.Pt(hx-34, hy-14), pixelart.Pt(hx-16, hy-20), 12), pixelart.Outline)
		c.Fill(pixelart.Line(pixelart.Pt(hx+16, hy-20), pixelart.Pt(hx+34, hy-14), 12), pixelart.Outline)
	}
	if f.blush {
		c.Fill(pixelart.Ellipse(hx-38, hy+18, 9, 5), pixelart.Blush)
		c.Fill(pixelart.Ellipse(hx+38, hy+18, 9, 5), pixelart.Blush)
	}

	// Nose and mouth.
	c.Fill(pixelart.Polygon(o(89, 112), o(103, 112), o(96, 119)), pixelart.Nose)
	switch f.mouth {
	case mouthW:
		for _, mx := range []int{hx - 6, hx + 6} {
			c.Fill(pixelart.Intersect(pixelart.Ring(mx, hy+19, 6, 24), pixelart.Below(hy+19)), pixelart.Outline)
		}
	case mouthSmile:
		m := pixelart.Intersect(pixelart.Ellipse(hx, hy+21, 11, 11), pixelart.Below(hy+21))
		c.Outlined(m, pixelart.MouthRed, pixelart.Outline)
		c.Fill(pixelart.Intersect(m, pixelart.Ellipse(hx, hy+31, 7, 5)), pixelart.Tongue)
	case mouthO:
		c.Outlined(pixelart.Ellipse(hx, hy+27, 4, 5), pixelart.MouthRed, pixelart.Outline)
	case mouthFrown:
		c.Fill(pixelart.Intersect(pixelart.Ring(hx, hy+32, 8, 24), pixelart.Above(hy+32)), pixelart.Outline)
	case mouthFlat:
		c.Fill(pixelart.Line(o(90, 125), o(102, 125), 12), pixelart.Outline)
	}

	// Whiskers.
	for _, w := range [][2]pixelart.Point{{o(48, 112), o(28, 108)}, {o(48, 119), o(28, 121)}, {o(144, 112), o(164, 108)}, {o(144, 119), o(164, 121)}} {
		c.Fill(pixelart.Line(w[0], w[1], 6), pixelart.Outline)
	}
}

// drawCat paints the whole sitting cat in pose p.
func drawCat(c *pixelart.Canvas, p pose) {
	drawSitting(c, p)
	c.Place(p.dx+p.headDX, p.dy+p.headDY, p.tilt, neck)
	drawHead(c, p.face, 0, 0)
	c.Place(0, 0, 0, pixelart.Point{})
}
