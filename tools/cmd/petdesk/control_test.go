package main

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/jezek/xgb/xproto"
)

// controlDir gives the test's pets and its own Send a runtime directory of
// their own.
func controlDir(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", dir)
}

func send(t *testing.T, id string, m control.Message) {
	t.Helper()
	if err := control.Send(id, m); err != nil {
		t.Fatalf("send %+v to %s: %v", m, id, err)
	}
}

// TestEventSettles: an Agent event reaches a .petpack pet, which plays the
// burst and settles; the settle pose is held without a wake-up.
func TestEventSettles(t *testing.T) {
	controlDir(t)
	x := startXvfb(t, 24)
	p := startPet(t, x.display, "--petpack", petpackPath, "--id", "tabby")
	send(t, "tabby", control.EventMessage("failed"))
	// Three passes (entry_repeat_count), each ending on frame 7, the
	// settle frame, which then holds.
	i := p.waitShow(t, 0, "failed/7")
	i = p.waitShow(t, i+1, "failed/7")
	p.waitShow(t, i+1, "failed/7")
	if n := quietFor(t, p, false); n != 0 {
		t.Fatalf("the settle pose was woken %d times in 10 s", n)
	}
}

// TestUnchangedRole: selecting the role already presented does not
// restart its animation; another role starts at its first frame.
func TestUnchangedRole(t *testing.T) {
	controlDir(t)
	x := startXvfb(t, 24)
	p := startPet(t, x.display, "--pack", packPath, "--role", "expression_happy", "--id", "pack")
	time.Sleep(450 * time.Millisecond)
	send(t, "pack", control.RoleMessage("expression_happy"))
	time.Sleep(500 * time.Millisecond)
	// Not restarted: every boundary armed is still on the role's 300 ms
	// grid from the first frame, and every frame shown is the one that
	// grid has due then. (A command handled after a boundary whose timer
	// has not fired yet, as on a busy machine, shows that boundary's frame
	// with its own time as due: a show's due time alone says nothing.)
	for _, l := range p.lines(t) {
		if l.Kind == "schedule" && l.DueMS%300 != 0 {
			t.Fatalf("the unchanged role restarted: %+v is off the 300 ms grid", l)
		}
		if l.Kind == "show" && l.Key != happyDue(l.AtMS) {
			t.Fatalf("the unchanged role restarted: %+v, while the grid has %s due", l, happyDue(l.AtMS))
		}
	}
	n := len(p.lines(t))
	send(t, "pack", control.RoleMessage("activity_curious"))
	p.waitShow(t, n, "sprite_curious")
}

// TestControlGarbage: garbage, an oversized line and a half-sent line
// never stop the pet, which then still takes a valid message.
func TestControlGarbage(t *testing.T) {
	controlDir(t)
	x := startXvfb(t, 24)
	p := startPet(t, x.display, "--petpack", petpackPath, "--id", "tabby")
	dir, err := control.Dir()
	if err != nil {
		t.Fatal(err)
	}
	for _, junk := range []string{
		"{not json\n",
		`{"event":"dance"}` + "\n",
		strings.Repeat("x", 10*control.MaxLineBytes) + "\n",
		`{"event":"thin`, // then the client goes away mid-line
	} {
		c, err := net.Dial("unix", dir+"/tabby.sock")
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(junk))
		c.Close()
	}
	send(t, "tabby", control.EventMessage("thinking"))
	p.waitShow(t, 0, "thinking/")
	select {
	case <-p.done:
		t.Fatalf("the pet exited: %s", p.stderr.String())
	default:
	}
}

// TestSecondPet: a second pet with the same ID gets a socket of its own and
// the first keeps its socket and its messages.
func TestSecondPet(t *testing.T) {
	controlDir(t)
	x := startXvfb(t, 24)
	first := startPet(t, x.display, "--petpack", petpackPath, "--id", "tabby")
	second := startPet(t, x.display, "--petpack", petpackPath, "--id", "tabby", "--x", "300")
	if !strings.Contains(second.stderr.String(), "tabby.2.sock") {
		t.Fatalf("the second pet's socket: %s", second.stderr.String())
	}
	send(t, "tabby", control.EventMessage("tool"))
	send(t, "tabby.2", control.EventMessage("done"))
	first.waitShow(t, 0, "tool/")
	second.waitShow(t, 0, "done/")
	for _, l := range first.lines(t) {
		if strings.HasPrefix(l.Key, "done/") {
			t.Fatalf("the first pet got the second's message: %+v", l)
		}
	}
}

// TestBubble: bubble text shows in a second window above the pet; while it
// shows, a pointer-down gives no press response; clearing removes it.
func TestBubble(t *testing.T) {
	controlDir(t)
	x := startXvfb(t, 24)
	c := x.connect(t)
	p := startPet(t, x.display, "--petpack", petpackPath, "--id", "tabby", "--y", "200")
	send(t, "tabby", control.BubbleMessage("Build green"))
	var bubble xproto.Window
	for deadline := time.Now().Add(5 * time.Second); bubble == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, l := range p.lines(t) {
			if l.Kind == "bubble" && l.Key == "Build green" {
				bubble = xproto.Window(l.Window)
			}
		}
	}
	if bubble == 0 {
		t.Fatalf("no bubble window: %+v", p.lines(t))
	}
	if _, err := xproto.GetInputFocus(c).Reply(); err != nil {
		t.Fatal(err)
	}
	g, err := xproto.GetGeometry(c, xproto.Drawable(bubble)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	if int(g.Y)+int(g.Height) > 200 {
		t.Fatalf("the bubble (%+v) is not above the pet at y=200", g)
	}
	pic := capture(t, c, bubble)
	dark, white := 0, 0
	for i, s := range pic.shown {
		if !s {
			t.Fatalf("bubble pixel %d is outside its shape", i)
		}
		switch pic.rgb[i] {
		case [3]uint8{0, 0, 0}:
			dark++
		case [3]uint8{0xff, 0xff, 0xff}:
			white++
		}
	}
	if dark < 20 || white < dark {
		t.Fatalf("the bubble holds %d text and %d paper pixels", dark, white)
	}
	px, py := shownPoint(t, capture(t, c, p.window), petX, 200)
	n := len(p.lines(t))
	xdotool(t, x.display, "mousemove", strconv.Itoa(px), strconv.Itoa(py), "mousedown", "1")
	time.Sleep(300 * time.Millisecond)
	xdotool(t, x.display, "mouseup", "1")
	for _, l := range p.lines(t)[n:] {
		if strings.Contains(l.Key, "@") {
			t.Fatalf("a press with a bubble shown scaled the pet: %+v", l)
		}
	}
	send(t, "tabby", control.ClearBubble())
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := xproto.GetGeometry(c, xproto.Drawable(bubble)).Reply(); err != nil {
			break // the window is gone
		}
		if time.Now().After(deadline) {
			t.Fatal("the cleared bubble's window still exists")
		}
	}
}
