// Command petsprites generates the canonical pet sprite art for the
// desktop/firmware pet: five 64x64 pictures of a small round cat, one per
// pose named by the pet asset manifest (assets/pet/manifest.petasset).
//
// Usage:
//
//	go run ./tools/cmd/petsprites -out assets/pet/sprites
//
// It writes exactly five files into the output directory:
//
//	fallback.png   curled up asleep, in softer colours
//	idle.png       sitting calmly, eyes open, neutral mouth
//	curious.png    head tilted, one ear folded, eyes glancing aside
//	attentive.png  ears straight up, eyes wide, tail up
//	happy.png      the idle pose with ^ ^ eyes, open smile and blush
//
// Every file is an 8-bit RGBA PNG (colour type 6, not interlaced). The
// background is fully transparent with RGB 0, and every pixel's alpha is
// either 0 or 255, so a consumer that thresholds alpha at 128 and reduces
// colour to RGB565 sees exactly the intended shapes. The art is drawn from
// simple geometry (ellipses, polygons, thick lines and arcs) over a small flat
// palette with a dark outline.
//
// The output is deterministic: the same program always produces the same
// bytes. Each file is written to a temporary name in the output directory and
// renamed into place, so a failed run never leaves a half-written sprite.
// The test in this directory checks that the checked-in sprites match a fresh
// run; after changing the art, rerun the command above.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/tools/internal/spritepng"
)

// Size is the width and height, in pixels, of every generated sprite.
const Size = 64

// Sprites lists the names of the generated sprites, without the ".png"
// extension, in the order they are written.
var Sprites = []string{"fallback", "idle", "curious", "attentive", "happy"}

func main() {
	out := flag.String("out", "assets/pet/sprites", "directory to write the sprite PNGs into")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: petsprites [-out dir]")
		os.Exit(2)
	}
	if err := Generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "petsprites:", err)
		os.Exit(1)
	}
}

// Generate renders every sprite in Sprites and writes it to outDir as
// NAME.png, creating outDir if needed. Each file is written to a temporary
// name in outDir first and then renamed, so an error leaves either the old
// file or the complete new one in place.
func Generate(outDir string) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, name := range Sprites {
		img, err := Render(name)
		if err != nil {
			return err
		}
		if err := spritepng.Write(filepath.Join(outDir, name+".png"), img); err != nil {
			return err
		}
	}
	return nil
}

// Render draws the named sprite (one of Sprites) and returns it as a
// Size x Size image whose alpha is 0 or 255 everywhere.
func Render(name string) (*image.NRGBA, error) {
	var draw func(*canvas)
	switch name {
	case "fallback":
		draw = drawFallback
	case "idle":
		draw = drawIdle
	case "curious":
		draw = drawCurious
	case "attentive":
		draw = drawAttentive
	case "happy":
		draw = drawHappy
	default:
		return nil, fmt.Errorf("unknown sprite %q", name)
	}
	c := &canvas{}
	draw(c)
	return c.image(), nil
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
	softOutline
	softFur
	softShade
	softCream
	softPink
	inkCount
)

// palette holds the flat colours used by the art. The values are chosen to
// stay distinct after reduction to RGB565.
var palette = [inkCount]color.NRGBA{
	none:        {0, 0, 0, 0},
	outline:     {48, 32, 40, 255},
	fur:         {248, 168, 72, 255},
	furShade:    {216, 120, 48, 255},
	cream:       {255, 236, 200, 255},
	earPink:     {248, 152, 160, 255},
	nose:        {232, 96, 120, 255},
	white:       {255, 255, 255, 255},
	pupil:       {32, 24, 48, 255},
	mouthRed:    {176, 48, 72, 255},
	tongue:      {248, 128, 144, 255},
	blush:       {255, 136, 152, 255},
	softOutline: {80, 80, 120, 255},
	softFur:     {176, 184, 216, 255},
	softShade:   {128, 136, 184, 255},
	softCream:   {232, 236, 248, 255},
	softPink:    {224, 176, 200, 255},
}

// ---------------------------------------------------------------------------
// Canvas and shapes.

// shape reports whether the point (x, y), in pixel units with y growing
// downwards, is inside the shape. Pixels are sampled at their centres.
type shape func(x, y float64) bool

