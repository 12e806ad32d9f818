package main

// The desktop pet under a real X server: each test starts Xvfb (the
// system's, which tools/bazel/setup.sh installs) on a display number Xvfb
// picks itself (-displayfd), runs this test binary as petdesk (TestMain),
// and reads the screen back through its own X connection. Expected pixels
// are computed here from the inputs, not by runtime/desktop.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

const (
	packPath    = "../../../tests/golden/pet.pack"
	petpackPath = "../../../assets/petpack/pet_tabby.petpack.golden"
	// petX, petY is where petdesk puts its window by default.
	petX, petY = 64, 64
)

func TestMain(m *testing.M) {
	if os.Getenv("PETDESK_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stderr))
	}
	// The test connections' own messages (no ~/.Xauthority, the server
	// going away) are not findings.
	xgb.Logger = log.New(io.Discard, "", 0)
	// The pets' control sockets go in a directory of this run's own: a
	// pet of the user's, or of another test binary running beside this
	// one, with the same ID would otherwise be probed by (and woken by) a
	// pet starting here.
	rt, err := os.MkdirTemp("", "petdesk")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_RUNTIME_DIR", rt)
	code := m.Run()
	os.RemoveAll(rt)
	os.Exit(code)
}

// xvfb is one X server of a test.
type xvfb struct {
	display string
	cmd     *exec.Cmd
}

// startXvfb starts Xvfb with a screen of the given depth and returns once
// it accepts connections; the test's cleanup stops it.
func startXvfb(t testing.TB, depth int) *xvfb {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("640x480x%d", depth), "-nolisten", "tcp", "-br", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb (tools/bazel/setup.sh installs it): %v", err)
	}
	w.Close()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
		r.Close()
	}()
	x := &xvfb{cmd: cmd}
	t.Cleanup(func() { x.stop() })
	select {
	case n := <-line:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb gave no display number (%q): %s", n, stderr.String())
		}
		x.display = ":" + n
	case <-time.After(20 * time.Second):
		t.Fatalf("Xvfb did not start in 20 s: %s", stderr.String())
	}
	return x
}

func (x *xvfb) stop() {
	if x.cmd.ProcessState == nil {
		x.cmd.Process.Kill()
		x.cmd.Wait()
	}
}

