package pixelart

import (
	"hash/crc32"
	"image/color"
	"math"
	"strings"
	"testing"
)

// picture renders the mask of s on a w x h canvas as rows of '#' and '.'.
func picture(c *Canvas, s Shape) string {
	m := c.Mask(s)
	var b strings.Builder
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			if m[y*c.W+x] {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func count(m []bool) int {
	n := 0
	for _, in := range m {
		if in {
			n++
		}
	}
	return n
}

// TestSinCosTable holds the rounded table against the real sine: every
// entry is the nearest Q14 value, and the other quadrants follow by symmetry.
func TestSinCosTable(t *testing.T) {
	for d := -720; d <= 720; d++ {
		s, c := SinCos(d)
		r := float64(d) * math.Pi / 180
		if e := math.Abs(float64(s) - One*math.Sin(r)); e > 0.5001 {
			t.Errorf("SinCos(%d) sine %d is %.4f off", d, s, e)
		}
		if e := math.Abs(float64(c) - One*math.Cos(r)); e > 0.5001 {
			t.Errorf("SinCos(%d) cosine %d is %.4f off", d, c, e)
		}
		if n := s*s + c*c; n < (One-2)*(One-2) || n > (One+2)*(One+2) {
			t.Errorf("SinCos(%d): sin²+cos² = %d, want about One²", d, n)
		}
		if ns, nc := SinCos(-d); ns != -s || nc != c {
			t.Errorf("SinCos(%d) = %d, %d but SinCos(%d) = %d, %d", d, s, c, -d, ns, nc)
		}
	}
}

// TestShapeCoverage draws each primitive on a 7x7 canvas at two units to a
// pixel, where odd coordinates are pixel centres: (7, 7) is the middle of
// pixel (3, 3).
func TestShapeCoverage(t *testing.T) {
	tests := []struct {
		name  string
		shape Shape
		want  string
	}{
		{"disc", Disc(7, 7, 4), "" +
			".......\n" +
			"...#...\n" +
			"..###..\n" +
			".#####.\n" +
			"..###..\n" +
			"...#...\n" +
			".......\n"},
		{"ellipse", Ellipse(7, 7, 6, 2), "" +
			".......\n" +
			".......\n" +
			"...#...\n" +
			"#######\n" +
			"...#...\n" +
			".......\n" +
			".......\n"},
		{"polygon square", Polygon(Pt(2, 2), Pt(8, 2), Pt(8, 6), Pt(2, 6)), "" +
			".......\n" +
			".###...\n" +
			".###...\n" +
			".......\n" +
			".......\n" +
			".......\n" +
			".......\n"},
		{"polygon triangle", Polygon(Pt(0, 0), Pt(14, 0), Pt(0, 14)), "" +
			"######.\n" +
			"#####..\n" +
			"####...\n" +
			"###....\n" +
			"##.....\n" +
			"#......\n" +
			".......\n"},
		{"line", Line(Pt(3, 7), Pt(11, 7), Q/2), "" +
			".......\n" +
			".......\n" +
			".......\n" +
			".#####.\n" +
			".......\n" +
			".......\n" +
			".......\n"},
		{"zero-length line", Line(Pt(7, 7), Pt(7, 7), Q), "" +
			".......\n" +
			".......\n" +
			".......\n" +
			"...#...\n" +
			".......\n" +
			".......\n" +
			".......\n"},
		{"ring", Ring(7, 7, 6, Q), "" +
			"..###..\n" +
			".#...#.\n" +
			"#.....#\n" +
			"#.....#\n" +
			"#.....#\n" +
			".#...#.\n" +
			"..###..\n"},
		{"below and above", Intersect(Below(4), Above(8)), "" +
			".......\n" +
			".......\n" +
			"#######\n" +
			"#######\n" +
			".......\n" +
			".......\n" +
			".......\n"},
		{"sector: the lower right quarter", Intersect(Disc(7, 7, 6), Sector(7, 7, 0, 90)), "" +
			".......\n" +
			".......\n" +
			".......\n" +
			"...####\n" +
			"...###.\n" +
			"...###.\n" +
			"...#...\n"},
		{"arc: the upper half", Arc(7, 7, 6, Q, 180, 360), "" +
			"..###..\n" +
			".#...#.\n" +
			"#.....#\n" +
			"#.....#\n" +
			".......\n" +
			".......\n" +
			".......\n"},
		{"minus and union", Union(Minus(Disc(7, 7, 7), Disc(7, 7, 5)), Disc(7, 7, 1)), "" +
			"..###..\n" +
			".#...#.\n" +
			"#.....#\n" +
			"#..#..#\n" +
			"#.....#\n" +
			".#...#.\n" +
			"..###..\n"},
		{"inset triangle", Inset(Pt(0, 0), Pt(14, 0), Pt(0, 14)), "" +
			".......\n" +
			".###...\n" +
			".##....\n" +
			".#.....\n" +
			".......\n" +
			".......\n" +
			".......\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := picture(New(7, 7, 2, 1), tt.shape); got != tt.want {
				t.Errorf("got\n%swant\n%s", got, tt.want)
			}
		})
	}
}

