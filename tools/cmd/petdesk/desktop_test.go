package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// TestPackPixels: the window shows the pack's RGB565 payload expanded and
// its mask as the shape, at every scale.
func TestPackPixels(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	for _, tc := range []struct {
		role, image string
		scale       int
	}{
		{"activity_idle", "sprite_idle", 1},
		{"activity_idle", "sprite_idle", 3},
		{"fallback_default", "sprite_fallback", 1},
		{"no_such_role", "sprite_fallback", 2}, // section 5.4: the fallback role
	} {
		t.Run(fmt.Sprintf("%s_x%d", tc.role, tc.scale), func(t *testing.T) {
			p := startPet(t, x.display, "--pack", packPath, "--role", tc.role, "--scale", strconv.Itoa(tc.scale))
			want := scaled(packPicture(t, tc.image), tc.scale)
			if d := diff(capture(t, c, p.window), want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestPetpackPixels: under Reduce Motion a .petpack pet shows idle's
// representative frame (index 2), decoded, and schedules nothing.
func TestPetpackPixels(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--petpack", petpackPath, "--reduce-motion")
	if d := diff(capture(t, c, p.window), fromNRGBA(petpackFrame(t, "idle", 2))); d != "" {
		t.Fatal(d)
	}
	for _, l := range p.lines(t) {
		if l.Kind == "schedule" || (l.Kind == "show" && l.Key != "idle/2") {
			t.Fatalf("a held pose traced %+v", l)
		}
	}
}

// TestFallback: a refused runtime copy shows the built-in fallback (a
// 96x96 square of #5B8FA8), prints the reason and keeps running.
func TestFallback(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--runtime", t.TempDir())
	want := picture{w: 96, h: 96}
	for i := 0; i < 96*96; i++ {
		want.rgb = append(want.rgb, [3]uint8{0x5B, 0x8F, 0xA8})
		want.shown = append(want.shown, true)
	}
	if d := diff(capture(t, c, p.window), want); d != "" {
		t.Fatal(d)
	}
	if !strings.Contains(p.stderr.String(), "manifest_missing") {
		t.Fatalf("the reason is not printed: %q", p.stderr.String())
	}
	select {
	case <-p.done:
		t.Fatalf("the fallback pet exited: %s", p.stderr.String())
	case <-time.After(500 * time.Millisecond):
	}
}

// writeRuntimeCopy writes an asset set of one image.
func writeRuntimeCopy(t *testing.T, img image.Image) string {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sprites"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sprites", "a.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := "manifest pet 1\n\n[images]\nsprite_a sprites/a.png\n\n[animations]\nanim_a sprite_a 500\n\n[roles]\nactivity_idle anim_a\n\n[fallback]\nactivity_idle\n"
	if err := os.WriteFile(filepath.Join(dir, "manifest.petasset"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPartialAlpha: a runtime copy's pixel shows iff its alpha is 128 or
// more, with its own RGB.
func TestPartialAlpha(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 6, 2))
	alphas := []uint8{0, 1, 127, 128, 200, 255}
	for y := 0; y < 2; y++ {
		for i, a := range alphas {
			o := y*img.Stride + 4*i
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(40*i), uint8(200-30*i), uint8(17*i+y), a
		}
	}
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--runtime", writeRuntimeCopy(t, img))
	got := capture(t, c, p.window)
	for i, a := range alphas {
		if got.shown[i] != (a >= 128) {
			t.Errorf("alpha %d: shown=%v", a, got.shown[i])
		}
	}
	if d := diff(got, fromNRGBA(img)); d != "" {
		t.Fatal(d)
	}
}

// pressed renders img as the press response: sw = round(w*0.97) by sh
// pixels, bottom centre, nearest neighbour.
func pressed(img *image.NRGBA) picture {
	p := fromNRGBA(img)
	w, h := p.w, p.h
	sw, sh := int(math.Round(float64(w)*0.97)), int(math.Round(float64(h)*0.97))
	x0, y0 := (w-sw)/2, h-sh
	out := picture{w: w, h: h, rgb: make([][3]uint8, w*h), shown: make([]bool, w*h)}
	for y := y0; y < h; y++ {
		for x := x0; x < x0+sw; x++ {
			s := ((y-y0)*h/sh)*w + (x-x0)*w/sw
			out.rgb[y*w+x], out.shown[y*w+x] = p.rgb[s], p.shown[s]
		}
	}
	return out
}

// shownPoint returns a screen point over a shown pixel of picture p whose
// window is at (wx, wy).
func shownPoint(t *testing.T, p picture, wx, wy int) (int, int) {
	t.Helper()
	for y := p.h / 2; y < p.h; y++ {
		for x := p.w / 2; x < p.w; x++ {
			if p.shown[y*p.w+x] {
				return wx + x, wy + y
			}
		}
	}
	t.Fatal("no shown pixel")
	return 0, 0
}

// TestPressed: pointer-down on a .petpack pet shows the press-scaled frame
// and its shape.
func TestPressed(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--petpack", petpackPath)
	px, py := shownPoint(t, capture(t, c, p.window), petX, petY)
	xdotool(t, x.display, "mousemove", strconv.Itoa(px), strconv.Itoa(py), "mousedown", "1")
	for i := 0; ; i++ {
		i = p.waitShow(t, i, "idle/")
		if strings.HasSuffix(p.lines(t)[i].Key, "@0.97") {
			break
		}
	}
	// Idle keeps playing while pressed: the window must be exactly one of
	// its frames, pressed.
	got := capture(t, c, p.window)
	matched := -1
	for f := 0; f < 6; f++ {
		if diff(got, pressed(petpackFrame(t, "idle", f))) == "" {
			matched = f
		}
	}
	if matched < 0 {
		t.Fatalf("the window is no pressed idle frame: %s (frame 2)", diff(got, pressed(petpackFrame(t, "idle", 2))))
	}
	xdotool(t, x.display, "mouseup", "1")
}

// TestClickThrough: a click on a transparent pixel of the pet reaches the
// window below it; a click on a shown pixel does not.
func TestClickThrough(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	screen := xproto.Setup(c).DefaultScreen(c)
	below, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(c, screen.RootDepth, below, screen.Root, 0, 0, 640, 480, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwOverrideRedirect|xproto.CwEventMask,
		[]uint32{1, xproto.EventMaskButtonPress}).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.MapWindowChecked(c, below).Check(); err != nil {
		t.Fatal(err)
	}
	p := startPet(t, x.display, "--pack", packPath)
	pic := capture(t, c, p.window)
	tx, ty := -1, -1
	for i, s := range pic.shown {
		if !s {
			tx, ty = petX+i%pic.w, petY+i/pic.w
			break
		}
	}
	if tx < 0 {
		t.Fatal("the sprite has no transparent pixel")
	}
	sx, sy := shownPoint(t, pic, petX, petY)
	clicks := make(chan xproto.ButtonPressEvent, 8)
	go func() {
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if b, ok := ev.(xproto.ButtonPressEvent); ok {
				clicks <- b
			}
		}
	}()
	xdotool(t, x.display, "mousemove", strconv.Itoa(sx), strconv.Itoa(sy), "click", "1")
	xdotool(t, x.display, "mousemove", strconv.Itoa(tx), strconv.Itoa(ty), "click", "1")
	select {
	case b := <-clicks:
		if int(b.RootX) != tx || int(b.RootY) != ty {
			t.Fatalf("the window below got the click at (%d, %d), want only the one at the transparent pixel (%d, %d)", b.RootX, b.RootY, tx, ty)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the click on a transparent pixel did not reach the window below")
	}
}

// TestDrag: dragging the pet moves its window and shows the drag pose of
// the direction, then idle again.
func TestDrag(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--petpack", petpackPath)
	px, py := shownPoint(t, capture(t, c, p.window), petX, petY)
	xdotool(t, x.display, "mousemove", strconv.Itoa(px), strconv.Itoa(py), "mousedown", "1")
	for i := 1; i <= 5; i++ {
		xdotool(t, x.display, "mousemove", strconv.Itoa(px-10*i), strconv.Itoa(py+i))
	}
	d := p.waitShow(t, 0, "drag_left/")
	// The pose changes at the first motion past the drag threshold, while
	// the later motions may still be queued on a loaded machine: wait for
	// the window to follow the last one, and fail only if it never does.
	var gx, gy int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		g, err := xproto.GetGeometry(c, xproto.Drawable(p.window)).Reply()
		if err != nil {
			t.Fatal(err)
		}
		gx, gy = int(g.X), int(g.Y)
		if (gx == petX-50 && gy == petY+5) || time.Now().After(deadline) {
			break
		}
	}
	if gx != petX-50 || gy != petY+5 {
		t.Fatalf("the window is at (%d, %d), want (%d, %d)", gx, gy, petX-50, petY+5)
	}
	xdotool(t, x.display, "mousemove", strconv.Itoa(px), strconv.Itoa(py+5))
	r := p.waitShow(t, d, "drag_right/")
	xdotool(t, x.display, "mouseup", "1")
	p.waitShow(t, r, "idle/")
}

// quietFor counts the pet's wake-ups over 10 s: once it has settled (see
// settle), or from 2 s after its first frame when it animates (the probe's
// positive control, which never settles).
func quietFor(t *testing.T, p *pet, animating bool) int {
	if animating {
		time.Sleep(2 * time.Second)
	} else {
		settle(t, p)
	}
	before := switches(t, p.cmd.Process.Pid)
	time.Sleep(10 * time.Second)
	return switches(t, p.cmd.Process.Pid) - before
}

// settle waits until the pet has gone a whole second without a context
// switch. The Go runtime's background scavenger returns the memory loading
// freed on a timer of its own for about a second after the first frame on
// an idle machine (petdesk collects that memory at the first frame), and
// longer on a busy one: after a fixed 2 s pause, a run beside two Bazel
// builds counted 23 wake-ups and preemptions of that start-up work against
// a held .petpack pet. A pet that a timer wakes more often than once a
// second never settles and fails here; one woken less often settles and
// fails the count.
func settle(t *testing.T, p *pet) {
	t.Helper()
	pid := p.cmd.Process.Pid
	deadline := time.Now().Add(30 * time.Second)
	last, since := switches(t, pid), time.Now()
	for time.Since(since) < time.Second {
		if time.Now().After(deadline) {
			t.Fatal("the pet was woken within every second for 30 s after its first frame")
		}
		time.Sleep(50 * time.Millisecond)
		if n := switches(t, pid); n != last {
			last, since = n, time.Now()
		}
	}
}

// TestQuiet: a held pet is woken 0 times in 10 s; an animating one, the
// probe's positive control, more than 0.
func TestQuiet(t *testing.T) {
	x := startXvfb(t, 24)
	for _, tc := range []struct {
		name    string
		args    []string
		animate bool
	}{
		// Side by side: overlapping override-redirect pets raise
		// themselves over each other (at most once a second each). Each
		// has an ID of its own: a pet starting with a running pet's ID
		// probes that pet's socket, which wakes it (on a loaded machine
		// the third pet started inside the first's ten seconds).
		{"pack_activity_idle", []string{"--pack", packPath, "--x", "0"}, false},
		{"petpack_reduce_motion", []string{"--petpack", petpackPath, "--reduce-motion", "--x", "100"}, false},
		{"pack_expression_happy", []string{"--pack", packPath, "--role", "expression_happy", "--x", "400"}, true},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := quietFor(t, startPet(t, x.display, append([]string{"--id", tc.name}, tc.args...)...), tc.animate)
			if tc.animate && n == 0 {
				t.Fatal("an animating pet was woken 0 times: the probe counts nothing")
			}
			if !tc.animate && n != 0 {
				t.Fatalf("a held pet was woken %d times in 10 s", n)
			}
		})
	}
}

// happyDue is the image expression_happy has due at ms from its start: its
// two 300 ms frames in turn.
func happyDue(ms int64) string {
	if ms/300%2 == 0 {
		return "sprite_happy"
	}
	return "sprite_idle"
}

// TestSchedule: the pet schedules the authored boundaries from its own
// clock (300 ms each for expression_happy), each show line the image due
// then; a stall shows the frame due at its end once, replaying nothing,
// or nothing at all when that frame is the image already on screen (the
// pet shows only changes: a test machine that oversleeps the stall by
// 100 ms moves its end into the other of the two frames). Lateness is
// checked only loosely.
func TestSchedule(t *testing.T) {
	x := startXvfb(t, 24)
	p := startPet(t, x.display, "--pack", packPath, "--role", "expression_happy")
	time.Sleep(1300 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGSTOP)
	time.Sleep(1000 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGCONT)
	time.Sleep(1000 * time.Millisecond)
	if err := checkSchedule(p.lines(t)); err != nil {
		t.Fatal(err)
	}
}

// checkSchedule judges TestSchedule's trace: a 1 s stall 1.3 s into
// expression_happy's 300 ms frames.
func checkSchedule(lines []desktop.TraceLine) error {
	var lastSchedule, prevAt int64
	shows, stalled := 0, 0
	// The stall is the one gap of the trace of 650 ms or more; what the
	// pet wrote first after it, and what it had on screen before it.
	after := -1
	shownBefore := ""
	for i, l := range lines {
		if after < 0 && i > 0 && l.AtMS-prevAt >= 650 {
			after = i
		}
		prevAt = l.AtMS
		if l.Kind == "show" && after < 0 {
			shownBefore = l.Key
		}
		switch l.Kind {
		case "schedule":
			if l.DueMS%300 != 0 || l.DueMS <= l.AtMS-300 || l.DueMS <= lastSchedule {
				return fmt.Errorf("scheduled %+v after %d: not the next authored boundary", l, lastSchedule)
			}
			if l.DueMS-l.AtMS > 300 {
				return fmt.Errorf("scheduled %+v: more than one frame ahead", l)
			}
			lastSchedule = l.DueMS
		case "show":
			shows++
			if l.Key != happyDue(l.AtMS) {
				return fmt.Errorf("%+v: at %d ms %s is due", l, l.AtMS, happyDue(l.AtMS))
			}
			// The 1 s stall makes the show at its end at least 700 ms
			// late (a boundary falls at most 300 ms into it); any
			// other show is due well within that, however busy the
			// machine.
			if late := l.AtMS - l.DueMS; late >= 650 {
				stalled++
			}
		}
	}
	// 3.3 s of 300 ms frames: about 11 boundaries, of which the stall
	// swallows 3 or 4; at most one show comes late (the stall's end), and
	// none only when the frame due then was already on screen.
	if after < 0 {
		return fmt.Errorf("no gap of 650 ms or more in the trace: the 1 s stall did not show: %+v", lines)
	}
	afterStall := lines[after]
	switch {
	case stalled > 1:
		return fmt.Errorf("%d late shows, want at most the one at the stall's end: %+v", stalled, lines)
	case stalled == 0 && afterStall.Kind == "show":
		return fmt.Errorf("the show at the stall's end %+v is not late: %+v", afterStall, lines)
	case stalled == 0 && happyDue(afterStall.AtMS) != shownBefore:
		return fmt.Errorf("no show at the stall's end (%+v), yet %s was due there and %s on screen: %+v",
			afterStall, happyDue(afterStall.AtMS), shownBefore, lines)
	}
	if shows < 6 || shows > 10 {
		return fmt.Errorf("%d shows in 3.3 s with a 1 s stall: %+v", shows, lines)
	}
	return nil
}

// TestCheckSchedule holds checkSchedule to traces of both endings of a
// stall, and to broken ones: no Xvfb, the judgement alone.
func TestCheckSchedule(t *testing.T) {
	type tl = desktop.TraceLine
	show := func(at, due int64) tl { return tl{Kind: "show", AtMS: at, DueMS: due, Key: happyDue(due)} }
	sched := func(at, due int64) tl { return tl{Kind: "schedule", AtMS: at, DueMS: due} }
	// Before the stall: shows at 0, 300, ..., 1200 (happy on screen last).
	before := []tl{{Kind: "first", AtMS: 14}}
	for due := int64(0); due <= 1200; due += 300 {
		before = append(before, show(due, due), sched(due, due+300))
	}
	join := func(parts ...[]tl) []tl {
		var out []tl
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name  string
		lines []tl
		ok    bool
	}{
		// The stall ends in 2100-2400 (idle due, happy on screen): one late show.
		{"late show", join(before, []tl{show(2310, 1500), sched(2310, 2400), show(2400, 2400), sched(2400, 2700), show(2700, 2700)}), true},
		// Ends in 2400-2700 (happy due, happy on screen): no show, the next boundary (seen in CI).
		{"due frame on screen", join(before, []tl{sched(2555, 2700), show(2701, 2700), sched(2701, 3000), show(3001, 3000)}), true},
		{"no show though idle was due", join(before, []tl{sched(2310, 2400), show(2400, 2400), sched(2400, 2700), show(2700, 2700)}), false},
		{"two late shows", join(before, []tl{show(2310, 1500), show(2320, 1500), sched(2320, 2400), show(2400, 2400)}), false},
		{"no stall", join(before, []tl{show(1500, 1500), sched(1500, 1800), show(1800, 1800)}), false},
		{"replayed frames", join(before, []tl{show(2310, 1500), show(2311, 1800), sched(2311, 2400)}), false},
	}
	for _, tc := range tests {
		err := checkSchedule(tc.lines)
		if (err == nil) != tc.ok {
			t.Errorf("%s: checkSchedule = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestFaults: bad input and unusable displays are clear errors, exit 1,
// and no window.
func TestFaults(t *testing.T) {
	x := startXvfb(t, 24)
	x8 := startXvfb(t, 8)
	c := x.connect(t)
	dir := t.TempDir()
	data, err := os.ReadFile(packPath)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	badPack := filepath.Join(dir, "bad.pack")
	badPetpack := filepath.Join(dir, "bad.petpack")
	os.WriteFile(badPack, data, 0o644)
	os.WriteFile(badPetpack, []byte("not a zip archive"), 0o644)
	for _, tc := range []struct {
		name, display string
		args          []string
		want          string
	}{
		{"invalid_pack", x.display, []string{"--pack", badPack}, "check_mismatch"},
		{"invalid_petpack", x.display, []string{"--petpack", badPetpack}, "zip_end_missing"},
		{"missing_pack", x.display, []string{"--pack", filepath.Join(dir, "none.pack")}, "no such file"},
		{"no_display", "", []string{"--pack", packPath}, "DISPLAY is not set"},
		{"unreachable_server", ":999", []string{"--pack", packPath}, "cannot connect"},
		{"8-bit_visual", x8.display, []string{"--pack", packPath}, "8-bit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, out := command(tc.display, tc.args...)
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1: %s", err, out.String())
			}
			if !strings.Contains(out.String(), tc.want) {
				t.Fatalf("stderr %q lacks %q", out.String(), tc.want)
			}
			tree, err := xproto.QueryTree(c, xproto.Setup(c).DefaultScreen(c).Root).Reply()
			if err != nil {
				t.Fatal(err)
			}
			if len(tree.Children) != 0 {
				t.Fatalf("%d windows were created", len(tree.Children))
			}
		})
	}
}

// TestServerGoesAway: when the X server exits the pet exits cleanly.
func TestServerGoesAway(t *testing.T) {
	x := startXvfb(t, 24)
	p := startPet(t, x.display, "--pack", packPath, "--role", "expression_happy")
	x.stop()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the pet outlived its X server by 10 s")
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, p.stderr.String())
	}
	if s := p.stderr.String(); strings.Contains(s, "panic") || !strings.Contains(s, "went away") {
		t.Fatalf("stderr %q", s)
	}
}

// TestManaged: under a window manager (openbox) a managed pet is mapped,
// undecorated, kept above, and shows the same pixels.
func TestManaged(t *testing.T) {
	x := startXvfb(t, 24)
	wm := exec.Command("openbox", "--sm-disable")
	wm.Env = append(os.Environ(), "DISPLAY="+x.display)
	var wmOut syncBuffer
	wm.Stdout, wm.Stderr = &wmOut, &wmOut
	defer func() {
		if t.Failed() {
			t.Logf("openbox: %s", wmOut.String())
		}
	}()
	if err := wm.Start(); err != nil {
		t.Fatalf("start openbox (tools/bazel/setup.sh installs it): %v", err)
	}
	t.Cleanup(func() { wm.Process.Kill(); wm.Wait() })
	c := x.connect(t)
	waitWM(t, c)
	p := startPet(t, x.display, "--pack", packPath, "--managed")
	deadline := time.Now().Add(5 * time.Second)
	for {
		a, err := xproto.GetWindowAttributes(c, p.window).Reply()
		if err != nil {
			t.Fatal(err)
		}
		if a.MapState == xproto.MapStateViewable && !a.OverrideRedirect {
			break
		}
		if time.Now().After(deadline) {
			info, _ := exec.Command("sh", "-c", "DISPLAY="+x.display+" xwininfo -root -tree | grep -v 'has no name'; DISPLAY="+x.display+" xprop -id "+strconv.Itoa(int(p.window))).CombinedOutput()
			t.Fatalf("the managed window is not viewable: %+v\n%s", a, info)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !hasAtom(t, c, p.window, "_NET_WM_STATE", "_NET_WM_STATE_ABOVE") {
		t.Fatal("the window manager does not keep the pet above")
	}
	if d := diff(capture(t, c, p.window), packPicture(t, "sprite_idle")); d != "" {
		t.Fatal(d)
	}
}

// waitWM waits until a window manager maps windows: a probe window's map
// request is redirected to it, so the probe is viewable only once the
// manager handles requests.
func waitWM(t *testing.T, c *xgb.Conn) {
	t.Helper()
	screen := xproto.Setup(c).DefaultScreen(c)
	probe, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(c, screen.RootDepth, probe, screen.Root, 0, 0, 1, 1, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, 0, nil).Check(); err != nil {
		t.Fatal(err)
	}
	defer xproto.DestroyWindow(c, probe)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// A request a manager missed while starting is asked again.
		xproto.MapWindow(c, probe)
		a, err := xproto.GetWindowAttributes(c, probe).Reply()
		if err == nil && a.MapState == xproto.MapStateViewable {
			return
		}
	}
	t.Fatal("openbox maps no window 10 s after starting")
}

func atom(t *testing.T, c *xgb.Conn, name string) xproto.Atom {
	t.Helper()
	r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return r.Atom
}

// hasAtom reports whether the ATOM[] property prop of win holds value.
func hasAtom(t *testing.T, c *xgb.Conn, win xproto.Window, prop, value string) bool {
	t.Helper()
	want := atom(t, c, value)
	r, err := xproto.GetProperty(c, false, win, atom(t, c, prop), xproto.AtomAtom, 0, 64).Reply()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+4 <= len(r.Value); i += 4 {
		if xproto.Atom(uint32(r.Value[i])|uint32(r.Value[i+1])<<8|uint32(r.Value[i+2])<<16|uint32(r.Value[i+3])<<24) == want {
			return true
		}
	}
	return false
}

// TestDesktopReduceMotion: the desktop's own setting (XSETTINGS
// Gtk/EnableAnimations 0, published by xsettingsd) holds a .petpack pet on
// idle's representative frame from its first frame; turning animations
// back on plays idle again.
func TestDesktopReduceMotion(t *testing.T) {
	x := startXvfb(t, 24)
	conf := filepath.Join(t.TempDir(), "xsettingsd.conf")
	if err := os.WriteFile(conf, []byte("Gtk/EnableAnimations 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xs := exec.Command("xsettingsd", "-c", conf)
	xs.Env = append(os.Environ(), "DISPLAY="+x.display)
	var out syncBuffer
	xs.Stdout, xs.Stderr = &out, &out
	if err := xs.Start(); err != nil {
		t.Fatalf("start xsettingsd (tools/bazel/setup.sh installs it): %v", err)
	}
	t.Cleanup(func() { xs.Process.Kill(); xs.Wait() })
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "Created window"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("xsettingsd did not start: %s", out.String())
		}
	}
	p := startPet(t, x.display, "--petpack", petpackPath)
	time.Sleep(500 * time.Millisecond)
	for _, l := range p.lines(t) {
		if l.Kind == "show" && l.Key != "idle/2" || l.Kind == "schedule" {
			t.Fatalf("under the desktop's Reduce Motion the pet traced %+v", l)
		}
	}
	n := len(p.lines(t))
	if err := os.WriteFile(conf, []byte("Gtk/EnableAnimations 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xs.Process.Signal(syscall.SIGHUP) // xsettingsd rereads its file
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		ls := p.lines(t)
		if len(ls) > n && ls[len(ls)-1].Kind == "schedule" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("animations back on scheduled nothing: %+v", ls[n:])
		}
	}
}

// TestLargeImage: an image of 600x400 (960,000 bytes of pixels, over the
// 262,140-byte request limit of a server without BIG-REQUESTS) arrives whole:
// the upload is split into requests under the limit.
func TestLargeImage(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 600, 400))
	for y := 0; y < 400; y++ {
		for x := 0; x < 600; x++ {
			o := y*img.Stride + 4*x
			img.Pix[o], img.Pix[o+1], img.Pix[o+2] = uint8(x), uint8(y), uint8(x^y)
			if (x/7+y/5)%3 != 0 {
				img.Pix[o+3] = 255
			}
		}
	}
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--runtime", writeRuntimeCopy(t, img), "--x", "0", "--y", "0")
	if d := diff(capture(t, c, p.window), fromNRGBA(img)); d != "" {
		t.Fatal(d)
	}
}

// TestRaise: an override-redirect pet covered by another window raises
// itself above it.
func TestRaise(t *testing.T) {
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--pack", packPath)
	screen := xproto.Setup(c).DefaultScreen(c)
	cover, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(c, screen.RootDepth, cover, screen.Root, 0, 0, 640, 480, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwOverrideRedirect, []uint32{1}).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.MapWindowChecked(c, cover).Check(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		tree, err := xproto.QueryTree(c, screen.Root).Reply()
		if err != nil {
			t.Fatal(err)
		}
		// Children are listed bottom to top.
		if top := tree.Children[len(tree.Children)-1]; top == p.window {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the covered pet did not raise itself in 5 s")
		}
	}
}
