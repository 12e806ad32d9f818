// Command petsprites generates the canonical pet sprite art for the
// desktop/firmware pet: five 64x64 pictures of a small round cat, one per
// pose named by the pet asset manifest (assets/pet/manifest.petasset).
//
// Usage:
//
//	go run ./dev/cmd/petsprites -out assets/pet/sprites
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
// palette with a dark outline, laid out in tenths of a pixel and drawn with
// dev/pixelart's integer geometry (the tabby and its colours are
// the same as dev/cmd/petframes').
//
// The output is deterministic: no floating point is involved, so every
// architecture draws the same pixels, and the same program always produces
// the same bytes. Each file is written to a temporary name in the output directory and
// renamed into place, so a failed run never leaves a half-written sprite.
// The test in this directory checks that the checked-in sprites match a fresh
// run; after changing the art, rerun the command above.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/dev/pixelart"
	"github.com/agentpet/rules_pet/dev/spritepng"
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
	var draw func(*pixelart.Canvas)
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
	c := pixelart.New(Size, Size, unit, 1)
	draw(c)
	return c.Image(palette), nil
}

// unit is the number of design units in a pixel: the sprites are laid out
// in tenths of a pixel, so 245 is 24.5 pixels from the left.
const unit = 10

// The inks of the blue-grey fallback cat; the orange tabby's are pixelart's.
const (
	softOutline = pixelart.CatInks + iota
	softFur
	softShade
	softCream
	softPink
)

// palette is the tabby's colours followed by the fallback cat's, in the
// order of the inks above.
var palette = pixelart.CatPalette(
	color.NRGBA{80, 80, 120, 255},   // softOutline
	color.NRGBA{176, 184, 216, 255}, // softFur
	color.NRGBA{128, 136, 184, 255}, // softShade
	color.NRGBA{232, 236, 248, 255}, // softCream
	color.NRGBA{224, 176, 200, 255}, // softPink
)

// Stroke radii and widths, in steps (pixelart.Q to a design unit).
const (
	hairline = 44 // 0.55 pixels: whiskers and small marks
	thin     = 56 // 0.7 pixels: forehead stripes
)

// pt is a point in design units.
func pt(x, y int) pixelart.Point { return pixelart.Pt(x, y) }

// dot paints the pixel nearest (x, y), after the current placement, or the
// four around a pixel corner: a disc just over √½ pixel in radius.
func dot(c *pixelart.Canvas, x, y int, k pixelart.Ink) {
	c.Fill(pixelart.Line(pt(x, y), pt(x, y), 57), k)
}

// ---------------------------------------------------------------------------
// Pet parts shared by the sitting poses.

// sitting describes the parts of the sitting cat that differ between poses.
type sitting struct {
	headY    int               // centre of the head
	earLeft  [3]pixelart.Point // left ear triangle: outer base, tip, inner base
	earRight [3]pixelart.Point // right ear triangle, same order
	tail     [3]pixelart.Point // tail Bézier from the body outwards
	tilt     int               // head tilt in degrees, clockwise
}

// drawSitting paints the body, tail, feet, ears and an empty head of a
// sitting cat. Face details are painted afterwards by the caller, in the
// tilted head frame when s.tilt is non-zero.
func drawSitting(c *pixelart.Canvas, s sitting) {
	// Tail behind the body, with a cream tip.
	t := s.tail
	tail := pixelart.Tube(t[0], t[1], t[2], 32, 26)
	c.Outlined(tail, pixelart.Fur, pixelart.Outline)
	c.Fill(pixelart.Intersect(tail, pixelart.Disc(t[2].X, t[2].Y, 45)), pixelart.Cream)

	// Body, belly and front paws.
	body := pixelart.Ellipse(320, 470, 160, 140)
	c.Outlined(body, pixelart.Fur, pixelart.Outline)
	c.Fill(pixelart.Intersect(body, pixelart.Ellipse(320, 500, 95, 100)), pixelart.Cream)
	for _, px := range []int{250, 390} {
		c.Outlined(pixelart.Ellipse(px, 585, 50, 35), pixelart.Cream, pixelart.Outline)
		c.Fill(pixelart.Line(pt(px, 570), pt(px, 600), 5*pixelart.Q), pixelart.FurShade)
	}

	// Ears and head, rotated together around the neck.
	c.Place(0, 0, s.tilt, pt(320, s.headY+140))
	for _, e := range [][3]pixelart.Point{s.earLeft, s.earRight} {
		c.Outlined(pixelart.Polygon(e[0], e[1], e[2]), pixelart.Fur, pixelart.Outline)
		c.Fill(pixelart.Inset(e[0], e[1], e[2]), pixelart.EarPink)
	}
	head := pixelart.Ellipse(320, s.headY, 195, 150)
	c.Outlined(head, pixelart.Fur, pixelart.Outline)
	// Forehead stripes and cheek fluff.
	for _, dx := range []int{-40, 0, 40} {
		c.Fill(pixelart.Line(pt(320+dx, s.headY-140), pt(320+dx*4/5, s.headY-100), thin), pixelart.FurShade)
	}
	c.Fill(pixelart.Intersect(head, pixelart.Ellipse(320, s.headY+90, 110, 60)), pixelart.Cream)
}