// canvas is a Size x Size grid of palette indices with an optional rotation
// applied to every shape painted while it is set.
type canvas struct {
	pix [Size * Size]ink

	// While turn is non-zero, shapes are rotated by turn radians
	// (clockwise on screen) around (pivotX, pivotY).
	turn, pivotX, pivotY float64
}

// tilt makes subsequent shapes rotate by angle radians around (px, py);
// tilt(0, 0, 0) restores the normal frame.
func (c *canvas) tilt(angle, px, py float64) {
	c.turn, c.pivotX, c.pivotY = angle, px, py
}

// mask samples s at every pixel centre, applying the current tilt.
func (c *canvas) mask(s shape) []bool {
	m := make([]bool, Size*Size)
	sin, cos := math.Sin(-c.turn), math.Cos(-c.turn)
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			if c.turn != 0 {
				dx, dy := px-c.pivotX, py-c.pivotY
				px = c.pivotX + dx*cos - dy*sin
				py = c.pivotY + dx*sin + dy*cos
			}
			m[y*Size+x] = s(px, py)
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
func (c *canvas) fill(s shape, k ink) {
	c.paint(c.mask(s), k)
}

// outlined paints s in colour k surrounded by a one-pixel border of colour
// edge (every pixel touching the shape, diagonals included).
func (c *canvas) outlined(s shape, k, edge ink) {
	m := c.mask(s)
	grown := make([]bool, len(m))
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			if m[y*Size+x] {
				continue
			}
			for dy := -1; dy <= 1 && !grown[y*Size+x]; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx >= 0 && nx < Size && ny >= 0 && ny < Size && m[ny*Size+nx] {
						grown[y*Size+x] = true
						break
					}
				}
			}
		}
	}
	c.paint(grown, edge)
	c.paint(m, k)
}

// dot sets the single pixel whose centre is nearest (x, y), after the
// current tilt, to colour k.
func (c *canvas) dot(x, y float64, k ink) {
	c.fill(disc(x, y, 0.71), k)
}

// image converts the canvas to an NRGBA image.
func (c *canvas) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Size, Size))
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			img.SetNRGBA(x, y, palette[c.pix[y*Size+x]])
		}
	}
	return img
}

// ellipse is the axis-aligned ellipse centred on (cx, cy) with radii rx, ry.
func ellipse(cx, cy, rx, ry float64) shape {
	return func(x, y float64) bool {
		dx, dy := (x-cx)/rx, (y-cy)/ry
		return dx*dx+dy*dy <= 1
	}
}

// disc is the circle centred on (cx, cy) with radius r.
func disc(cx, cy, r float64) shape {
	return ellipse(cx, cy, r, r)
}

// turned rotates s by angle radians (clockwise on screen) around (px, py).
func turned(s shape, angle, px, py float64) shape {
	sin, cos := math.Sin(-angle), math.Cos(-angle)
	return func(x, y float64) bool {
		dx, dy := x-px, y-py
		return s(px+dx*cos-dy*sin, py+dx*sin+dy*cos)
	}
}

// pt is a point in pixel units.
type pt struct{ x, y float64 }

// polygon is the simple polygon with the given vertices (even-odd rule).
func polygon(v ...pt) shape {
	return func(x, y float64) bool {
		in := false
		for i, j := 0, len(v)-1; i < len(v); j, i = i, i+1 {
			a, b := v[i], v[j]
			if (a.y > y) != (b.y > y) && x < (b.x-a.x)*(y-a.y)/(b.y-a.y)+a.x {
				in = !in
			}
		}
		return in
	}
}

// segDist returns the distance from p to the segment ab and the position of
// the nearest point along it (0 at a, 1 at b).
func segDist(p, a, b pt) (dist, t float64) {
	dx, dy := b.x-a.x, b.y-a.y
	l2 := dx*dx + dy*dy
	if l2 > 0 {
		t = ((p.x-a.x)*dx + (p.y-a.y)*dy) / l2
		if t < 0 {
			t = 0
		} else if t > 1 {
			t = 1
		}
	}
	ex, ey := p.x-(a.x+t*dx), p.y-(a.y+t*dy)
	return math.Sqrt(ex*ex + ey*ey), t
}

