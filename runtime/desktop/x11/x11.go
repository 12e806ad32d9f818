// Package x11 is the X11 window backend of runtime/desktop, through the
// pure-Go X client github.com/jezek/xgb: no cgo, no toolkit, no GL. A window
// is borderless, shaped by the X Shape extension to the pixels its image
// shows, and painted from a server-side pixmap per uploaded image (the
// window's background), so the X server repaints it when it is uncovered and
// switching frames sends no pixels.
package x11

import (
	"errors"
	"fmt"
	"image"
	"io"
	"log"
	"os"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// ErrNoDisplay is returned by Open when DISPLAY is unset and none is given.
var ErrNoDisplay = errors.New("no X display: DISPLAY is not set")

// Backend is a connection to one X server's default screen.
type Backend struct {
	conn   *xgb.Conn
	screen *xproto.ScreenInfo
	depth  byte
	visual xproto.Visualid
	bpp    int  // bits per pixel of ZPixmap images at depth
	msb    bool // image byte order is MSB first
	// maxPut is the most pixel bytes one PutImage request may carry.
	maxPut int
	events chan desktop.Event

	// The XSETTINGS manager's window and settings property, 0 for none.
	settingsOwner xproto.Window
	settingsAtom  xproto.Atom
}

// Open connects to display (":N"; DISPLAY when empty), checks that the
// default visual is a 24- or 32-bit TrueColor one, and initialises the Shape
// extension. Every failure says which of these it was.
func Open(display string) (*Backend, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	if display == "" {
		return nil, ErrNoDisplay
	}
	// xgb logs connection errors itself; the pet reports them as events.
	xgb.Logger = log.New(io.Discard, "", 0)
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("X display %s: cannot connect: %w", display, err)
	}
	b, err := setup(conn, display)
	if err != nil {
		conn.Close()
		return nil, err
	}
	b.settingsOwner, b.settingsAtom = b.watchSettings(conn.DefaultScreen)
	b.reportSettings()
	go b.read()
	return b, nil
}

func setup(conn *xgb.Conn, display string) (*Backend, error) {
	info := xproto.Setup(conn)
	screen := info.DefaultScreen(conn)
	b := &Backend{conn: conn, screen: screen, depth: screen.RootDepth, visual: screen.RootVisual,
		msb: info.ImageByteOrder == xproto.ImageOrderMSBFirst, events: make(chan desktop.Event, 64)}
	var class byte = 255
	for _, d := range screen.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId == screen.RootVisual && d.Depth == screen.RootDepth {
				class = v.Class
				if v.RedMask != 0xff0000 || v.GreenMask != 0xff00 || v.BlueMask != 0xff {
					class = 254
				}
			}
		}
	}
	if (b.depth != 24 && b.depth != 32) || class != xproto.VisualClassTrueColor {
		return nil, fmt.Errorf("X display %s: the default visual is %d-bit %s; the pet needs a 24- or 32-bit TrueColor visual with 8-bit red, green and blue", display, b.depth, className(class))
	}
	for _, f := range info.PixmapFormats {
		if f.Depth == b.depth {
			b.bpp = int(f.BitsPerPixel)
		}
	}
	if b.bpp != 32 {
		return nil, fmt.Errorf("X display %s: depth %d images use %d bits per pixel; the pet needs 32", display, b.depth, b.bpp)
	}
	// The request length is in 4-byte units; PutImage's header is 24 bytes.
	b.maxPut = int(info.MaximumRequestLength)*4 - 24
	if err := shape.Init(conn); err != nil {
		return nil, fmt.Errorf("X display %s: the Shape extension is missing: %w", display, err)
	}
	return b, nil
}

func className(c byte) string {
	switch c {
	case xproto.VisualClassStaticGray:
		return "StaticGray"
	case xproto.VisualClassGrayScale:
		return "GrayScale"
	case xproto.VisualClassStaticColor:
		return "StaticColor"
	case xproto.VisualClassPseudoColor:
		return "PseudoColor"
	case xproto.VisualClassTrueColor:
		return "TrueColor (not 8-8-8)"
	case xproto.VisualClassDirectColor:
		return "DirectColor"
	}
	return "unknown-class"
}

