// Command petframes generates the frames of the sample V3 pet (the
// `.petpack` contract): the orange tabby cat of tools/cmd/petsprites drawn
// at the low tier's 192x208 on a transparent background, with the nine fixed
// actions at the frame counts of the contract's default timing table
// (section 4), 50 frames in all:
//
//	idle         6  breathing, a blink, a tail flick
//	thinking     4  head tilt, glance up, thought dots appearing
//	tool         4  tapping a small keyboard, one paw then the other
//	waiting      8  tail swish settling, glances; the last frame is the settle pose
//	done         4  crouch, happy bounce, landing, with sparkles
//	failed       8  surprise, then ears, head and tail droop; the last is the settle pose
//	acknowledge  4  a small nod
//	drag_left    6  held by the scruff, body trailing right, legs dangling
//	drag_right   6  the same swinging the other way
//
// Usage:
//
//	go run ./tools/cmd/petframes -out assets/petpack/frames
//
// It writes OUT/<action>/0000.png, 0001.png, ... and removes any other .png
// file from those nine directories, so a glob of each directory is exactly
// the action's frames in playing order.
//
// Every frame is an 8-bit RGBA PNG (colour type 6, not interlaced) of an
// image.NRGBA whose pixels are either fully transparent with RGB 0 or fully
// opaque colours of a small flat palette with a dark outline. All geometry is
// integer arithmetic (fixed-point sub-pixel sampling, a rounded sine table
// for rotations), so the pixels are the same on every architecture, and the
// encoder is image/png's at its default level, so the same program gives the
// same bytes. Each file is written to a temporary name and renamed. The test
// in this directory checks that the checked-in frames match a fresh run;
// after changing the art, rerun the command above and update the golden
// archive (bazel run //assets/petpack:golden.update).
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/tools/internal/spritepng"
)

// Width and Height are the low tier's exact runtime canvas.
const (
	Width  = 192
	Height = 208
)

// Action is one of the contract's nine fixed actions and its frame count.
type Action struct {
	Name   string
	Frames int
}

// Actions lists the nine actions in the contract's order with the frame
// counts of its default timing table.
var Actions = []Action{
	{"idle", 6},
	{"thinking", 4},
	{"tool", 4},
	{"waiting", 8},
	{"done", 4},
	{"failed", 8},
	{"acknowledge", 4},
	{"drag_left", 6},
	{"drag_right", 6},
}

func main() {
	out := flag.String("out", "assets/petpack/frames", "directory to write OUT/<action>/NNNN.png into")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: petframes [-out dir]")
		os.Exit(2)
	}
	if err := Generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "petframes:", err)
		os.Exit(1)
	}
}

// FrameName is the file name of frame i of an action: 0000.png, 0001.png, ...
func FrameName(i int) string {
	return fmt.Sprintf("%04d.png", i)
}

