package x11

import (
	"encoding/binary"
	"fmt"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/jezek/xgb/xproto"
)

// The desktop's Reduce Motion setting, as an XSETTINGS manager (GNOME's
// settings daemon, xsettingsd) publishes it: Gtk/EnableAnimations 0 means
// reduce motion. The manager owns the selection _XSETTINGS_S<screen> and
// keeps the settings in the _XSETTINGS_SETTINGS property of its window.

// watchSettings finds the XSETTINGS manager, if any, asks for its property
// changes and returns its window and the settings atom (0, 0 for none).
func (b *Backend) watchSettings(screen int) (xproto.Window, xproto.Atom) {
	sel, err := b.atom(fmt.Sprintf("_XSETTINGS_S%d", screen))
	if err != nil {
		return 0, 0
	}
	prop, err := b.atom("_XSETTINGS_SETTINGS")
	if err != nil {
		return 0, 0
	}
	r, err := xproto.GetSelectionOwner(b.conn, sel).Reply()
	if err != nil || r.Owner == 0 {
		return 0, 0
	}
	xproto.ChangeWindowAttributes(b.conn, r.Owner, xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange})
	return r.Owner, prop
}

// enableAnimations reads Gtk/EnableAnimations from the manager's window:
// its value and whether it is set at all.
func (b *Backend) enableAnimations() (on, ok bool) {
	if b.settingsOwner == 0 {
		return false, false
	}
	r, err := xproto.GetProperty(b.conn, false, b.settingsOwner, b.settingsAtom, xproto.GetPropertyTypeAny, 0, 1<<16).Reply()
	if err != nil {
		return false, false
	}
	v, ok := settingInt(r.Value, "Gtk/EnableAnimations")
	return v != 0, ok
}

// settingInt finds an integer setting in _XSETTINGS_SETTINGS data.
func settingInt(data []byte, name string) (int32, bool) {
	if len(data) < 12 {
		return 0, false
	}
	var order binary.ByteOrder = binary.LittleEndian
	if data[0] == 1 {
		order = binary.BigEndian
	}
	n := int(order.Uint32(data[8:]))
	p := 12
	pad := func(x int) int { return (x + 3) &^ 3 }
	for i := 0; i < n; i++ {
		if p+4 > len(data) {
			return 0, false
		}
		typ, nameLen := data[p], int(order.Uint16(data[p+2:]))
		p += 4
		if p+pad(nameLen)+4 > len(data) {
			return 0, false
		}
		key := string(data[p : p+nameLen])
		p += pad(nameLen) + 4 // the name, then the last-change serial
		switch typ {
		case 0: // integer
			if p+4 > len(data) {
				return 0, false
			}
			if key == name {
				return int32(order.Uint32(data[p:])), true
			}
			p += 4
		case 1: // string
			if p+4 > len(data) {
				return 0, false
			}
			p += 4 + pad(int(order.Uint32(data[p:])))
		case 2: // colour: four CARD16
			p += 8
		default:
			return 0, false
		}
	}
	return 0, false
}

// reportSettings sends the desktop's Reduce Motion setting when the
// manager publishes one.
func (b *Backend) reportSettings() {
	if on, ok := b.enableAnimations(); ok {
		b.events <- desktop.Event{Kind: desktop.EventReduceMotion, ReduceMotion: !on}
	}
}
