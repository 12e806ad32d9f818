package x11

import (
	"encoding/binary"
	"testing"
)

// settings builds _XSETTINGS_SETTINGS data: a string, a colour, then the
// integer name = value, in the given byte order.
func settings(order binary.ByteOrder, name string, value int32) []byte {
	pad := func(b []byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	u16 := func(v uint16) []byte { b := make([]byte, 2); order.PutUint16(b, v); return b }
	u32 := func(v uint32) []byte { b := make([]byte, 4); order.PutUint32(b, v); return b }
	head := []byte{0, 0, 0, 0}
	if order == binary.BigEndian {
		head[0] = 1
	}
	out := append(head, u32(7)...)
	out = append(out, u32(3)...)
	entry := func(typ byte, key string, value []byte) {
		out = append(out, typ, 0)
		out = append(out, u16(uint16(len(key)))...)
		out = append(out, pad([]byte(key))...)
		out = append(out, u32(1)...)
		out = append(out, value...)
	}
	entry(1, "Net/ThemeName", append(u32(5), pad([]byte("Adwai"))...))
	entry(2, "Gtk/Color", make([]byte, 8))
	entry(0, name, u32(uint32(value)))
	return out
}

func TestSettingInt(t *testing.T) {
	for _, tc := range []struct {
		data   []byte
		want   int32
		wantOK bool
	}{
		{settings(binary.LittleEndian, "Gtk/EnableAnimations", 0), 0, true},
		{settings(binary.BigEndian, "Gtk/EnableAnimations", 1), 1, true},
		{settings(binary.LittleEndian, "Gtk/CursorBlink", 1), 0, false},
		{settings(binary.LittleEndian, "Gtk/EnableAnimations", 1)[:40], 0, false}, // truncated
		{nil, 0, false},
	} {
		got, ok := settingInt(tc.data, "Gtk/EnableAnimations")
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("settingInt(%x) = %d, %v; want %d, %v", tc.data, got, ok, tc.want, tc.wantOK)
		}
	}
}