// Generate renders every action and writes its frames to
// outDir/<action>/NNNN.png, creating the directories as needed and removing
// any other .png file from them.
func Generate(outDir string) error {
	for _, a := range Actions {
		frames, err := Render(a.Name)
		if err != nil {
			return err
		}
		dir := filepath.Join(outDir, a.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		keep := make(map[string]bool)
		for i, img := range frames {
			keep[FrameName(i)] = true
			if err := spritepng.Write(filepath.Join(dir, FrameName(i)), img); err != nil {
				return err
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".png") && !keep[e.Name()] {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Render draws the frames of the named action, in playing order.
func Render(action string) ([]*image.NRGBA, error) {
	var draw func(c *canvas, i int)
	n := 0
	switch action {
	case "idle":
		draw, n = drawIdle, len(idlePoses)
	case "thinking":
		draw, n = drawThinking, len(thinkingPoses)
	case "tool":
		draw, n = drawTool, len(toolPoses)
	case "waiting":
		draw, n = drawWaiting, len(waitingPoses)
	case "done":
		draw, n = drawDone, len(donePoses)
	case "failed":
		draw, n = drawFailed, len(failedPoses)
	case "acknowledge":
		draw, n = drawAcknowledge, len(acknowledgePoses)
	case "drag_left":
		draw, n = func(c *canvas, i int) { drawDrag(c, -1, i) }, len(dragSwing)
	case "drag_right":
		draw, n = func(c *canvas, i int) { drawDrag(c, 1, i) }, len(dragSwing)
	default:
		return nil, fmt.Errorf("unknown action %q", action)
	}
	frames := make([]*image.NRGBA, n)
	for i := range frames {
		c := &canvas{}
		draw(c, i)
		frames[i] = c.image()
	}
	return frames, nil
}

// ---------------------------------------------------------------------------
// Palette.

// ink is an index into palette; 0 is the transparent background.
type ink uint8

const (
	none ink = iota
	outline
	fur
	furShade
	cream
	earPink
	nose
	white
	pupil
	mouthRed
	tongue
	blush
	keyDark
	keyLight
	gold
	goldEdge
	sweat
	speed
	inkCount
)

// palette holds the flat colours; the cat's are the canonical sprites'.
var palette = [inkCount]color.NRGBA{
	none:     {0, 0, 0, 0},
	outline:  {48, 32, 40, 255},
	fur:      {248, 168, 72, 255},
	furShade: {216, 120, 48, 255},
	cream:    {255, 236, 200, 255},
	earPink:  {248, 152, 160, 255},
	nose:     {232, 96, 120, 255},
	white:    {255, 255, 255, 255},
	pupil:    {32, 24, 48, 255},
	mouthRed: {176, 48, 72, 255},
	tongue:   {248, 128, 144, 255},
	blush:    {255, 136, 152, 255},
	keyDark:  {72, 80, 104, 255},
	keyLight: {184, 196, 220, 255},
	gold:     {255, 216, 72, 255},
	goldEdge: {200, 136, 32, 255},
	sweat:    {136, 196, 248, 255},
	speed:    {160, 152, 176, 255},
}

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

// ---------------------------------------------------------------------------
// Canvas.

// canvas is a Width x Height grid of palette indices. Shapes painted on it
// are first rotated by deg degrees (clockwise on screen) around pivot and
// then moved by (dx, dy) pixels; place sets that placement.
type canvas struct {
	pix    [Width * Height]ink
	deg    int
	pivot  pt
	dx, dy int
}

// place sets the placement of the shapes painted next.
func (c *canvas) place(dx, dy, deg int, pivot pt) {
	c.dx, c.dy, c.deg, c.pivot = dx, dy, deg, pivot
}

// mask samples s at every pixel centre through the current placement.
func (c *canvas) mask(s shape) []bool {
	m := make([]bool, Width*Height)
	sin, cos := sinCos(c.deg)
	px, py := int64(c.pivot.x*q), int64(c.pivot.y*q)
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			sx := int64((x-c.dx)*q + q/2)
			sy := int64((y-c.dy)*q + q/2)
			if c.deg != 0 {
				// The inverse rotation: by -deg around the pivot.
				rx, ry := sx-px, sy-py
				sx = px + q14(rx*cos+ry*sin)
				sy = py + q14(ry*cos-rx*sin)
			}
			m[y*Width+x] = s(sx, sy)
		}
	}
	return m
}

// paint sets every pixel in m to colour k.
func (c *canvas) paint(m []bool, k ink) {
	for i, in := range m {
		if in {
			c.pix[i] = k
		}
	}
}

// fill paints s in colour k with no outline.
func (c *canvas) fill(s shape, k ink) { c.paint(c.mask(s), k) }

// outlined paints s in colour k inside a two-pixel border of colour edge.
func (c *canvas) outlined(s shape, k, edge ink) {
	m := c.mask(s)
	grown := make([]bool, len(m))
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if m[y*Width+x] {
				continue
			}
		search:
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					if (dx == 2 || dx == -2) && (dy == 2 || dy == -2) {
						continue
					}
					nx, ny := x+dx, y+dy
					if nx >= 0 && nx < Width && ny >= 0 && ny < Height && m[ny*Width+nx] {
						grown[y*Width+x] = true
						break search
					}
				}
			}
		}
	}
	c.paint(grown, edge)
	c.paint(m, k)
}

