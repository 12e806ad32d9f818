package assetpackformat

import (
	"fmt"
	"sort"
)

// Region is a named byte range of a pack.
type Region struct {
	// Name says what the bytes are, e.g. "role table record 3" or
	// "entry 2 colour payload".
	Name string `json:"name"`
	// Offset is the first byte, from the start of the pack.
	Offset int `json:"offset"`
	// Length is the number of bytes.
	Length int `json:"length"`
}

// End is the offset just past the region.
func (r Region) End() int { return r.Offset + r.Length }

// Regions lists the coarse regions of data in offset order: the header, the
// five tables, each entry's colour and mask payload, any padding between
// them, and the check. It is exact for a pack Verify accepts; for other
// bytes it describes what the header and entry records claim, clipped to
// data, which is what a person inspecting a damaged pack wants to see.
func Regions(data []byte) []Region {
	return regions(data, false)
}

// Fields lists the same bytes as Regions at the grain a difference is
// reported in: each header field, each table record, each payload, each
// padding run and the check.
func Fields(data []byte) []Region {
	return regions(data, true)
}

var headerFields = [...]struct {
	name      string
	off, size int
}{
	{"magic", OffMagic, 4},
	{"format version", OffVersion, 2},
	{"header length", OffHeaderLength, 2},
	{"pack length", OffPackLength, 4},
	{"pixel encoding", OffPixelEncoding, 1},
	{"transparency", OffTransparency, 1},
	{"image count", OffImageCount, 2},
	{"animation count", OffAnimCount, 2},
	{"frame count", OffFrameCount, 2},
	{"role count", OffRoleCount, 2},
	{"fallback role", OffFallback, 2},
	{"payload offset", OffPayload, 4},
}

func regions(data []byte, fine bool) []Region {
	var rs []Region
	add := func(name string, off, length int) {
		// Clip to data so a damaged pack still yields sensible regions.
		if off < 0 || off >= len(data) || length <= 0 {
			return
		}
		if off+length > len(data) {
			length = len(data) - off
		}
		rs = append(rs, Region{Name: name, Offset: off, Length: length})
	}
	if len(data) < HeaderLength {
		add("header (truncated)", 0, len(data))
		return rs
	}
	if fine {
		for _, f := range headerFields {
			add("header field "+f.name, f.off, f.size)
		}
	} else {
		add("header", 0, HeaderLength)
	}
	c := HeaderCounts(data)
	t := Layout(c)
	// Records that start with an ID (and the entry records, whose image
	// record has the same index) carry it in their names, so a difference
	// names the sprite or role a person edits.
	recordID := func(off, size int) func(int) string {
		return func(i int) string { return named(identifierAt(data, off+i*size)) }
	}
	entryImage := func(i int) string { return imageOf(data, t, i) }
	tables := [...]struct {
		name         string
		off, n, size int
		label        func(i int) string
	}{
		{"image table", t.Images, c.Images, ImageRecordLength, recordID(t.Images, ImageRecordLength)},
		{"animation table", t.Animations, c.Animations, AnimationRecordLength, recordID(t.Animations, AnimationRecordLength)},
		{"frame table", t.Frames, c.Frames, FrameRecordLength, nil},
		{"role table", t.Roles, c.Roles, RoleRecordLength, recordID(t.Roles, RoleRecordLength)},
		{"entry table", t.Entries, c.Images, EntryRecordLength, entryImage},
	}
	for _, tb := range tables {
		if !fine {
			add(tb.name, tb.off, tb.n*tb.size)
			continue
		}
		for i := 0; i < tb.n; i++ {
			name := fmt.Sprintf("%s record %d", tb.name, i)
			if tb.label != nil {
				name += tb.label(i)
			}
			add(name, tb.off+i*tb.size, tb.size)
		}
	}
	checkOff := len(data) - CheckLength
	var payloads []Region
	for i := 0; i < c.Images && t.Entries+(i+1)*EntryRecordLength <= len(data); i++ {
		e := EntryAt(data, t, i)
		for _, p := range [...]struct {
			what     string
			off, len uint64
		}{{"colour", e.ColourOff, e.ColourLen}, {"mask", e.MaskOff, e.MaskLen}} {
			// Only payloads the check does not overlap; a lying entry must
			// not hide the check or the tables.
			if p.off >= uint64(t.Payload) && p.off < uint64(checkOff) {
				l := p.len
				if p.off+l > uint64(checkOff) {
					l = uint64(checkOff) - p.off
				}
				name := fmt.Sprintf("entry %d %s payload", i, p.what)
				if fine {
					name = fmt.Sprintf("entry %d%s %s payload", i, imageOf(data, t, i), p.what)
				}
				payloads = append(payloads, Region{Name: name, Offset: int(p.off), Length: int(l)})
			}
		}
	}
	sort.SliceStable(payloads, func(a, b int) bool { return payloads[a].Offset < payloads[b].Offset })
	cursor, prev := t.Payload, "entry table"
	for _, p := range payloads {
		if p.Offset > cursor {
			add("padding after "+prev, cursor, p.Offset-cursor)
		}
		add(p.Name, p.Offset, p.Length)
		if p.End() > cursor {
			cursor, prev = p.End(), p.Name
		}
	}
	if checkOff > cursor {
		add("padding after "+prev, cursor, checkOff-cursor)
	}
	if checkOff >= t.Payload {
		add("check", checkOff, CheckLength)
	}
	return rs
}