// line is the segment from a to b thickened to radius r, with round caps.
func line(a, b pt, r float64) shape {
	return func(x, y float64) bool {
		d, _ := segDist(pt{x, y}, a, b)
		return d <= r
	}
}

// tube is a quadratic Bézier curve from p0 (control point p1) to p2,
// thickened to a radius that changes smoothly from r0 to r2.
func tube(p0, p1, p2 pt, r0, r2 float64) shape {
	const steps = 24
	var pts [steps + 1]pt
	for i := range pts {
		t := float64(i) / steps
		u := 1 - t
		pts[i] = pt{
			u*u*p0.x + 2*u*t*p1.x + t*t*p2.x,
			u*u*p0.y + 2*u*t*p1.y + t*t*p2.y,
		}
	}
	return func(x, y float64) bool {
		for i := 0; i < steps; i++ {
			d, t := segDist(pt{x, y}, pts[i], pts[i+1])
			f := (float64(i) + t) / steps
			if d <= r0+(r2-r0)*f {
				return true
			}
		}
		return false
	}
}

// arc is the part of the circle centred on (cx, cy) with radius r whose
// direction lies between a0 and a1 radians (measured clockwise on screen
// from the positive x axis, a0 < a1), drawn with thickness w.
func arc(cx, cy, r, w, a0, a1 float64) shape {
	return func(x, y float64) bool {
		dx, dy := x-cx, y-cy
		d := math.Sqrt(dx*dx + dy*dy)
		if math.Abs(d-r) > w/2 {
			return false
		}
		a := math.Atan2(dy, dx)
		for a < a0 {
			a += 2 * math.Pi
		}
		return a <= a1
	}
}

// union is inside any of the shapes.
func union(s ...shape) shape {
	return func(x, y float64) bool {
		for _, f := range s {
			if f(x, y) {
				return true
			}
		}
		return false
	}
}

// intersect is inside both a and b.
func intersect(a, b shape) shape {
	return func(x, y float64) bool { return a(x, y) && b(x, y) }
}

// minus is inside a but not b.
func minus(a, b shape) shape {
	return func(x, y float64) bool { return a(x, y) && !b(x, y) }
}

// mirror reflects s about the vertical centre line of the sprite.
func mirror(s shape) shape {
	return func(x, y float64) bool { return s(Size-x, y) }
}

// ---------------------------------------------------------------------------
// Pet parts shared by the sitting poses.

// Angles used with arc, measured clockwise on screen from the +x axis.
const (
	deg   = math.Pi / 180
	upper = 180 * deg // the top half of a circle is [upper, upper+180°]
	lower = 0.0       // the bottom half of a circle is [lower, lower+180°]
)

// sitting describes the parts of the sitting cat that differ between poses.
type sitting struct {
	headY    float64 // centre of the head
	earLeft  [3]pt   // left ear triangle: outer base, tip, inner base
	earRight [3]pt   // right ear triangle, same order
	tail     [3]pt   // tail Bézier from the body outwards
	tilt     float64 // head tilt in radians, clockwise
}

// drawSitting paints the body, tail, feet, ears and an empty head of a
// sitting cat. Face details are painted afterwards by the caller, in the
// tilted head frame when s.tilt is non-zero.
func drawSitting(c *canvas, s sitting) {
	// Tail behind the body, with a cream tip.
	t := s.tail
	tail := tube(t[0], t[1], t[2], 3.2, 2.6)
	c.outlined(tail, fur, outline)
	c.fill(intersect(tail, disc(t[2].x, t[2].y, 4.5)), cream)

	// Body, belly and front paws.
	body := ellipse(32, 47, 16, 14)
	c.outlined(body, fur, outline)
	c.fill(intersect(body, ellipse(32, 50, 9.5, 10)), cream)
	for _, px := range []float64{25, 39} {
		c.outlined(ellipse(px, 58.5, 5, 3.5), cream, outline)
		c.fill(line(pt{px, 57}, pt{px, 60}, 0.5), furShade)
	}

	// Ears and head, rotated together around the neck.
	c.tilt(s.tilt, 32, s.headY+14)
	for _, e := range [][3]pt{s.earLeft, s.earRight} {
		c.outlined(polygon(e[0], e[1], e[2]), fur, outline)
		c.fill(polygon(towards(e[0], e[1], e[2]), towards(e[1], e[0], e[2]), towards(e[2], e[0], e[1])), earPink)
	}
	head := ellipse(32, s.headY, 19.5, 15)
	c.outlined(head, fur, outline)
	// Forehead stripes and cheek fluff.
	for _, dx := range []float64{-4, 0, 4} {
		c.fill(line(pt{32 + dx, s.headY - 14}, pt{32 + dx*0.8, s.headY - 10}, 0.7), furShade)
	}
	c.fill(intersect(head, ellipse(32, s.headY+9, 11, 6)), cream)
}