// image converts the canvas to an NRGBA image.
func (c *canvas) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Width, Height))
	for i, k := range c.pix {
		col := palette[k]
		copy(img.Pix[4*i:4*i+4], []uint8{col.R, col.G, col.B, col.A})
	}
	return img
}

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

// ---------------------------------------------------------------------------
// Props and effects, painted without placement.

// thoughtDots paints the first n of three rising thought bubbles (the
// largest n+big pixels bigger).
func thoughtDots(c *canvas, n, big int) {
	dots := []struct{ x, y, r int }{{152, 56, 4}, {164, 40, 6}, {176, 21, 8 + big}}
	for i := 0; i < n && i < len(dots); i++ {
		d := dots[i]
		c.outlined(disc(d.x, d.y, d.r), white, outline)
	}
}

// sparkle paints a four-pointed star of radius r centred on (x, y).
func sparkle(c *canvas, x, y, r int) {
	s := r / 4
	if s < 1 {
		s = 1
	}
	c.outlined(polygon(pt{x, y - r}, pt{x + s, y - s}, pt{x + r, y}, pt{x + s, y + s}, pt{x, y + r}, pt{x - s, y + s}, pt{x - r, y}, pt{x - s, y - s}), gold, goldEdge)
}

// sweatDrop paints a drop with its round bottom centred on (x, y).
func sweatDrop(c *canvas, x, y int) {
	c.outlined(union(disc(x, y, 5), polygon(pt{x - 5, y}, pt{x, y - 12}, pt{x + 5, y})), sweat, outline)
}

// keyboard paints the small keyboard the cat taps on in the tool action.
func keyboard(c *canvas) {
	c.outlined(polygon(pt{50, 180}, pt{142, 180}, pt{148, 202}, pt{44, 202}), keyDark, outline)
	for row, y := range []int{186, 195} {
		for i := 0; i < 6; i++ {
			x := 56 + 15*i + 2*row
			c.fill(polygon(pt{x, y}, pt{x + 11, y}, pt{x + 11, y + 5}, pt{x, y + 5}), keyLight)
		}
	}
}

// tapMarks paints three short strokes around the paw that hit the key at x.
func tapMarks(c *canvas, x int) {
	for _, m := range [][2]pt{{{x - 18, 176}, {x - 24, 170}}, {{x, 166}, {x, 158}}, {{x + 18, 176}, {x + 24, 170}}} {
		c.fill(line(m[0], m[1], 12), outline)
	}
}

// ---------------------------------------------------------------------------
// Actions.

var idlePoses = []pose{
	{},
	{breathe: 1, headDY: -1},
	{breathe: 2, headDY: -2},
	{breathe: 1, headDY: -1, tail: [2]pt{{180, 186}, {170, 128}}},
	{face: face{eyes: eyesClosed}},
	{tail: [2]pt{{176, 192}, {160, 128}}, face: face{earTwitch: 4}},
}

func drawIdle(c *canvas, i int) { drawCat(c, idlePoses[i]) }

var thinkingPoses = []pose{
	{tilt: -4, face: face{lookX: 2, lookY: -2, mouth: mouthFlat}},
	{tilt: -8, face: face{lookX: 3, lookY: -4, mouth: mouthFlat}},
	{tilt: -11, headDY: -1, face: face{lookX: 4, lookY: -5, mouth: mouthO}},
	{tilt: -9, face: face{lookX: 4, lookY: -5, mouth: mouthO, earTwitch: 3}},
}

func drawThinking(c *canvas, i int) {
	drawCat(c, thinkingPoses[i])
	big := 0
	if i == 3 {
		big = 3
	}
	thoughtDots(c, i+1, big)
}

var toolPoses = []pose{
	{pawR: 18, face: face{lookX: 3, lookY: 5}},
	{headDY: 1, face: face{lookX: 3, lookY: 6, mouth: mouthFlat}},
	{pawL: 18, face: face{lookX: -3, lookY: 5}},
	{headDY: 1, face: face{eyes: eyesHalf, lookX: -3, lookY: 4, mouth: mouthFlat}},
}