// Conn is the X connection, for tests that read the screen back.
func (b *Backend) Conn() *xgb.Conn { return b.conn }

// Events implements desktop.Backend.
func (b *Backend) Events() <-chan desktop.Event { return b.events }

// read turns X events into desktop events until the connection ends.
func (b *Backend) read() {
	defer close(b.events)
	for {
		ev, xerr := b.conn.WaitForEvent()
		if ev == nil && xerr == nil {
			b.events <- desktop.Event{Kind: desktop.EventClosed, Err: errors.New("the X server closed the connection")}
			return
		}
		if xerr != nil {
			// An asynchronous request error: the pet's own requests are
			// checked where it matters, so this one only gets reported.
			fmt.Fprintf(os.Stderr, "petdesk: X error: %v\n", xerr)
			continue
		}
		switch e := ev.(type) {
		case xproto.ButtonPressEvent:
			if e.Detail == 1 {
				b.events <- desktop.Event{Kind: desktop.EventButtonPress, Window: uint32(e.Event), RootX: int(e.RootX), RootY: int(e.RootY)}
			}
		case xproto.ButtonReleaseEvent:
			if e.Detail == 1 {
				b.events <- desktop.Event{Kind: desktop.EventButtonRelease, Window: uint32(e.Event), RootX: int(e.RootX), RootY: int(e.RootY)}
			}
		case xproto.MotionNotifyEvent:
			b.events <- desktop.Event{Kind: desktop.EventMotion, Window: uint32(e.Event), RootX: int(e.RootX), RootY: int(e.RootY)}
		case xproto.PropertyNotifyEvent:
			if e.Window == b.settingsOwner && e.Atom == b.settingsAtom {
				b.reportSettings()
			}
		case xproto.VisibilityNotifyEvent:
			if e.State != xproto.VisibilityUnobscured {
				b.events <- desktop.Event{Kind: desktop.EventObscured, Window: uint32(e.Window)}
			}
		}
	}
}

// Sync implements desktop.Backend with a GetInputFocus round trip.
func (b *Backend) Sync() error {
	_, err := xproto.GetInputFocus(b.conn).Reply()
	return err
}

// Close implements desktop.Backend.
func (b *Backend) Close() error {
	b.conn.Close()
	return nil
}

// Window is one X window of the backend.
type Window struct {
	b       *Backend
	id      xproto.Window
	gc      xproto.Gcontext
	w, h    int
	pixmaps map[string]xproto.Pixmap
	shapes  map[string][]xproto.Rectangle
}

// NewWindow implements desktop.Backend.
func (b *Backend) NewWindow(opt desktop.WindowOptions) (desktop.Window, error) {
	if opt.Width < 1 || opt.Height < 1 || opt.Width > 32767 || opt.Height > 32767 {
		return nil, fmt.Errorf("window size %dx%d is outside 1 to 32767", opt.Width, opt.Height)
	}
	wid, err := xproto.NewWindowId(b.conn)
	if err != nil {
		return nil, fmt.Errorf("new window id: %w", err)
	}
	mask := uint32(xproto.CwBackPixel | xproto.CwBorderPixel | xproto.CwEventMask)
	vals := []uint32{0, 0}
	if !opt.Managed {
		mask |= xproto.CwOverrideRedirect
		vals = append(vals, 1)
	}
	vals = append(vals, xproto.EventMaskButtonPress|xproto.EventMaskButtonRelease|
		xproto.EventMaskButtonMotion|xproto.EventMaskVisibilityChange)
	err = xproto.CreateWindowChecked(b.conn, b.depth, wid, b.screen.Root,
		int16(opt.X), int16(opt.Y), uint16(opt.Width), uint16(opt.Height), 0,
		xproto.WindowClassInputOutput, b.visual, mask, vals).Check()
	if err != nil {
		return nil, fmt.Errorf("create window: %w", err)
	}
	gc, err := xproto.NewGcontextId(b.conn)
	if err != nil {
		return nil, fmt.Errorf("new graphics context id: %w", err)
	}
	if err := xproto.CreateGCChecked(b.conn, gc, xproto.Drawable(wid), 0, nil).Check(); err != nil {
		return nil, fmt.Errorf("create graphics context: %w", err)
	}
	w := &Window{b: b, id: wid, gc: gc, w: opt.Width, h: opt.Height,
		pixmaps: map[string]xproto.Pixmap{}, shapes: map[string][]xproto.Rectangle{}}
	if err := w.properties(opt); err != nil {
		return nil, err
	}
	// Nothing is shown until the first image: an empty shape.
	shape.Rectangles(b.conn, shape.SoSet, shape.SkBounding, xproto.ClipOrderingUnsorted, wid, 0, 0, nil)
	return w, nil
}