// TestPlace: a placement moves shapes by whole design units and turns them
// about the pivot; quarter turns about a pixel corner are exact.
func TestPlace(t *testing.T) {
	bar := Polygon(Pt(2, 6), Pt(6, 6), Pt(6, 8), Pt(2, 8)) // 4 wide, 2 high
	tests := []struct {
		name        string
		dx, dy, deg int
		pivot       Point
		wantSameAs  Shape
	}{
		{"nothing", 0, 0, 0, Point{}, bar},
		{"moved", 3, -2, 0, Point{}, Polygon(Pt(5, 4), Pt(9, 4), Pt(9, 6), Pt(5, 6))},
		{"a full turn", 0, 0, 360, Pt(5, 5), bar},
		// About a pixel corner, sample points turn onto sample points.
		{"quarter turn clockwise", 0, 0, 90, Pt(4, 7), Polygon(Pt(3, 5), Pt(5, 5), Pt(5, 9), Pt(3, 9))},
		{"half turn", 0, 0, 180, Pt(4, 7), bar},
		{"turned then moved", 1, 1, 180, Pt(4, 7), Polygon(Pt(3, 7), Pt(7, 7), Pt(7, 9), Pt(3, 9))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(12, 12, 1, 1)
			c.Place(tt.dx, tt.dy, tt.deg, tt.pivot)
			got := picture(c, bar)
			want := picture(New(12, 12, 1, 1), tt.wantSameAs)
			if got != want {
				t.Errorf("got\n%swant\n%s", got, want)
			}
		})
	}
}

// TestClipping: shapes reaching past the canvas, or entirely off it, paint
// only the pixels inside, and an outline stops at the edge.
func TestClipping(t *testing.T) {
	tests := []struct {
		name  string
		shape Shape
		want  int
	}{
		{"inside", Disc(3, 3, 2), 12},
		{"off to the left", Disc(-10, 3, 2), 0},
		{"off below", Disc(3, 100, 50), 0},
		{"covers everything", Disc(3, 3, 100), 36},
		{"a quarter hangs in", Disc(0, 0, 2), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(6, 6, 1, 2)
			if got := count(c.Mask(tt.shape)); got != tt.want {
				t.Errorf("%d pixels inside, want %d", got, tt.want)
			}
			c.Outlined(tt.shape, Fur, Outline)
			fur := 0
			for _, k := range c.Pix {
				if k == Fur {
					fur++
				}
			}
			if len(c.Pix) != 36 || fur != tt.want {
				t.Errorf("outlined: %d pixels, %d of them fur; want 36 and %d", len(c.Pix), fur, tt.want)
			}
		})
	}
}

// TestOutlined: the border is Edge pixels wide, rounded, and under the
// shape, never over it.
func TestOutlined(t *testing.T) {
	tests := []struct {
		edge int
		want string
	}{
		{1, "" +
			".......\n" +
			".......\n" +
			"..ooo..\n" +
			"..o#o..\n" +
			"..ooo..\n" +
			".......\n" +
			".......\n"},
		{2, "" +
			".......\n" +
			"..ooo..\n" +
			".ooooo.\n" +
			".oo#oo.\n" +
			".ooooo.\n" +
			"..ooo..\n" +
			".......\n"},
	}
	for _, tt := range tests {
		c := New(7, 7, 2, tt.edge)
		// At two units to a pixel, (7, 7) is the centre of pixel (3, 3).
		c.Outlined(Line(Pt(7, 7), Pt(7, 7), Q/2), Fur, Outline)
		var b strings.Builder
		for i, k := range c.Pix {
			b.WriteByte(map[Ink]byte{None: '.', Fur: '#', Outline: 'o'}[k])
			if i%7 == 6 {
				b.WriteByte('\n')
			}
		}
		if got := b.String(); got != tt.want {
			t.Errorf("Edge %d: got\n%swant\n%s", tt.edge, got, tt.want)
		}
	}
}