func drawTool(c *canvas, i int) {
	p := toolPoses[i]
	// The paws rest on the keyboard's top edge rather than the ground.
	drawSittingBehind(c, p)
	c.place(p.headDX, p.headDY, p.tilt, neck)
	drawHead(c, p.face, 0, 0)
	c.place(0, 0, 0, pt{})
	switch i {
	case 1:
		tapMarks(c, 114)
	case 3:
		tapMarks(c, 78)
	}
}

// drawSittingBehind paints the sitting cat behind the keyboard, with the
// paws on top of it.
func drawSittingBehind(c *canvas, p pose) {
	paws := p
	p.pawL, p.pawR = 0, 0
	drawSitting(c, p)
	keyboard(c)
	for i, lift := range []int{paws.pawL, paws.pawR} {
		px, sx := 78+36*i, 82+28*i
		c.outlined(line(pt{sx, 160}, pt{px, 178 - lift}, 9*q), fur, outline)
		drawPaw(c, px, 180-lift)
	}
}

var waitingPoses = []pose{
	{tail: [2]pt{{186, 176}, {180, 126}}, tilt: 2, face: face{lookX: 4}},
	{tail: [2]pt{{170, 196}, {146, 118}}, face: face{lookX: 2, lookY: -1}},
	{tail: [2]pt{{186, 180}, {178, 130}}, tilt: -2, face: face{lookX: -4}},
	{tail: [2]pt{{172, 194}, {150, 122}}, face: face{lookX: -2, earTwitch: 3}},
	{tail: [2]pt{{184, 184}, {174, 132}}, tilt: 1, face: face{lookX: 3}},
	{tail: [2]pt{{174, 192}, {156, 126}}, face: face{lookX: 1}},
	{tail: [2]pt{{180, 190}, {168, 134}}, face: face{eyes: eyesHalf}},
	{tail: [2]pt{{170, 200}, {180, 176}}, face: face{eyes: eyesHalf, mouth: mouthFlat}},
}

func drawWaiting(c *canvas, i int) { drawCat(c, waitingPoses[i]) }

