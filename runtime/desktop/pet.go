// Package desktop shows a pet on a desktop: a shaped, borderless window
// that stays above the others and plays the pet exactly as authored. It
// turns the three forms a pet comes in (a PETP pack, a runtime copy of an
// asset set, a .petpack archive or library revision) into a Pet, which says
// what shows at a time and when that changes, and Run presents a Pet on a
// Backend's window, sleeping until the next change, an input or a command.
// The window system is behind Backend; runtime/desktop/x11 is the X11 one.
package desktop

import (
	"image"

	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/playback"
)

// A Pet says what it shows at a time and when that changes. Times are
// milliseconds since the pet appeared. A Pet is not safe for concurrent
// use; Run owns it.
type Pet interface {
	// Size is the canvas every image of the pet is drawn on.
	Size() (w, h int)
	// Show returns what is presented at t.
	Show(t int64) View
	// Next returns the next instant after t at which what is presented
	// changes without input, and false when nothing will (a held pose):
	// then no timer is armed at all.
	Next(t int64) (int64, bool)
	// Image returns the image of a View's Key, on the pet's canvas.
	Image(key string) (*image.NRGBA, error)
	// Command applies a control command at t. A command the pet's kind
	// does not take, or an unknown event, is an error naming it.
	Command(t int64, c Command) error
	// Pointer applies a pointer input at t.
	Pointer(t int64, in playback.Pointer) error
}

// View is one presented frame.
type View struct {
	// Key names the image; equal keys are equal images.
	Key string
	// Scale is the press-scale factor, 1 when the pet is not pressed.
	Scale float64
}

// Command is one control message (runtime/desktop/control): an Agent
// event, a role, bubble text or Reduce Motion; exactly one field is set.
// The event -> role table of pack and runtime-copy pets is control's
// (control.RoleForEvent).
type Command = control.Message
