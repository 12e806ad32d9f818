package ziptest

import (
	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// Zip64Entries are the entries as Zip64 writers store them: every local
// header with 0xFFFFFFFF sizes and a Zip64 extra field holding both (what
// Python's zipfile writes with force_zip64); with central, every central
// record with its uncompressed size a placeholder and an 8-byte Zip64
// extra field holding it (what Info-ZIP's zip -fz writes). edit, when
// set, changes entry i after.
func Zip64Entries(entries []Entry, central bool, edit func(i int, e *Entry)) []Entry {
	es := append([]Entry(nil), entries...)
	for i := range es {
		e := &es[i]
		comp := e.Data
		if e.Method == strictzip.Deflate {
			comp = Deflate(e.Data)
		}
		e.Comp = comp
		x := make([]byte, 20)
		Put16(x, zipspec.ExtraZip64)
		Put16(x[2:], 16)
		Put64(x[4:], uint64(len(e.Data)))
		Put64(x[12:], uint64(len(comp)))
		e.LocalExtra = x
		e.Local = func(h []byte) { Put32(h[18:], 0xffffffff); Put32(h[22:], 0xffffffff) }
		if central {
			cx := make([]byte, 12)
			Put16(cx, zipspec.ExtraZip64)
			Put16(cx[2:], 8)
			Put64(cx[4:], uint64(len(e.Data)))
			e.Extra = cx
			e.Central = func(h []byte) { Put32(h[24:], 0xffffffff) }
		}
		if edit != nil {
			edit(i, e)
		}
	}
	return es
}

// WithZip64End builds s with a Zip64 end record and locator between the
// central directory and the end record, whose directory offset becomes a
// placeholder, as zip -fz writes them; edit may change the Zip64 end
// record, the locator and the classic end record after.
func WithZip64End(s Spec, edit func(z64, loc, end []byte)) []byte {
	first := Build(s)
	end := first[len(first)-zipspec.EndLen:]
	n, cdSize, cdOff := uint64(Le16(end[10:])), uint64(Le32(end[12:])), uint64(Le32(end[16:]))
	z := make([]byte, zipspec.End64Len+zipspec.LocatorLen)
	Put32(z, zipspec.SigEnd64)
	Put64(z[4:], zipspec.End64Len-12)
	Put16(z[12:], 0x031e)
	Put16(z[14:], 45)
	Put64(z[24:], n)
	Put64(z[32:], n)
	Put64(z[40:], cdSize)
	Put64(z[48:], cdOff)
	loc := z[zipspec.End64Len:]
	Put32(loc, zipspec.SigEnd64Locator)
	Put64(loc[8:], cdOff+cdSize)
	Put32(loc[16:], 1)
	orig := append([]byte(nil), z...)
	if edit != nil {
		edit(z[:zipspec.End64Len], loc, make([]byte, zipspec.EndLen))
	}
	s.AfterCD = z
	s.End = func(e []byte) {
		Put32(e[16:], 0xffffffff)
		if edit != nil {
			zc := append([]byte(nil), orig...)
			edit(zc[:zipspec.End64Len], zc[zipspec.End64Len:], e)
		}
	}
	return Build(s)
}