// idleSitting is the calm sitting pose shared by idle and happy, so the two
// frames of the happy animation line up.
var idleSitting = sitting{
	headY:    260,
	earLeft:  [3]pixelart.Point{pt(135, 240), pt(160, 35), pt(290, 120)},
	earRight: [3]pixelart.Point{pt(505, 240), pt(480, 35), pt(350, 120)},
	tail:     [3]pixelart.Point{pt(440, 560), pt(610, 580), pt(570, 400)},
}

// whiskers paints two short whiskers on each cheek of a head centred at
// (320, hy).
func whiskers(c *pixelart.Canvas, hy int) {
	const right = Size * unit
	for _, w := range []struct{ y0, y1 int }{{-10, -25}, {15, 15}} {
		c.Fill(pixelart.Line(pt(110, hy+w.y0+40), pt(50, hy+w.y1+40), hairline), pixelart.Outline)
		c.Fill(pixelart.Line(pt(right-110, hy+w.y0+40), pt(right-50, hy+w.y1+40), hairline), pixelart.Outline)
	}
}

// noseAndMouth paints the pink nose and a small "w" mouth below it.
func noseAndMouth(c *pixelart.Canvas, hy int) {
	c.Fill(pixelart.Polygon(pt(295, hy+40), pt(345, hy+40), pt(320, hy+68)), pixelart.Nose)
	for _, mx := range []int{300, 340} {
		c.Fill(pixelart.Arc(mx, hy+65, 20, 11*pixelart.Q, 0, 180), pixelart.Outline)
	}
}

// ---------------------------------------------------------------------------
// Poses.

// drawIdle: sitting calmly, eyes open, neutral mouth.
func drawIdle(c *pixelart.Canvas) {
	s := idleSitting
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []int{240, 400} {
		c.Fill(pixelart.Ellipse(ex, hy, 26, 36), pixelart.Pupil)
		dot(c, ex-9, hy-16, pixelart.White)
	}
	noseAndMouth(c, hy)
	whiskers(c, hy)
}

// drawHappy: the idle pose with ^ ^ eyes, an open smile and blushing cheeks.
func drawHappy(c *pixelart.Canvas) {
	s := idleSitting
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []int{240, 400} {
		c.Fill(pixelart.Arc(ex, hy+20, 35, 18*pixelart.Q, 195, 345), pixelart.Outline)
	}
	c.Fill(pixelart.Ellipse(200, hy+60, 30, 20), pixelart.Blush)
	c.Fill(pixelart.Ellipse(440, hy+60, 30, 20), pixelart.Blush)
	c.Fill(pixelart.Polygon(pt(300, hy+25), pt(340, hy+25), pt(320, hy+48)), pixelart.Nose)
	mouth := pixelart.Intersect(pixelart.Ellipse(320, hy+55, 50, 55), pixelart.Below(hy+55))
	c.Outlined(mouth, pixelart.MouthRed, pixelart.Outline)
	c.Fill(pixelart.Intersect(mouth, pixelart.Ellipse(320, hy+110, 35, 30)), pixelart.Tongue)
	whiskers(c, hy)
}