// connect opens a test connection to the server, with the Shape extension.
func (x *xvfb) connect(t *testing.T) *xgb.Conn {
	t.Helper()
	c, err := xgb.NewConnDisplay(x.display)
	if err != nil {
		t.Fatal(err)
	}
	if err := shape.Init(c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// pet is one petdesk process of a test.
type pet struct {
	cmd    *exec.Cmd
	trace  string
	stderr *syncBuffer
	done   chan struct{}
	window xproto.Window
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// command returns petdesk (this binary) with args on display.
func command(display string, args ...string) (*exec.Cmd, *syncBuffer) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PETDESK_TEST_MAIN=1", "DISPLAY="+display)
	out := &syncBuffer{}
	cmd.Stderr = out
	return cmd, out
}

// startPet runs petdesk with args and a trace file and returns once its
// first frame is on screen.
func startPet(t *testing.T, display string, args ...string) *pet {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	cmd, out := command(display, append([]string{"--trace", trace}, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &pet{cmd: cmd, trace: trace, stderr: out, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, l := range p.lines(t) {
			if l.Kind == "first" {
				p.window = xproto.Window(l.Window)
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("petdesk %v exited before its first frame: %s", args, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("petdesk %v showed no first frame in 20 s: %s", args, out.String())
	return nil
}

// lines returns the trace so far.
func (p *pet) lines(t *testing.T) []desktop.TraceLine {
	t.Helper()
	data, err := os.ReadFile(p.trace)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []desktop.TraceLine
	for _, s := range strings.Split(string(data), "\n") {
		var l desktop.TraceLine
		if s == "" || json.Unmarshal([]byte(s), &l) != nil {
			continue // the line being written
		}
		out = append(out, l)
	}
	return out
}

// waitShow waits until a show line whose key has prefix appears after
// index from, and returns its index.
func (p *pet) waitShow(t *testing.T, from int, prefix string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ls := p.lines(t)
		for i := from; i < len(ls); i++ {
			if ls[i].Kind == "show" && strings.HasPrefix(ls[i].Key, prefix) {
				return i
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no show line %q after line %d in 10 s: %+v", prefix, from, p.lines(t))
	return 0
}

// picture is what a window shows: its RGB and which pixels its shape
// holds, row-major.
type picture struct {
	w, h  int
	rgb   [][3]uint8
	shown []bool
}

// capture reads a window's pixels (GetImage) and bounding shape
// (ShapeGetRectangles).
func capture(t *testing.T, c *xgb.Conn, win xproto.Window) picture {
	t.Helper()
	g, err := xproto.GetGeometry(c, xproto.Drawable(win)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	w, h := int(g.Width), int(g.Height)
	img, err := xproto.GetImage(c, xproto.ImageFormatZPixmap, xproto.Drawable(win), 0, 0, g.Width, g.Height, 0xffffffff).Reply()
	if err != nil {
		t.Fatal(err)
	}
	p := picture{w: w, h: h, rgb: make([][3]uint8, w*h), shown: make([]bool, w*h)}
	for i := range p.rgb {
		// 24-bit depth, 32 bits per pixel, LSB first: B, G, R, pad.
		p.rgb[i] = [3]uint8{img.Data[4*i+2], img.Data[4*i+1], img.Data[4*i]}
	}
	rs, err := shape.GetRectangles(c, win, shape.SkBounding).Reply()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Rectangles {
		for y := int(r.Y); y < int(r.Y)+int(r.Height); y++ {
			for x := int(r.X); x < int(r.X)+int(r.Width); x++ {
				if x < 0 || y < 0 || x >= w || y >= h {
					t.Fatalf("shape rectangle %+v leaves the %dx%d window", r, w, h)
				}
				if p.shown[y*w+x] {
					t.Fatalf("shape rectangles overlap at (%d, %d)", x, y)
				}
				p.shown[y*w+x] = true
			}
		}
	}
	return p
}

// diff describes the first difference between two pictures, "" if none.
// Hidden pixels' colours are not compared: the shape hides them.
func diff(got, want picture) string {
	if got.w != want.w || got.h != want.h {
		return fmt.Sprintf("size %dx%d, want %dx%d", got.w, got.h, want.w, want.h)
	}
	for i := range want.shown {
		x, y := i%want.w, i/want.w
		if got.shown[i] != want.shown[i] {
			return fmt.Sprintf("pixel (%d, %d) shown=%v, want %v", x, y, got.shown[i], want.shown[i])
		}
		if want.shown[i] && got.rgb[i] != want.rgb[i] {
			return fmt.Sprintf("pixel (%d, %d) is %v, want %v", x, y, got.rgb[i], want.rgb[i])
		}
	}
	return ""
}

// fromNRGBA is a picture of img: shown where alpha is 128 or more.
func fromNRGBA(img *image.NRGBA) picture {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	p := picture{w: w, h: h, rgb: make([][3]uint8, w*h), shown: make([]bool, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			o := y*img.Stride + 4*x
			p.rgb[y*w+x] = [3]uint8{img.Pix[o], img.Pix[o+1], img.Pix[o+2]}
			p.shown[y*w+x] = img.Pix[o+3] >= 128
		}
	}
	return p
}

// scaled makes each pixel of p an n by n block.
func scaled(p picture, n int) picture {
	out := picture{w: p.w * n, h: p.h * n, rgb: make([][3]uint8, p.w*p.h*n*n), shown: make([]bool, p.w*p.h*n*n)}
	for y := 0; y < out.h; y++ {
		for x := 0; x < out.w; x++ {
			out.rgb[y*out.w+x] = p.rgb[(y/n)*p.w+x/n]
			out.shown[y*out.w+x] = p.shown[(y/n)*p.w+x/n]
		}
	}
	return out
}

// packPicture expands the pack image named id: RGB565 by bit replication,
// shown where the mask bit (MSB first, rows byte-aligned) is set.
func packPicture(t *testing.T, id string) picture {
	t.Helper()
	data, err := os.ReadFile(packPath)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, im := range pk.Images {
		if im.ID != id {
			continue
		}
		e := pk.Entries[i]
		w, h := int(e.Width), int(e.Height)
		p := picture{w: w, h: h, rgb: make([][3]uint8, w*h), shown: make([]bool, w*h)}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := int(e.Colour[2*(y*w+x)])<<8 | int(e.Colour[2*(y*w+x)+1])
				r, g, b := v>>11, v>>5&63, v&31
				p.rgb[y*w+x] = [3]uint8{uint8(r<<3 | r>>2), uint8(g<<2 | g>>4), uint8(b<<3 | b>>2)}
				p.shown[y*w+x] = e.Mask[y*((w+7)/8)+x/8]>>(7-x%8)&1 == 1
			}
		}
		return p
	}
	t.Fatalf("no image %s in %s", id, packPath)
	return picture{}
}

// petpackFrame decodes frame i of action from the sample archive with the
// standard library's readers.
func petpackFrame(t *testing.T, action string, i int) *image.NRGBA {
	t.Helper()
	zr, err := zip.OpenReader(petpackPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	name := fmt.Sprintf("assets/frames/%s/%04d.png", action, i)
	f, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n, ok := src.(*image.NRGBA)
	if !ok {
		t.Fatalf("%s decodes to %T, want *image.NRGBA", name, src)
	}
	return n
}

// xdotool runs xdotool on the display.
func xdotool(t *testing.T, display string, args ...string) {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
}

// switches counts the voluntary and involuntary context switches of every
// thread of process pid: each wake-up is at least one.
func switches(t *testing.T, pid int) int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no threads of %d: %v", pid, err)
	}
	n := 0
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "voluntary_ctxt_switches:") || strings.HasPrefix(l, "nonvoluntary_ctxt_switches:") {
				v, err := strconv.Atoi(strings.TrimSpace(l[strings.IndexByte(l, ':')+1:]))
				if err != nil {
					t.Fatal(err)
				}
				n += v
			}
		}
	}
	return n
}
