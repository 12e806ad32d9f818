package desktop

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/agentpet/rules_pet/runtime/playback"
)

// Options configure Run.
type Options struct {
	// X, Y place the window's top-left corner.
	X, Y int
	// Scale is the integer pixel scale, 1 or more (nearest neighbour).
	Scale int
	// Managed asks the window manager to keep the window above (see
	// WindowOptions.Managed); otherwise it is override-redirect.
	Managed bool
	// Title names the window.
	Title string
	// ReduceMotion starts the pet with Reduce Motion on.
	ReduceMotion bool
	// Trace, when set, receives one JSON line per presented change and per
	// scheduled boundary, from the pet's own clock (see TraceLine).
	Trace io.Writer
	// FirstFrame, when set, runs once the first frame is on screen, before
	// the pet first sleeps.
	FirstFrame func()
	// Errors receives the reasons commands were refused; nil discards them.
	Errors io.Writer
}

// TraceLine is one line of Options.Trace. A "schedule" line says the pet
// armed its timer for DueMS at AtMS (no such line: nothing was due, the
// pet sleeps until an input); a "show" line says Key became visible at AtMS,
// which was due at DueMS (equal to AtMS for a change an input caused).
type TraceLine struct {
	// Kind is "show", "schedule", "first" (the first frame on screen,
	// acknowledged by a round trip) or "bubble" (Key is the bubble text,
	// "" when cleared; Window the bubble window).
	Kind string `json:"kind"`
	// AtMS is the pet's clock when the line was written.
	AtMS int64 `json:"at_ms"`
	// DueMS is the boundary the line is about.
	DueMS int64 `json:"due_ms"`
	// Key is the image shown (show lines), with "@" and the press scale
	// when pressed.
	Key string `json:"key,omitempty"`
	// Window is the pet window's ID (first line), for tests and tools
	// that look at it.
	Window uint32 `json:"window,omitempty"`
}

// dragThreshold is how far, in screen pixels, the pointer moves with the
// button down before a press becomes a drag.
const dragThreshold = 4

// raiseEvery bounds how often an override-redirect pet raises itself, so
// two such windows cannot fight over the top.
const raiseEvery = time.Second