// identifierAt reads the zero-terminated ID field at off, or "" when it is
// out of range or not printable ASCII: a damaged pack must not put control
// bytes into a message.
func identifierAt(data []byte, off int) string {
	if off < 0 || off+IdentifierLength > len(data) {
		return ""
	}
	for i, b := range data[off : off+IdentifierLength] {
		if b == 0 {
			return string(data[off : off+i])
		}
		if b < 0x21 || b > 0x7e {
			return ""
		}
	}
	return ""
}

// named is " (id)" for a readable ID and "" otherwise.
func named(id string) string {
	if id == "" {
		return ""
	}
	return " (" + id + ")"
}

// imageOf is " (image ID)" for entry i, whose image record has the same
// index, so a difference in pixels names the sprite a person edits.
func imageOf(data []byte, t Tables, i int) string {
	id := identifierAt(data, t.Images+i*ImageRecordLength)
	if id == "" {
		return ""
	}
	return " (image " + id + ")"
}

// locate returns the name of the first region holding off.
func locate(rs []Region, off int) string {
	for _, r := range rs {
		if off >= r.Offset && off < r.End() {
			return r.Name
		}
	}
	return fmt.Sprintf("unmapped byte %d", off)
}

// FirstDifference describes where got first departs from want, naming the
// region of want the first differing byte lies in ("header field pack
// length", "role table record 3", "entry 2 colour payload", "check"), or
// the length difference when one is a prefix of the other. It returns ""
// when the two are equal.
func FirstDifference(got, want []byte) string {
	n := len(got)
	if len(want) < n {
		n = len(want)
	}
	for i := 0; i < n; i++ {
		if got[i] != want[i] {
			msg := fmt.Sprintf("%s differs at byte %d: got 0x%02x, want 0x%02x", locate(Fields(want), i), i, got[i], want[i])
			if len(got) != len(want) {
				msg += fmt.Sprintf(" (and got is %d bytes, want %d)", len(got), len(want))
			}
			return msg
		}
	}
	switch {
	case len(got) < len(want):
		return fmt.Sprintf("got is %d bytes, want %d: got stops inside %s", len(got), len(want), locate(Fields(want), n))
	case len(got) > len(want):
		return fmt.Sprintf("got is %d bytes, want %d: got runs on into %s", len(got), len(want), locate(Fields(got), n))
	}
	return ""
}
