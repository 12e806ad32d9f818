package petpack

import (
	"bytes"
	"encoding/binary"
	"io"
	"sort"
	"strconv"
	"strings"
)

// readLocals reads each entry's local header and compares it with the
// central record: archive/zip reads only a local header's lengths, so a
// name, size or CRC that differs there would be seen by one reader and not
// another.
func readLocals(c *checker, r io.ReaderAt, cdOff int64, a *archive) {
	var hdr [localLen]byte
	buf := make([]byte, 0, 1024)
	for i := range a.entries {
		e := &a.entries[i]
		if e.unusable {
			continue
		}
		path := safePath(e.name)
		if e.local+localLen > cdOff {
			c.fail(RuleZipEntryIntoDirectory, path, "", "the local header at %d runs into the central directory at %d", e.local, cdOff)
			e.unusable = true
			continue
		}
		if err := readAt(r, hdr[:], e.local); err != nil {
			c.fail(RulePackageUnreadable, path, "", "reading the local header: %v", err)
			e.unusable = true
			continue
		}
		if le32(hdr[:]) != sigLocal {
			c.fail(RuleZipLocalHeaderMalformed, path, "", "no local header signature at offset %d", e.local)
			e.unusable = true
			continue
		}
		nlen, xlen := int64(le16(hdr[26:])), int64(le16(hdr[28:]))
		e.data = e.local + localLen + nlen + xlen
		if e.data > cdOff {
			c.fail(RuleZipEntryIntoDirectory, path, "", "the local header's name and extra field run into the central directory")
			e.unusable = true
			continue
		}
		keep := nlen
		if keep > MaxPathBytes+1 {
			keep = MaxPathBytes + 1
		}
		buf = grow(buf, int(keep+xlen))
		if err := readAt(r, buf[:keep], e.local+localLen); err != nil {
			c.fail(RulePackageUnreadable, path, "", "reading the local header: %v", err)
			e.unusable = true
			continue
		}
		var diffs []string
		if nlen != int64(e.nameLen) || string(buf[:keep]) != e.name {
			diffs = append(diffs, "name")
		}
		if le16(hdr[6:]) != e.flags {
			diffs = append(diffs, "flags")
		}
		if le16(hdr[8:]) != e.method {
			diffs = append(diffs, "method")
		}
		// With a data descriptor the local header may leave CRC and sizes
		// zero; whatever it does say must still agree.
		descriptor := e.flags&flagDescriptor != 0
		// Sizes of 0xFFFFFFFF defer to the local Zip64 extra field, read
		// below.
		localZ64 := le32(hdr[18:]) == 0xffffffff && le32(hdr[22:]) == 0xffffffff
		for _, f := range []struct {
			name        string
			local, want uint32
			size        bool
		}{{"crc", le32(hdr[14:]), e.crc, false}, {"compressed size", le32(hdr[18:]), uint32(e.csize), true}, {"uncompressed size", le32(hdr[22:]), uint32(e.usize), true}} {
			if f.local != f.want && !(descriptor && f.local == 0) && !(f.size && localZ64) {
				diffs = append(diffs, f.name)
			}
		}
		if len(diffs) > 0 {
			c.fail(RuleZipLocalHeaderMismatch, path, "", "the local header disagrees with the central directory on %s", strings.Join(diffs, ", "))
			e.unusable = true
			continue
		}
		extra := buf[:xlen]
		if err := readAt(r, extra, e.local+localLen+nlen); err != nil {
			c.fail(RulePackageUnreadable, path, "", "reading the local header: %v", err)
			e.unusable = true
			continue
		}
		z64, ok := zip64Data(extra)
		if msg := checkLocalZip64(e, z64, localZ64); msg != "" {
			c.fail(RuleZip64Unsupported, path, "", "%s", msg)
			e.unusable = true
			continue
		}
		if !ok {
			c.fail(RuleZipLocalHeaderMalformed, path, "", "the local header's extra field does not parse")
			e.unusable = true
			continue
		}
		e.end = e.data + e.csize
		if e.end > cdOff {
			c.fail(RuleZipEntryIntoDirectory, path, "", "the entry's %d data bytes from offset %d run into the central directory at %d", e.csize, e.data, cdOff)
			e.unusable = true
			continue
		}
		if descriptor {
			n, ok := descriptorLen(r, e, cdOff)
			if !ok {
				c.fail(RuleZipDataDescriptorMismatch, path, "", "no data descriptor agreeing with the central directory follows the entry data")
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
func checkLocalZip64(e *zipEntry, z []byte, placeholders bool) string {
	switch {
	case z == nil && placeholders:
		return "the local header holds Zip64 size placeholders but no Zip64 extra field"
	case z == nil:
		return ""
	case !placeholders:
		return "the local header carries a Zip64 extra field but no Zip64 size placeholders"
	case len(z) != 16:
		return "the local header's Zip64 extra field holds " + strconv.Itoa(len(z)) + " bytes, not the 16 of its two sizes"
	case int64(le64(z)) != e.usize || int64(le64(z[8:])) != e.csize:
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
func descriptorLen(r io.ReaderAt, e *zipEntry, cdOff int64) (int64, bool) {
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
	binary.LittleEndian.PutUint32(want[0:], e.crc)
	binary.LittleEndian.PutUint32(want[4:], uint32(e.csize))
	binary.LittleEndian.PutUint32(want[8:], uint32(e.usize))
	if avail == 16 && le32(d[:]) == sigDescriptor && bytes.Equal(d[4:16], want[:]) {
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
func checkSpans(c *checker, cdOff int64, a *archive) {
	order := make([]int, 0, len(a.entries))
	for i := range a.entries {
		if !a.entries[i].unusable {
			order = append(order, i)
		}
	}
	if len(order) < len(a.entries) {
		return // an entry's span is unknown, so the tiling cannot be judged
	}
	sort.SliceStable(order, func(i, j int) bool { return a.entries[order[i]].local < a.entries[order[j]].local })
	pos := int64(0)
	for k, i := range order {
		e := &a.entries[i]
		path := safePath(e.name)
		switch {
		case e.local < pos:
			c.fail(RuleZipEntryOverlap, path, "", "the entry at offset %d overlaps the entry before it, which ends at %d", e.local, pos)
		case e.local > pos && k == 0:
			c.fail(RuleZipPrependedData, "", "", "%d bytes precede the first local header", e.local)
		case e.local > pos:
			c.fail(RuleZipGap, path, "", "%d unaccounted bytes lie before the entry at offset %d", e.local-pos, e.local)
		}
		if e.end > pos {
			pos = e.end
		}
	}
	if pos < cdOff && len(order) > 0 {
		c.fail(RuleZipGap, "", "", "%d unaccounted bytes lie between the last entry and the central directory", cdOff-pos)
	} else if pos < cdOff {
		c.fail(RuleZipPrependedData, "", "", "%d bytes precede the central directory of an empty archive", cdOff)
	}
}
