package strictzip

import "github.com/agentpet/rules_pet/internal/strictzip/zipspec"

// endRecord holds the end-of-central-directory fields the reader uses.
type endRecord struct {
	offset int64 // of the record itself
	count  int
	cdOff  int64
	cdSize int64
}

// readEnd finds and checks the end record, follows a Zip64 locator to its
// end record, and applies the entry limit before anything is allocated per
// entry.
func (z *reader) readEnd(size int64) (endRecord, bool) {
	var e endRecord
	tailLen := int64(zipspec.EndLen + maxComment)
	if size < tailLen {
		tailLen = size
	}
	tail := make([]byte, tailLen)
	if err := readAt(z.r, tail, size-tailLen); err != nil {
		z.unreadable("", "reading the archive's end", err)
		return e, false
	}
	// The last signature with room for a whole record is the end record,
	// as for archive/zip; insisting that its comment then end exactly at
	// the end of the file leaves no second reading of where it is.
	p := -1
	for i := len(tail) - zipspec.EndLen; i >= 0; i-- {
		if le32(tail[i:]) == zipspec.SigEnd {
			p = i
			break
		}
	}
	if p < 0 {
		z.fail(EndMissing, "", "no end-of-central-directory record: the file is not a ZIP archive")
		return e, false
	}
	rec := tail[p:]
	e.offset = size - tailLen + int64(p)
	comment := int64(le16(rec[20:]))
	switch after := size - e.offset - zipspec.EndLen; {
	case comment > after:
		z.fail(CommentMismatch, "", "the end record declares a %d-byte comment but %d bytes follow it", comment, after)
		return e, false
	case comment < after:
		z.fail(TrailingData, "", "%d bytes follow the end record and its %d-byte comment", after-comment, comment)
		return e, false
	}
	disk, cdDisk := uint64(le16(rec[4:])), uint64(le16(rec[6:]))
	onDisk, total := uint64(le16(rec[8:])), uint64(le16(rec[10:]))
	cdSize, cdOff := uint64(le32(rec[12:])), uint64(le32(rec[16:]))
	dirLimit := e.offset // where the central directory must end
	var loc [zipspec.LocatorLen]byte
	hasLocator := e.offset >= zipspec.LocatorLen && readAt(z.r, loc[:], e.offset-zipspec.LocatorLen) == nil && le32(loc[:]) == zipspec.SigEnd64Locator
	if hasLocator {
		z64, at, ok := z.readEnd64(loc[:], e.offset-zipspec.LocatorLen)
		if !ok {
			return e, false
		}
		// Each classic field is its placeholder or the Zip64 value.
		for _, f := range []struct {
			name         string
			classic, z64 uint64
			placeholder  uint64
		}{
			{"this disk's number", disk, z64.disk, 0xffff}, {"the directory's disk", cdDisk, z64.cdDisk, 0xffff},
			{"the entries on this disk", onDisk, z64.onDisk, 0xffff}, {"the entry count", total, z64.total, 0xffff},
			{"the directory size", cdSize, z64.cdSize, 0xffffffff}, {"the directory offset", cdOff, z64.cdOff, 0xffffffff},
		} {
			if f.classic != f.placeholder && f.classic != f.z64 {
				z.fail(Zip64Unsupported, "", "the end record says %d for %s but the Zip64 end record %d", f.classic, f.name, f.z64)
				return e, false
			}
		}
		disk, cdDisk, onDisk, total, cdSize, cdOff = z64.disk, z64.cdDisk, z64.onDisk, z64.total, z64.cdSize, z64.cdOff
		dirLimit = at
	} else if onDisk == 0xffff || total == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff || disk == 0xffff || cdDisk == 0xffff {
		z.fail(Zip64Unsupported, "", "the end record holds Zip64 placeholders but no Zip64 end record locator precedes it")
		return e, false
	}
	if disk != 0 || cdDisk != 0 || onDisk != total {
		z.fail(MultiDisk, "", "the end record describes a multi-disk archive (disk %d, directory on disk %d, %d of %d entries here)", disk, cdDisk, onDisk, total)
		return e, false
	}
	// The entry budget comes before any per-entry work or allocation.
	if limit := z.limits.MaxEntries; limit > 0 && total > uint64(limit) {
		z.fail(TooManyEntries, "", "the archive declares %d entries, over the budget of %d", total, limit)
		return e, false
	}
	if cdOff > uint64(size) || cdSize > uint64(size) {
		z.fail(DirectoryOutOfRange, "", "the central directory at %d of %d bytes lies outside the %d-byte archive", cdOff, cdSize, size)
		return e, false
	}
	// In uint64, so that no declared value can overflow the arithmetic
	// when the caller sets no limits.
	switch dirEnd := cdOff + cdSize; {
	case dirEnd > uint64(dirLimit):
		z.fail(DirectoryOutOfRange, "", "the central directory [%d, %d) runs past its end record at %d", cdOff, dirEnd, dirLimit)
		return e, false
	case dirEnd < uint64(dirLimit):
		z.fail(Gap, "", "%d unaccounted bytes lie between the central directory and its end record", uint64(dirLimit)-dirEnd)
		return e, false
	}
	if cdSize/zipspec.CentralLen < total {
		z.fail(EntryCountMismatch, "", "a %d-byte central directory cannot hold the %d entries the end record declares", cdSize, total)
		return e, false
	}
	e.count, e.cdOff, e.cdSize = int(total), int64(cdOff), int64(cdSize)
	return e, true
}

// end64 holds the fields of a Zip64 end-of-central-directory record.
type end64 struct {
	disk, cdDisk, onDisk, total, cdSize, cdOff uint64
}

// readEnd64 follows the Zip64 locator loc, read at locAt, to its Zip64 end
// record and returns the record's fields and offset. Both must describe a
// single-disk archive, and the record (without extensible data, as
// writers produce it) must end exactly where the locator begins, so no
// byte between them goes unaccounted.
func (z *reader) readEnd64(loc []byte, locAt int64) (end64, int64, bool) {
	var rec64 end64
	locDisk, at, disks := le32(loc[4:]), le64(loc[8:]), le32(loc[16:])
	if locDisk != 0 || disks != 1 {
		z.fail(Zip64Unsupported, "", "the Zip64 locator describes a multi-disk archive (disk %d of %d)", locDisk, disks)
		return rec64, 0, false
	}
	if at > uint64(locAt) || uint64(locAt)-at != zipspec.End64Len {
		z.fail(Zip64Unsupported, "", "the Zip64 locator points to %d, but a Zip64 end record ending at the locator starts at %d", at, locAt-zipspec.End64Len)
		return rec64, 0, false
	}
	var rec [zipspec.End64Len]byte
	if err := readAt(z.r, rec[:], int64(at)); err != nil {
		z.unreadable("", "reading the Zip64 end record", err)
		return rec64, 0, false
	}
	if le32(rec[:]) != zipspec.SigEnd64 || le64(rec[4:]) != zipspec.End64Len-12 {
		z.fail(Zip64Unsupported, "", "no Zip64 end record of %d bytes lies where the Zip64 locator points", zipspec.End64Len)
		return rec64, 0, false
	}
	rec64 = end64{disk: uint64(le32(rec[16:])), cdDisk: uint64(le32(rec[20:])), onDisk: le64(rec[24:]), total: le64(rec[32:]), cdSize: le64(rec[40:]), cdOff: le64(rec[48:])}
	return rec64, int64(at), true
}