func (b *Backend) atom(name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(b.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("intern atom %s: %w", name, err)
	}
	return r.Atom, nil
}

// properties sets the title and, for a managed window, the hints that keep
// it above, undecorated and where the pet put it.
func (w *Window) properties(opt desktop.WindowOptions) error {
	c := w.b.conn
	xproto.ChangeProperty(c, xproto.PropModeReplace, w.id, xproto.AtomWmName, xproto.AtomString, 8, uint32(len(opt.Title)), []byte(opt.Title))
	class := []byte("petdesk\x00petdesk\x00")
	xproto.ChangeProperty(c, xproto.PropModeReplace, w.id, xproto.AtomWmClass, xproto.AtomString, 8, uint32(len(class)), class)
	if !opt.Managed {
		return nil
	}
	state, err := w.b.atom("_NET_WM_STATE")
	if err != nil {
		return err
	}
	above, err := w.b.atom("_NET_WM_STATE_ABOVE")
	if err != nil {
		return err
	}
	xproto.ChangeProperty(c, xproto.PropModeReplace, w.id, state, xproto.AtomAtom, 32, 1, u32s(uint32(above)))
	motif, err := w.b.atom("_MOTIF_WM_HINTS")
	if err != nil {
		return err
	}
	// flags = MWM_HINTS_DECORATIONS, decorations = 0.
	xproto.ChangeProperty(c, xproto.PropModeReplace, w.id, motif, motif, 32, 5, u32s(2, 0, 0, 0, 0))
	// WM_NORMAL_HINTS: USPosition|USSize|PMinSize|PMaxSize, fixed size.
	hints := make([]uint32, 18)
	hints[0] = 1 | 2 | 16 | 32
	hints[1], hints[2], hints[3], hints[4] = uint32(opt.X), uint32(opt.Y), uint32(opt.Width), uint32(opt.Height)
	hints[5], hints[6], hints[7], hints[8] = uint32(opt.Width), uint32(opt.Height), uint32(opt.Width), uint32(opt.Height)
	xproto.ChangeProperty(c, xproto.PropModeReplace, w.id, xproto.AtomWmNormalHints, xproto.AtomWmSizeHints, 32, uint32(len(hints)), u32s(hints...))
	return nil
}

func u32s(v ...uint32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		xgb.Put32(out[4*i:], x)
	}
	return out
}

// ID implements desktop.Window.
func (w *Window) ID() uint32 { return uint32(w.id) }