// towards moves corner p a third of the way towards the middle of the
// opposite side ab, used to inset the pink inside of an ear.
func towards(p, a, b pt) pt {
	mx, my := (a.x+b.x)/2, (a.y+b.y)/2
	return pt{p.x + (mx-p.x)*0.33, p.y + (my-p.y)*0.33}
}

// idleSitting is the calm sitting pose shared by idle and happy, so the two
// frames of the happy animation line up.
var idleSitting = sitting{
	headY:    26,
	earLeft:  [3]pt{{13.5, 24}, {16, 3.5}, {29, 12}},
	earRight: [3]pt{{50.5, 24}, {48, 3.5}, {35, 12}},
	tail:     [3]pt{{44, 56}, {61, 58}, {57, 40}},
}

// whiskers paints three short whiskers on each cheek of a head centred at
// (32, hy).
func whiskers(c *canvas, hy float64) {
	for _, w := range []struct{ y0, y1 float64 }{{-1, -2.5}, {1.5, 1.5}} {
		c.fill(line(pt{11, hy + w.y0 + 4}, pt{5, hy + w.y1 + 4}, 0.55), outline)
		c.fill(line(pt{Size - 11, hy + w.y0 + 4}, pt{Size - 5, hy + w.y1 + 4}, 0.55), outline)
	}
}

// noseAndMouth paints the pink nose and a small "w" mouth below it.
func noseAndMouth(c *canvas, hy float64) {
	c.fill(polygon(pt{29.5, hy + 4}, pt{34.5, hy + 4}, pt{32, hy + 6.8}), nose)
	c.fill(arc(30, hy+6.5, 2, 1.1, lower, lower+180*deg), outline)
	c.fill(arc(34, hy+6.5, 2, 1.1, lower, lower+180*deg), outline)
}

// ---------------------------------------------------------------------------
// Poses.

// drawIdle: sitting calmly, eyes open, neutral mouth.
func drawIdle(c *canvas) {
	s := idleSitting
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []float64{24, 40} {
		c.fill(ellipse(ex, hy, 2.6, 3.6), pupil)
		c.dot(ex-0.9, hy-1.6, white)
	}
	noseAndMouth(c, hy)
	whiskers(c, hy)
}

// drawHappy: the idle pose with ^ ^ eyes, an open smile and blushing cheeks.
func drawHappy(c *canvas) {
	s := idleSitting
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []float64{24, 40} {
		c.fill(arc(ex, hy+2, 3.5, 1.8, upper+15*deg, upper+165*deg), outline)
	}
	c.fill(ellipse(20, hy+6, 3, 2), blush)
	c.fill(ellipse(44, hy+6, 3, 2), blush)
	c.fill(polygon(pt{30, hy + 2.5}, pt{34, hy + 2.5}, pt{32, hy + 4.8}), nose)
	mouth := intersect(ellipse(32, hy+5.5, 5, 5.5), func(x, y float64) bool { return y >= hy+5.5 })
	c.outlined(mouth, mouthRed, outline)
	c.fill(intersect(mouth, ellipse(32, hy+11, 3.5, 3)), tongue)
	whiskers(c, hy)
}

