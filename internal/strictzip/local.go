package strictzip

import (
	"bytes"
	"encoding/binary"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// readLocals reads each entry's local header and compares it with the
// central record: archive/zip reads only a local header's lengths, so a
// name, size or CRC that differs there would be seen by one reader and not
// another.
func (z *reader) readLocals(cdOff int64, a *Archive) {
	var hdr [zipspec.LocalLen]byte
	buf := make([]byte, 0, 1024)
	for i := range a.entries {
		e := &a.entries[i]
		if e.unusable {
			continue
		}
		if e.HeaderOffset+zipspec.LocalLen > cdOff {
			z.fail(EntryIntoDirectory, e.Name, "the local header at %d runs into the central directory at %d", e.HeaderOffset, cdOff)
			e.unusable = true
			continue
		}
		if err := readAt(z.r, hdr[:], e.HeaderOffset); err != nil {
			z.unreadable(e.Name, "reading the local header", err)
			e.unusable = true
			continue
		}
		if le32(hdr[:]) != zipspec.SigLocal {
			z.fail(LocalHeaderMalformed, e.Name, "no local header signature at offset %d", e.HeaderOffset)
			e.unusable = true
			continue
		}
		nlen, xlen := int64(le16(hdr[26:])), int64(le16(hdr[28:]))
		e.DataOffset = e.HeaderOffset + zipspec.LocalLen + nlen + xlen
		if e.DataOffset > cdOff {
			z.fail(EntryIntoDirectory, e.Name, "the local header's name and extra field run into the central directory")
			e.unusable = true
			continue
		}
		keep := nlen
		if limit := int64(z.limits.nameKeep()); keep > limit {
			keep = limit
		}
		buf = grow(buf, int(keep+xlen))
		if err := readAt(z.r, buf[:keep], e.HeaderOffset+zipspec.LocalLen); err != nil {
			z.unreadable(e.Name, "reading the local header", err)
			e.unusable = true
			continue
		}
		var diffs []string
		if nlen != int64(e.NameLen) || string(buf[:keep]) != e.Name {
			diffs = append(diffs, "name")
		}
		if le16(hdr[6:]) != e.Flags {
			diffs = append(diffs, "flags")
		}
		if le16(hdr[8:]) != e.Method {
			diffs = append(diffs, "method")
		}
		// With a data descriptor the local header may leave CRC and sizes
		// zero; whatever it does say must still agree.
		descriptor := e.Flags&zipspec.FlagDescriptor != 0
		// Sizes of 0xFFFFFFFF defer to the local Zip64 extra field, read
		// below.
		localZ64 := le32(hdr[18:]) == 0xffffffff && le32(hdr[22:]) == 0xffffffff
		for _, f := range []struct {
			name        string
			local, want uint32
			size        bool
		}{{"crc", le32(hdr[14:]), e.CRC32, false}, {"compressed size", le32(hdr[18:]), uint32(e.CompressedSize), true}, {"uncompressed size", le32(hdr[22:]), uint32(e.UncompressedSize), true}} {
			if f.local != f.want && !(descriptor && f.local == 0) && !(f.size && localZ64) {
				diffs = append(diffs, f.name)
			}
		}
		if len(diffs) > 0 {
			z.fail(LocalHeaderMismatch, e.Name, "the local header disagrees with the central directory on %s", strings.Join(diffs, ", "))
			e.unusable = true
			continue
		}
		extra := buf[:xlen]
		if err := readAt(z.r, extra, e.HeaderOffset+zipspec.LocalLen+nlen); err != nil {
			z.unreadable(e.Name, "reading the local header", err)
			e.unusable = true
			continue
		}
		z64, ok := zip64Data(extra)
		if msg := checkLocalZip64(e, z64, localZ64); msg != "" {
			z.fail(Zip64Unsupported, e.Name, "%s", msg)
			e.unusable = true
			continue
		}
		if !ok {
			z.fail(LocalHeaderMalformed, e.Name, "the local header's extra field does not parse")
			e.unusable = true
			continue
		}
		// DataOffset is at most cdOff here, so the difference cannot
		// overflow where a sum could.
		if e.CompressedSize > cdOff-e.DataOffset {
			z.fail(EntryIntoDirectory, e.Name, "the entry's %d data bytes from offset %d run into the central directory at %d", e.CompressedSize, e.DataOffset, cdOff)
			e.unusable = true
			continue
		}
		e.end = e.DataOffset + e.CompressedSize
		if descriptor {
			n, ok := descriptorLen(z.r, e, cdOff)
			if !ok {
				z.fail(DataDescriptorMismatch, e.Name, "no data descriptor agreeing with the central directory follows the entry data")
				e.unusable = true
				continue
			}
			e.end += n
		}
	}
}

// checkLocalZip64 compares a local header's Zip64 extra field with the
// central record: present exactly when both header sizes are 0xFFFFFFFF,
// 16 bytes holding the uncompressed and compressed sizes (APPNOTE 4.5.3
// requires both in a local header), and equal to the central sizes.
func checkLocalZip64(e *Entry, z []byte, placeholders bool) string {
	switch {
	case z == nil && placeholders:
		return "the local header holds Zip64 size placeholders but no Zip64 extra field"
	case z == nil:
		return ""
	case !placeholders:
		return "the local header carries a Zip64 extra field but no Zip64 size placeholders"
	case len(z) != 16:
		return "the local header's Zip64 extra field holds " + strconv.Itoa(len(z)) + " bytes, not the 16 of its two sizes"
	case int64(le64(z)) != e.UncompressedSize || int64(le64(z[8:])) != e.CompressedSize:
		return "the local header's Zip64 sizes disagree with the central directory"
	}
	return ""
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// descriptorLen finds the data descriptor after an entry's data: 16 bytes
// with the optional signature or 12 without, holding the central record's
// CRC and sizes. A Zip64 descriptor (8-byte sizes) never matches.
func descriptorLen(r io.ReaderAt, e *Entry, cdOff int64) (int64, bool) {
	var d [16]byte
	avail := cdOff - e.end
	if avail > 16 {
		avail = 16
	}
	if avail < 12 {
		return 0, false
	}
	if err := readAt(r, d[:avail], e.end); err != nil {
		return 0, false
	}
	var want [12]byte
	binary.LittleEndian.PutUint32(want[0:], e.CRC32)
	binary.LittleEndian.PutUint32(want[4:], uint32(e.CompressedSize))
	binary.LittleEndian.PutUint32(want[8:], uint32(e.UncompressedSize))
	if avail == 16 && le32(d[:]) == zipspec.SigDescriptor && bytes.Equal(d[4:16], want[:]) {
		return 16, true
	}
	if bytes.Equal(d[:12], want[:]) {
		return 12, true
	}
	return 0, false
}

// checkSpans requires the entries to tile the bytes before the central
// directory exactly: no bytes before the first, none between two, none
// after the last, and no two sharing bytes (the overlapping-entry zip bomb
// points many records at one compressed stream).
func (z *reader) checkSpans(cdOff int64, a *Archive) {
	order := make([]int, 0, len(a.entries))
	for i := range a.entries {
		if !a.entries[i].unusable {
			order = append(order, i)
		}
	}
	if len(order) < len(a.entries) {
		return // an entry's span is unknown, so the tiling cannot be judged
	}
	sort.SliceStable(order, func(i, j int) bool { return a.entries[order[i]].HeaderOffset < a.entries[order[j]].HeaderOffset })
	pos := int64(0)
	for k, i := range order {
		e := &a.entries[i]
		switch {
		case e.HeaderOffset < pos:
			z.fail(EntryOverlap, e.Name, "the entry at offset %d overlaps the entry before it, which ends at %d", e.HeaderOffset, pos)
		case e.HeaderOffset > pos && k == 0:
			z.fail(PrependedData, "", "%d bytes precede the first local header", e.HeaderOffset)
		case e.HeaderOffset > pos:
			z.fail(Gap, e.Name, "%d unaccounted bytes lie before the entry at offset %d", e.HeaderOffset-pos, e.HeaderOffset)
		}
		if e.end > pos {
			pos = e.end
		}
	}
	if pos < cdOff && len(order) > 0 {
		z.fail(Gap, "", "%d unaccounted bytes lie between the last entry and the central directory", cdOff-pos)
	} else if pos < cdOff {
		z.fail(PrependedData, "", "%d bytes precede the central directory of an empty archive", cdOff)
	}
}