// Upload implements desktop.Window: the image goes into a pixmap of the
// window's size (transparent pixels black, outside the shape anyway), in
// PutImage requests of whole rows that each stay under the server's
// request size limit; its shape is kept as row runs.
func (w *Window) Upload(key string, img *image.NRGBA) error {
	if _, ok := w.pixmaps[key]; ok {
		return nil
	}
	b := img.Bounds()
	if b.Dx() != w.w || b.Dy() != w.h {
		return fmt.Errorf("image %s is %dx%d, the window %dx%d", key, b.Dx(), b.Dy(), w.w, w.h)
	}
	pid, err := xproto.NewPixmapId(w.b.conn)
	if err != nil {
		return fmt.Errorf("new pixmap id: %w", err)
	}
	if err := xproto.CreatePixmapChecked(w.b.conn, w.b.depth, pid, xproto.Drawable(w.id), uint16(w.w), uint16(w.h)).Check(); err != nil {
		return fmt.Errorf("create pixmap: %w", err)
	}
	rowBytes := 4 * w.w
	rows := w.b.maxPut / rowBytes
	if rows < 1 {
		return fmt.Errorf("image %s: one row of %d bytes exceeds the X request size limit", key, rowBytes)
	}
	buf := make([]byte, rowBytes*minInt(rows, w.h))
	for y0 := 0; y0 < w.h; y0 += rows {
		n := minInt(rows, w.h-y0)
		data := buf[:n*rowBytes]
		for y := 0; y < n; y++ {
			src := img.Pix[(y0+y)*img.Stride : (y0+y)*img.Stride+rowBytes]
			dst := data[y*rowBytes : (y+1)*rowBytes]
			for x := 0; x < w.w; x++ {
				r, g, bl, a := src[4*x], src[4*x+1], src[4*x+2], src[4*x+3]
				if a < 128 {
					r, g, bl = 0, 0, 0
				}
				if w.b.msb {
					dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = 0, r, g, bl
				} else {
					dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = bl, g, r, 0
				}
			}
		}
		xproto.PutImage(w.b.conn, xproto.ImageFormatZPixmap, xproto.Drawable(pid), w.gc,
			uint16(w.w), uint16(n), 0, int16(y0), 0, w.b.depth, data)
	}
	w.pixmaps[key] = pid
	w.shapes[key] = Runs(img)
	return nil
}

// Runs returns the shown pixels of img (alpha 128 or more) as one
// rectangle per horizontal run of each row, top to bottom, left to right.
func Runs(img *image.NRGBA) []xproto.Rectangle {
	b := img.Bounds()
	var out []xproto.Rectangle
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < b.Dx(); {
			if row[4*x+3] < 128 {
				x++
				continue
			}
			x0 := x
			for x < b.Dx() && row[4*x+3] >= 128 {
				x++
			}
			out = append(out, xproto.Rectangle{X: int16(x0), Y: int16(y), Width: uint16(x - x0), Height: 1})
		}
	}
	return out
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Show implements desktop.Window: the pixmap becomes the background, the
// shape follows, and the window is repainted.
func (w *Window) Show(key string) error {
	pid, ok := w.pixmaps[key]
	if !ok {
		return fmt.Errorf("image %s was not uploaded", key)
	}
	c := w.b.conn
	xproto.ChangeWindowAttributes(c, w.id, xproto.CwBackPixmap, []uint32{uint32(pid)})
	rects := w.shapes[key]
	// One Rectangles request holds at most (max request - 16 bytes) / 8.
	per := (w.b.maxPut + 24 - 16) / 8
	op := shape.Op(shape.SoSet)
	if len(rects) == 0 {
		shape.Rectangles(c, shape.SoSet, shape.SkBounding, xproto.ClipOrderingYXSorted, w.id, 0, 0, nil)
	}
	for i := 0; i < len(rects); i += per {
		shape.Rectangles(c, op, shape.SkBounding, xproto.ClipOrderingYXSorted, w.id, 0, 0, rects[i:minInt(i+per, len(rects))])
		op = shape.SoUnion
	}
	xproto.ClearArea(c, false, w.id, 0, 0, 0, 0)
	return nil
}

// Map implements desktop.Window.
func (w *Window) Map() error {
	return xproto.MapWindowChecked(w.b.conn, w.id).Check()
}

// Move implements desktop.Window.
func (w *Window) Move(x, y int) error {
	xproto.ConfigureWindow(w.b.conn, w.id, xproto.ConfigWindowX|xproto.ConfigWindowY, []uint32{uint32(int32(x)), uint32(int32(y))})
	return nil
}

// Raise implements desktop.Window.
func (w *Window) Raise() error {
	xproto.ConfigureWindow(w.b.conn, w.id, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove})
	return nil
}

// Close implements desktop.Window.
func (w *Window) Close() error {
	for _, p := range w.pixmaps {
		xproto.FreePixmap(w.b.conn, p)
	}
	xproto.FreeGC(w.b.conn, w.gc)
	xproto.DestroyWindow(w.b.conn, w.id)
	return nil
}