// drawCurious: head tilted, one ear up and one folded, eyes glancing to the
// side and a small round "oh" mouth; the tail curls like a hook.
func drawCurious(c *canvas) {
	s := sitting{
		headY:    26,
		earLeft:  [3]pt{{13.5, 24}, {14, 1.5}, {28, 11.5}},
		earRight: [3]pt{{50.5, 24}, {57, 12}, {36, 12}},
		tail:     [3]pt{{45, 55}, {64, 50}, {57, 37}},
		tilt:     -13 * deg,
	}
	drawSitting(c, s)
	hy := s.headY
	// Eyes stay tilted with the head (drawSitting leaves the tilt set).
	for _, ex := range []float64{24, 40} {
		c.outlined(ellipse(ex, hy, 3.6, 4.2), white, outline)
		c.fill(ellipse(ex+1.6, hy-1, 2, 2.6), pupil)
		c.dot(ex+1, hy-2, white)
	}
	// A raised eyebrow over the right eye.
	c.fill(arc(40, hy-3, 5, 1.2, upper+40*deg, upper+140*deg), outline)
	c.fill(polygon(pt{29.5, hy + 4.5}, pt{34.5, hy + 4.5}, pt{32, hy + 7}), nose)
	c.outlined(ellipse(32, hy+9.5, 1.5, 1.8), mouthRed, outline)
	whiskers(c, hy)
	c.tilt(0, 0, 0)
}

// drawAttentive: ears straight up, eyes wide and round, alert posture with
// the tail held upright.
func drawAttentive(c *canvas) {
	s := sitting{
		headY:    25,
		earLeft:  [3]pt{{14.5, 21}, {18, 0.5}, {28, 11}},
		earRight: [3]pt{{49.5, 21}, {46, 0.5}, {36, 11}},
		tail:     [3]pt{{45, 54}, {59, 50}, {57, 24}},
	}
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []float64{24, 40} {
		c.outlined(disc(ex, hy, 5), white, outline)
		c.fill(disc(ex, hy+0.5, 3), pupil)
		c.dot(ex-1, hy-1, white)
	}
	c.fill(polygon(pt{29.5, hy + 5.5}, pt{34.5, hy + 5.5}, pt{32, hy + 7.8}), nose)
	c.fill(line(pt{32, hy + 8}, pt{32, hy + 9.5}, 0.55), outline)
	c.fill(line(pt{29.5, hy + 10}, pt{34.5, hy + 10}, 0.55), outline)
	whiskers(c, hy)
}

// drawFallback: curled up asleep in a loaf with the tail wrapped round the
// front, eyes closed, in softer colours.
func drawFallback(c *canvas) {
	// Body loaf.
	body := ellipse(35, 46, 25, 14)
	c.outlined(body, softFur, softOutline)
	for _, st := range [][2]pt{{{42, 33}, {42.5, 37}}, {{48, 34}, {47.5, 38}}, {{54, 36}, {52.5, 39.5}}} {
		c.fill(intersect(body, line(st[0], st[1], 0.8)), softShade)
	}
	// Tail wrapped round the front.
	tail := tube(pt{58, 50}, pt{56, 63}, pt{30, 58}, 3.5, 2.8)
	c.outlined(tail, softFur, softOutline)
	c.fill(intersect(tail, disc(30, 58, 4)), softCream)

	// Head resting on the left, ears relaxed.
	hx, hy := 23.0, 40.0
	c.outlined(polygon(pt{9, 38}, pt{7, 22}, pt{20, 30}), softFur, softOutline)
	c.fill(polygon(pt{10.5, 34}, pt{9.5, 26}, pt{16, 31}), softPink)
	c.outlined(polygon(pt{27, 29}, pt{37, 20}, pt{37.5, 36}), softFur, softOutline)
	c.fill(polygon(pt{30.5, 30}, pt{35.5, 25}, pt{35.5, 33}), softPink)
	head := ellipse(hx, hy, 15, 12)
	c.outlined(head, softFur, softOutline)
	c.fill(intersect(head, ellipse(hx, hy+8, 9, 5)), softCream)
	// Closed eyes, tiny nose and a soft smile.
	for _, ex := range []float64{hx - 6, hx + 6} {
		c.fill(arc(ex, hy-1, 3, 1.2, lower+20*deg, lower+160*deg), softOutline)
	}
	c.fill(polygon(pt{hx - 1.5, hy + 3.5}, pt{hx + 1.5, hy + 3.5}, pt{hx, hy + 5.2}), softPink)
	c.fill(arc(hx, hy+4.5, 2.2, 1, lower+30*deg, lower+150*deg), softOutline)
}