var donePoses = []pose{
	{squash: 4, headDY: 6, face: face{eyes: eyesHappy, mouth: mouthW}},
	{dy: -12, breathe: 2, pawL: 4, pawR: 4, tail: [2]pt{{184, 160}, {170, 108}}, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{dy: -18, breathe: 3, headDY: -2, pawL: 6, pawR: 6, tail: [2]pt{{186, 150}, {176, 100}}, face: face{eyes: eyesHappy, mouth: mouthSmile, blush: true}},
	{headDY: 1, tail: [2]pt{{182, 176}, {176, 122}}, face: face{eyes: eyesHappy, mouth: mouthSmile, blush: true}},
}

func drawDone(c *canvas, i int) {
	drawCat(c, donePoses[i])
	switch i {
	case 1:
		sparkle(c, 22, 70, 8)
		sparkle(c, 170, 62, 6)
	case 2:
		sparkle(c, 20, 56, 12)
		sparkle(c, 172, 48, 10)
		sparkle(c, 28, 128, 6)
	case 3:
		sparkle(c, 16, 40, 7)
		sparkle(c, 176, 34, 8)
		sparkle(c, 22, 110, 10)
		sparkle(c, 174, 100, 6)
	}
}

var failedPoses = []pose{
	{face: face{eyes: eyesWide, mouth: mouthO}},
	{headDY: 2, face: face{eyes: eyesWide, lookY: 3, mouth: mouthO, droop: 1}},
	{headDY: 4, tail: [2]pt{{182, 196}, {174, 146}}, face: face{lookY: 4, mouth: mouthFrown, sadBrows: true, droop: 2}},
	{headDY: 6, tail: [2]pt{{180, 200}, {178, 158}}, face: face{lookY: 5, mouth: mouthFrown, sadBrows: true, droop: 3}},
	{headDY: 8, breathe: -2, tail: [2]pt{{176, 202}, {180, 170}}, face: face{lookY: 5, mouth: mouthFrown, sadBrows: true, droop: 3}},
	{headDY: 9, breathe: -2, tilt: -3, tail: [2]pt{{172, 202}, {180, 180}}, face: face{eyes: eyesHalf, lookY: 4, mouth: mouthFrown, sadBrows: true, droop: 4}},
	{headDY: 10, breathe: -3, tilt: -4, tail: [2]pt{{166, 200}, {178, 188}}, face: face{eyes: eyesClosed, mouth: mouthFrown, sadBrows: true, droop: 4}},
	{headDY: 10, breathe: -3, tilt: -3, tail: [2]pt{{164, 200}, {178, 190}}, face: face{eyes: eyesClosed, mouth: mouthFrown, sadBrows: true, droop: 4}},
}

func drawFailed(c *canvas, i int) {
	drawCat(c, failedPoses[i])
	switch i {
	case 4:
		sweatDrop(c, 160, 72)
	case 5:
		sweatDrop(c, 160, 78)
	case 6:
		sweatDrop(c, 160, 86)
	case 7:
		sweatDrop(c, 158, 92)
	}
}

var acknowledgePoses = []pose{
	{headDY: 3, face: face{eyes: eyesClosed}},
	{headDY: 7, tilt: 2, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{headDY: 3, face: face{eyes: eyesHappy, mouth: mouthSmile}},
	{face: face{mouth: mouthSmile, blush: true}},
}

func drawAcknowledge(c *canvas, i int) { drawCat(c, acknowledgePoses[i]) }

// dragSwing is one loop of being dragged: the lean of the body behind the
// pointer (degrees), the swing of the front and hind legs (pixels, against
// the drag direction) and the tail tip's swing.
var dragSwing = []struct{ lean, front, hind, tail int }{
	{10, 2, 4, 0},
	{13, 5, 8, 4},
	{16, 8, 12, 7},
	{14, 6, 6, 5},
	{11, 2, 0, 1},
	{9, 0, 2, -4},
}

// scruff is the point the cat hangs from while dragged (before it is moved
// down by dragDrop); the ears are swept back a little.
var scruff = pt{96, 40}

const dragDrop = 4

// drawDrag paints frame i of a drag in direction dir (-1 left, +1 right):
// the cat hangs from the scruff, its body trailing behind the pointer, legs
// dangling, eyes looking where it goes, with speed strokes behind it.
func drawDrag(c *canvas, dir, i int) {
	s := dragSwing[i]
	back := -dir // the trailing side
	c.place(0, dragDrop, dir*s.lean, scruff)

	// Tail, hanging from the body's right side, swinging.
	drawTail(c, pt{116, 166}, pt{140 + back*s.tail, 186}, pt{132 + back*s.tail, 154})
	// Hind legs dangling.
	for _, lx := range []int{80, 112} {
		foot := pt{lx + back*s.hind/2 - 2 + 4*((lx-80)/32), 186}
		c.outlined(line(pt{lx, 156}, foot, 8*q), fur, outline)
		c.outlined(ellipse(foot.x, foot.y+4, 10, 7), cream, outline)
	}
	// Body.
	body := ellipse(96, 134, 34, 42)
	c.outlined(body, fur, outline)
	for _, st := range [][2]pt{{{62, 124}, {74, 128}}, {{62, 138}, {72, 140}}, {{130, 124}, {118, 128}}, {{130, 138}, {120, 140}}} {
		c.fill(intersect(body, line(st[0], st[1], 20)), furShade)
	}
	c.fill(intersect(body, ellipse(96, 144, 20, 28)), cream)
	// Front legs dangling in front of the body.
	for _, lx := range []int{78, 114} {
		paw := pt{lx + back*s.front, 154}
		c.outlined(line(pt{lx, 114}, paw, 8*q), fur, outline)
		drawPaw(c, paw.x, paw.y)
	}
	// Head, looking the way it is dragged.
	f := face{lookX: 5 * dir, mouth: mouthO, droop: 1}
	if i%3 == 2 {
		f.mouth = mouthW
	}
	drawHead(c, f, 0, -24)
	c.place(0, 0, 0, pt{})

	// Speed strokes on the trailing side, drifting down the loop.
	for k, y := range []int{58, 74, 90} {
		l := 14 - 4*((i+k)%3)
		x0 := 96 + back*70
		y += 2 * i
		c.fill(line(pt{x0, y}, pt{x0 + back*l, y}, 12), speed)
	}
}