// Run shows p on a window of b until the display goes away (a clean
// return) or a window operation fails. It never polls: it sleeps until the
// pet's next boundary (none for a held pose), a display event, or a
// command from cmds (nil for none).
func Run(b Backend, p Pet, cmds <-chan Command, opt Options) error {
	start := time.Now()
	now := func() int64 { return int64(time.Since(start) / time.Millisecond) }
	if opt.Scale < 1 {
		opt.Scale = 1
	}
	if opt.Errors == nil {
		opt.Errors = io.Discard
	}
	trace := func(l TraceLine) {
		if opt.Trace != nil {
			line, _ := json.Marshal(l)
			opt.Trace.Write(append(line, '\n'))
		}
	}
	if opt.ReduceMotion {
		on := true
		p.Command(0, Command{ReduceMotion: &on})
	}
	// Before a window exists the display can only have reported the
	// desktop's settings: apply them so the first frame already honours
	// them.
	for pending := true; pending; {
		select {
		case ev, ok := <-b.Events():
			if !ok || ev.Kind == EventClosed {
				return nil
			}
			if ev.Kind == EventReduceMotion {
				on := ev.ReduceMotion || opt.ReduceMotion
				p.Command(0, Command{ReduceMotion: &on})
			}
		default:
			pending = false
		}
	}
	w, h := p.Size()
	win, err := b.NewWindow(WindowOptions{X: opt.X, Y: opt.Y, Width: w * opt.Scale, Height: h * opt.Scale, Managed: opt.Managed, Title: opt.Title})
	if err != nil {
		return err
	}
	defer win.Close()
	shown := ""
	// Each image is rendered and uploaded once; later it only shows.
	uploaded := map[string]bool{}
	present := func(t, due int64) error {
		v := p.Show(t)
		key := v.Key
		if v.Scale != 1 {
			key += "@" + strconv.FormatFloat(v.Scale, 'f', -1, 64)
		}
		if key == shown {
			return nil
		}
		if !uploaded[key] {
			img, err := p.Image(v.Key)
			if err != nil {
				return err
			}
			if err := win.Upload(key, Render(img, v.Scale, opt.Scale)); err != nil {
				return err
			}
			uploaded[key] = true
		}
		if err := win.Show(key); err != nil {
			return err
		}
		shown = key
		trace(TraceLine{Kind: "show", AtMS: t, DueMS: due, Key: key})
		return nil
	}
	if err := present(0, 0); err != nil {
		return err
	}
	if err := win.Map(); err != nil {
		return err
	}
	if err := b.Sync(); err != nil {
		return err
	}
	trace(TraceLine{Kind: "first", AtMS: now(), Window: win.ID()})
	if opt.FirstFrame != nil {
		opt.FirstFrame()
	}

	// The bubble: a second small window above the pet (.petpack pets).
	var bubble Window
	var bubbleW, bubbleH int
	placeBubble := func(x, y int) {
		if bubble != nil {
			bubble.Move(x+(w*opt.Scale-bubbleW)/2, y-bubbleH-4)
		}
	}
	setBubble := func(text string, x, y int) error {
		if bubble != nil {
			bubble.Close()
			bubble = nil
		}
		if text == "" {
			return nil
		}
		img := RenderBubble(text)
		bubbleW, bubbleH = img.Rect.Dx(), img.Rect.Dy()
		bw, err := b.NewWindow(WindowOptions{X: x + (w*opt.Scale-bubbleW)/2, Y: y - bubbleH - 4, Width: bubbleW, Height: bubbleH, Managed: opt.Managed, Title: opt.Title + " bubble"})
		if err != nil {
			return err
		}
		bubble = bw
		if err := bw.Upload("bubble", img); err != nil {
			return err
		}
		if err := bw.Show("bubble"); err != nil {
			return err
		}
		return bw.Map()
	}
	defer func() {
		if bubble != nil {
			bubble.Close()
		}
	}()

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var timerC <-chan time.Time
	var due int64
	x, y := opt.X, opt.Y
	var (
		pressed        bool
		dragging       bool
		pressX, pressY int
		winX0, winY0   int
		lastX          int
		lastRaise      time.Time
		raiseC         <-chan time.Time
		events         = b.Events()
		reschedule     = true
		pointer        = func(in playback.Pointer) { p.Pointer(now(), in) }
	)
	for {
		if reschedule {
			t := now()
			next, ok := p.Next(t)
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timerC = nil
			if ok {
				due = next
				timer.Reset(time.Duration(next-t) * time.Millisecond)
				timerC = timer.C
				trace(TraceLine{Kind: "schedule", AtMS: t, DueMS: next})
			}
			reschedule = false
		}
		select {
		case <-timerC:
			timerC = nil
			if err := present(now(), due); err != nil {
				return err
			}
			reschedule = true
		case <-raiseC:
			raiseC = nil
			lastRaise = time.Now()
			win.Raise()
		case c, ok := <-cmds:
			if !ok {
				cmds = nil
				continue
			}
			t := now()
			if err := p.Command(t, c); err != nil {
				fmt.Fprintf(opt.Errors, "petdesk: refused: %v\n", err)
				continue
			}
			if c.Bubble != nil {
				if err := setBubble(*c.Bubble, x, y); err != nil {
					return err
				}
				trace(TraceLine{Kind: "bubble", AtMS: t, DueMS: t, Key: *c.Bubble, Window: bubbleID(bubble)})
			}
			if err := present(t, t); err != nil {
				return err
			}
			reschedule = true
		case ev, ok := <-events:
			if !ok || ev.Kind == EventClosed {
				return nil
			}
			switch ev.Kind {
			case EventObscured:
				if opt.Managed || raiseC != nil {
					continue
				}
				if wait := raiseEvery - time.Since(lastRaise); wait > 0 {
					raiseC = time.NewTimer(wait).C
					continue
				}
				lastRaise = time.Now()
				win.Raise()
				continue
			case EventButtonPress:
				pressed, dragging = true, false
				pressX, pressY, lastX = ev.RootX, ev.RootY, ev.RootX
				winX0, winY0 = x, y
				pointer(playback.PointerDown)
			case EventMotion:
				if !pressed {
					continue
				}
				dx, dy := ev.RootX-pressX, ev.RootY-pressY
				if !dragging && dx*dx+dy*dy < dragThreshold*dragThreshold {
					continue
				}
				x, y = winX0+dx, winY0+dy
				win.Move(x, y)
				placeBubble(x, y)
				switch {
				case ev.RootX < lastX:
					pointer(playback.PointerDragLeft)
				case ev.RootX > lastX:
					pointer(playback.PointerDragRight)
				case !dragging:
					pointer(playback.PointerDragRight)
				}
				dragging = true
				lastX = ev.RootX
			case EventButtonRelease:
				if !pressed {
					continue
				}
				pressed = false
				if dragging {
					pointer(playback.PointerDragEnd)
					pointer(playback.PointerUp)
				} else {
					pointer(playback.PointerUp)
					pointer(playback.PointerClick)
				}
				dragging = false
			case EventReduceMotion:
				// The desktop's setting; --reduce-motion keeps it on.
				on := ev.ReduceMotion || opt.ReduceMotion
				p.Command(now(), Command{ReduceMotion: &on})
			}
			t := now()
			if err := present(t, t); err != nil {
				return err
			}
			reschedule = true
		}
	}
}

// bubbleID is the bubble window's ID, 0 for none.
func bubbleID(w Window) uint32 {
	if w == nil {
		return 0
	}
	return w.ID()
}