// TestUnit: the same art laid out at ten units to a pixel, with line widths
// ten times larger, covers the same pixels.
func TestUnit(t *testing.T) {
	type art func(k int) Shape
	tests := []struct {
		name string
		art  art
	}{
		{"ellipse", func(k int) Shape { return Ellipse(20*k, 15*k, 11*k, 7*k) }},
		{"polygon", func(k int) Shape { return Polygon(Pt(3*k, 4*k), Pt(30*k, 9*k), Pt(12*k, 28*k)) }},
		{"line", func(k int) Shape { return Line(Pt(5*k, 5*k), Pt(27*k, 21*k), int64(20*k)) }},
		{"ring", func(k int) Shape { return Ring(16*k, 16*k, 9*k, int64(16*k)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one := picture(New(32, 32, 1, 1), tt.art(1))
			ten := picture(New(32, 32, 10, 1), tt.art(10))
			if one != ten {
				t.Errorf("unit 1:\n%sunit 10:\n%s", one, ten)
			}
		})
	}
}

// TestDeterministic pins the pixels of a drawing that uses every primitive
// and a rotation, so a change that alters any generator's art (on any
// architecture) shows up here first.
func TestDeterministic(t *testing.T) {
	draw := func() *Canvas {
		c := New(48, 40, 2, 1)
		c.Place(2, -3, -13, Pt(48, 40))
		c.Outlined(Tube(Pt(10, 60), Pt(40, 90), Pt(80, 20), 6, 3), Fur, Outline)
		c.Fill(Arc(50, 40, 12, 2*Q, 200, 340), FurShade)
		c.Outlined(Polygon(Pt(20, 10), Pt(40, 2), Pt(36, 30)), Cream, Outline)
		c.Fill(Inset(Pt(20, 10), Pt(40, 2), Pt(36, 30)), EarPink)
		c.Place(0, 0, 0, Point{})
		c.Fill(Intersect(Ellipse(60, 50, 20, 12), Below(50)), Nose)
		c.Fill(Union(Disc(12, 12, 4), Minus(Ring(80, 20, 8, Q), Above(20))), Pupil)
		return c
	}
	a, b := draw(), draw()
	if string(inks(a.Pix)) != string(inks(b.Pix)) {
		t.Fatal("two drawings of the same art differ")
	}
	const want = 0x79c54d95
	if got := crc32.ChecksumIEEE(inks(a.Pix)); got != want {
		t.Errorf("CRC-32 of the pixels is %#08x, want %#08x", got, want)
	}
}

func inks(pix []Ink) []byte {
	b := make([]byte, len(pix))
	for i, k := range pix {
		b[i] = byte(k)
	}
	return b
}

func TestCatPalette(t *testing.T) {
	extra := color.NRGBA{1, 2, 3, 255}
	p := CatPalette(extra)
	if len(p) != int(CatInks)+1 || p[CatInks] != extra {
		t.Fatalf("CatPalette(extra) has %d colours, extra at %v", len(p), p[len(p)-1])
	}
	if p[None] != (color.NRGBA{}) {
		t.Errorf("None is %v, want transparent black", p[None])
	}
	seen := map[color.NRGBA]Ink{}
	for k := Outline; k < CatInks; k++ {
		if p[k].A != 255 {
			t.Errorf("ink %d is not opaque: %v", k, p[k])
		}
		if o, dup := seen[p[k]]; dup {
			t.Errorf("inks %d and %d share %v", o, k, p[k])
		}
		seen[p[k]] = k
	}
	// The palette is a copy: a generator's change stays its own.
	p[Fur] = extra
	if CatPalette()[Fur] == extra {
		t.Error("changing one palette changed the next")
	}
	img := New(2, 1, 1, 1)
	img.Pix[1] = CatInks
	if got := img.Image(p).NRGBAAt(1, 0); got != extra {
		t.Errorf("Image drew ink %d as %v, want %v", CatInks, got, extra)
	}
}
