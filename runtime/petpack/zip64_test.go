package petpack

import (
	"encoding/binary"
	"strings"
	"testing"
)

func put64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }

// zip64Entries are p's entries as Zip64 writers store them: every local
// header with 0xFFFFFFFF sizes and a Zip64 extra field holding both (what
// Python's zipfile writes with force_zip64); with central, every central
// record with its uncompressed size a placeholder and an 8-byte Zip64
// extra field holding it (what Info-ZIP's zip -fz writes). edit, when
// set, changes entry i after.
func zip64Entries(p pkg, central bool, edit func(i int, e *zent)) []zent {
	es := entriesOf(p, false)
	for i := range es {
		e := &es[i]
		comp := e.data
		if e.method == methodDeflate {
			comp = deflate(e.data)
		}
		e.comp = comp
		x := make([]byte, 20)
		put16(x, extraZip64)
		put16(x[2:], 16)
		put64(x[4:], uint64(len(e.data)))
		put64(x[12:], uint64(len(comp)))
		e.localExtra = x
		e.local = func(h []byte) { put32(h[18:], 0xffffffff); put32(h[22:], 0xffffffff) }
		if central {
			cx := make([]byte, 12)
			put16(cx, extraZip64)
			put16(cx[2:], 8)
			put64(cx[4:], uint64(len(e.data)))
			e.extra = cx
			e.central = func(h []byte) { put32(h[24:], 0xffffffff) }
		}
		if edit != nil {
			edit(i, e)
		}
	}
	return es
}

// withZip64End builds s with a Zip64 end record and locator between the
// central directory and the end record, whose directory offset becomes a
// placeholder, as zip -fz writes them; edit may change the Zip64 end
// record, the locator and the classic end record after.
func withZip64End(s zspec, edit func(z64, loc, end []byte)) []byte {
	first := buildZip(s)
	end := first[len(first)-endLen:]
	n, cdSize, cdOff := uint64(le16(end[10:])), uint64(le32(end[12:])), uint64(le32(end[16:]))
	z := make([]byte, end64Len+locatorLen)
	put32(z, sigEnd64)
	put64(z[4:], end64Len-12)
	put16(z[12:], 0x031e)
	put16(z[14:], 45)
	put64(z[24:], n)
	put64(z[32:], n)
	put64(z[40:], cdSize)
	put64(z[48:], cdOff)
	loc := z[end64Len:]
	put32(loc, sigEnd64Locator)
	put64(loc[8:], cdOff+cdSize)
	put32(loc[16:], 1)
	orig := append([]byte(nil), z...)
	if edit != nil {
		edit(z[:end64Len], loc, make([]byte, endLen))
	}
	s.afterCD = z
	s.end = func(e []byte) {
		put32(e[16:], 0xffffffff)
		if edit != nil {
			zc := append([]byte(nil), orig...)
			edit(zc[:end64Len], zc[end64Len:], e)
		}
	}
	return buildZip(s)
}

// TestZip64 accepts small Zip64 archives whose every Zip64 field agrees
// with the rest of the archive, in the shapes Python's zipfile
// (force_zip64) and Info-ZIP's zip -fz write, and rejects each
// disagreement with zip64_unsupported and a message naming Zip64.
func TestZip64(t *testing.T) {
	base := validPackage()
	brief := -1
	for i, f := range base {
		if f.name == briefPath {
			brief = i
		}
	}
	accepted := []struct {
		name    string
		archive []byte
	}{
		{"python force_zip64", buildZip(zspec{entries: zip64Entries(base, false, nil)})},
		{"zip -fz", withZip64End(zspec{entries: zip64Entries(base, true, nil)}, nil)},
		{"a Zip64 end record with no placeholder", withZip64End(zspec{entries: entriesOf(base, false)}, func(z, _, e []byte) {
			put32(e[16:], uint32(le64(z[48:])))
		})},
	}
	for _, tc := range accepted {
		t.Run("accepted/"+tc.name, func(t *testing.T) {
			if v := validateBytes(tc.archive); !v.OK() {
				t.Fatalf("rejected:\n%s", describeVerdict(v))
			}
		})
	}
	onBrief := func(edit func(e *zent)) func(int, *zent) {
		return func(i int, e *zent) {
			if i == brief {
				edit(e)
			}
		}
	}
	rejected := []struct {
		name    string
		archive []byte
		also    []Rule
	}{
		{"local Zip64 size off by one", buildZip(zspec{entries: zip64Entries(base, false, onBrief(func(e *zent) { put64(e.localExtra[4:], uint64(len(e.data)+1)) }))}), nil},
		{"local placeholders without the extra field", buildZip(zspec{entries: zip64Entries(base, false, onBrief(func(e *zent) { e.localExtra = nil }))}), nil},
		{"local extra field of one size", buildZip(zspec{entries: zip64Entries(base, false, onBrief(func(e *zent) { e.localExtra = e.localExtra[:12]; put16(e.localExtra[2:], 8) }))}), nil},
		{"central placeholder without the extra field", withZip64End(zspec{entries: zip64Entries(base, true, onBrief(func(e *zent) { e.extra = nil }))}, nil), nil},
		{"central extra field longer than its placeholders", withZip64End(zspec{entries: zip64Entries(base, true, onBrief(func(e *zent) {
			e.extra = append(append([]byte(nil), e.extra...), make([]byte, 8)...)
			put16(e.extra[2:], 16)
		}))}, nil), nil},
		{"central Zip64 size beyond the budget", withZip64End(zspec{entries: zip64Entries(base, true, onBrief(func(e *zent) { put64(e.extra[4:], 1<<40); put64(e.localExtra[4:], 1<<40) }))}, nil), []Rule{RuleEntryTooLarge, RuleExpandedTooLarge}},
		{"Zip64 end record counting one more entry", withZip64End(zspec{entries: zip64Entries(base, true, nil)}, func(z, _, _ []byte) { put64(z[32:], le64(z[32:])+1) }), nil},
		{"Zip64 end record with another directory offset", withZip64End(zspec{entries: entriesOf(base, false)}, func(z, _, e []byte) {
			put32(e[16:], uint32(le64(z[48:])))
			put64(z[48:], le64(z[48:])+1)
		}), nil},
		{"locator pointing past the record", withZip64End(zspec{entries: entriesOf(base, false)}, func(_, l, _ []byte) { put64(l[8:], le64(l[8:])+1) }), nil},
		{"locator of two disks", withZip64End(zspec{entries: entriesOf(base, false)}, func(_, l, _ []byte) { put32(l[16:], 2) }), nil},
		{"Zip64 end record with extensible data", withZip64End(zspec{entries: entriesOf(base, false)}, func(z, _, _ []byte) { put64(z[4:], end64Len) }), nil},
		{"Zip64 end record on another disk", withZip64End(zspec{entries: entriesOf(base, false)}, func(z, _, e []byte) { put32(z[16:], 1); put16(e[4:], 0xffff) }), []Rule{RuleZipMultiDisk}},
	}
	for _, tc := range rejected {
		t.Run("rejected/"+tc.name, func(t *testing.T) {
			v := validateBytes(tc.archive)
			if tc.also != nil {
				expectRules(t, v, tc.also...)
				return
			}
			expectRules(t, v, RuleZip64Unsupported)
			for _, f := range v.Errors {
				if !strings.Contains(strings.ToLower(f.Msg), "zip64") {
					t.Errorf("message does not name Zip64: %s", f)
				}
			}
		})
	}
}