// drawCurious: head tilted, one ear up and one folded, eyes glancing to the
// side and a small round "oh" mouth; the tail curls like a hook.
func drawCurious(c *pixelart.Canvas) {
	s := sitting{
		headY:    260,
		earLeft:  [3]pixelart.Point{pt(135, 240), pt(140, 15), pt(280, 115)},
		earRight: [3]pixelart.Point{pt(505, 240), pt(570, 120), pt(360, 120)},
		tail:     [3]pixelart.Point{pt(450, 550), pt(640, 500), pt(570, 370)},
		tilt:     -13,
	}
	drawSitting(c, s)
	hy := s.headY
	// Eyes stay tilted with the head (drawSitting leaves the tilt set).
	for _, ex := range []int{240, 400} {
		c.Outlined(pixelart.Ellipse(ex, hy, 36, 42), pixelart.White, pixelart.Outline)
		c.Fill(pixelart.Ellipse(ex+16, hy-10, 20, 26), pixelart.Pupil)
		dot(c, ex+10, hy-20, pixelart.White)
	}
	// A raised eyebrow over the right eye.
	c.Fill(pixelart.Arc(400, hy-30, 50, 12*pixelart.Q, 220, 320), pixelart.Outline)
	c.Fill(pixelart.Polygon(pt(295, hy+45), pt(345, hy+45), pt(320, hy+70)), pixelart.Nose)
	c.Outlined(pixelart.Ellipse(320, hy+95, 15, 18), pixelart.MouthRed, pixelart.Outline)
	whiskers(c, hy)
	c.Place(0, 0, 0, pixelart.Point{})
}

// drawAttentive: ears straight up, eyes wide and round, alert posture with
// the tail held upright.
func drawAttentive(c *pixelart.Canvas) {
	s := sitting{
		headY:    250,
		earLeft:  [3]pixelart.Point{pt(145, 210), pt(180, 5), pt(280, 110)},
		earRight: [3]pixelart.Point{pt(495, 210), pt(460, 5), pt(360, 110)},
		tail:     [3]pixelart.Point{pt(450, 540), pt(590, 500), pt(570, 240)},
	}
	drawSitting(c, s)
	hy := s.headY
	for _, ex := range []int{240, 400} {
		c.Outlined(pixelart.Disc(ex, hy, 50), pixelart.White, pixelart.Outline)
		c.Fill(pixelart.Disc(ex, hy+5, 30), pixelart.Pupil)
		dot(c, ex-10, hy-10, pixelart.White)
	}
	c.Fill(pixelart.Polygon(pt(295, hy+55), pt(345, hy+55), pt(320, hy+78)), pixelart.Nose)
	c.Fill(pixelart.Line(pt(320, hy+80), pt(320, hy+95), hairline), pixelart.Outline)
	c.Fill(pixelart.Line(pt(295, hy+100), pt(345, hy+100), hairline), pixelart.Outline)
	whiskers(c, hy)
}

// drawFallback: curled up asleep in a loaf with the tail wrapped round the
// front, eyes closed, in softer colours.
func drawFallback(c *pixelart.Canvas) {
	// Body loaf.
	body := pixelart.Ellipse(350, 460, 250, 140)
	c.Outlined(body, softFur, softOutline)
	for _, st := range [][2]pixelart.Point{{pt(420, 330), pt(425, 370)}, {pt(480, 340), pt(475, 380)}, {pt(540, 360), pt(525, 395)}} {
		c.Fill(pixelart.Intersect(body, pixelart.Line(st[0], st[1], 8*pixelart.Q)), softShade)
	}
	// Tail wrapped round the front.
	tail := pixelart.Tube(pt(580, 500), pt(560, 630), pt(300, 580), 35, 28)
	c.Outlined(tail, softFur, softOutline)
	c.Fill(pixelart.Intersect(tail, pixelart.Disc(300, 580, 40)), softCream)

	// Head resting on the left, ears relaxed.
	hx, hy := 230, 400
	c.Outlined(pixelart.Polygon(pt(90, 380), pt(70, 220), pt(200, 300)), softFur, softOutline)
	c.Fill(pixelart.Polygon(pt(105, 340), pt(95, 260), pt(160, 310)), softPink)
	c.Outlined(pixelart.Polygon(pt(270, 290), pt(370, 200), pt(375, 360)), softFur, softOutline)
	c.Fill(pixelart.Polygon(pt(305, 300), pt(355, 250), pt(355, 330)), softPink)
	head := pixelart.Ellipse(hx, hy, 150, 120)
	c.Outlined(head, softFur, softOutline)
	c.Fill(pixelart.Intersect(head, pixelart.Ellipse(hx, hy+80, 90, 50)), softCream)
	// Closed eyes, tiny nose and a soft smile.
	for _, ex := range []int{hx - 60, hx + 60} {
		c.Fill(pixelart.Arc(ex, hy-10, 30, 12*pixelart.Q, 20, 160), softOutline)
	}
	c.Fill(pixelart.Polygon(pt(hx-15, hy+35), pt(hx+15, hy+35), pt(hx, hy+52)), softPink)
	c.Fill(pixelart.Arc(hx, hy+45, 22, 10*pixelart.Q, 30, 150), softOutline)
}
