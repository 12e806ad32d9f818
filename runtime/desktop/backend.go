package desktop

import "image"

// Backend is the window system a pet is shown on: the only part of this
// package that knows one. The X11 backend (runtime/desktop/x11) is the one
// there is; a Cocoa or Win32 backend implements the same few calls.
type Backend interface {
	// NewWindow creates an unmapped window of the given size at (x, y).
	NewWindow(opt WindowOptions) (Window, error)
	// Events delivers pointer, visibility and connection events of every
	// window the backend made. It is closed when the display goes away.
	Events() <-chan Event
	// Sync returns once the display has processed every request sent so
	// far (a round trip): what was put is on screen.
	Sync() error
	// Close releases the connection.
	Close() error
}

// WindowOptions says how a window is placed and managed.
type WindowOptions struct {
	// X, Y is the top-left corner on the screen; Width, Height the size.
	X, Y, Width, Height int
	// Managed asks the window manager to keep the window above others
	// (_NET_WM_STATE_ABOVE) without decorations, at the user position.
	// Otherwise the window is override-redirect: unmanaged, undecorated,
	// raised by the pet itself when covered.
	Managed bool
	// Title names the window for the window manager and for tests.
	Title string
}

// Window is one shaped, borderless window.
type Window interface {
	// ID identifies the window in Events (and, for X11, is its XID).
	ID() uint32
	// Upload keeps img on the display side under key, so Show of an image
	// already uploaded sends no pixels. A pixel is shown when its alpha is
	// 128 or more, with its RGB; the shape is the shown pixels.
	Upload(key string, img *image.NRGBA) error
	// Show presents an uploaded image and the shape of its shown pixels.
	Show(key string) error
	// Map puts the window on screen.
	Map() error
	// Move places the top-left corner at (x, y).
	Move(x, y int) error
	// Raise puts the window above its siblings.
	Raise() error
	// Close destroys the window and what was uploaded for it.
	Close() error
}

// EventKind says what an Event reports.
type EventKind int

// The events a backend reports.
const (
	// EventButtonPress: the primary button went down on the window at
	// root position (RootX, RootY).
	EventButtonPress EventKind = iota + 1
	// EventButtonRelease: the primary button went up.
	EventButtonRelease
	// EventMotion: the pointer moved with the primary button down.
	EventMotion
	// EventObscured: the window is now partly or fully covered.
	EventObscured
	// EventReduceMotion: the desktop's animation setting changed;
	// ReduceMotion holds the new value.
	EventReduceMotion
	// EventClosed: the display connection ended; Err says why.
	EventClosed
)

// Event is one input or state change from the display.
type Event struct {
	// Kind is what happened.
	Kind EventKind
	// Window is the ID of the window it happened to, 0 for none.
	Window uint32
	// RootX, RootY is the pointer position on the screen.
	RootX, RootY int
	// ReduceMotion is the desktop setting of an EventReduceMotion.
	ReduceMotion bool
	// Err is why an EventClosed connection ended.
	Err error
}
