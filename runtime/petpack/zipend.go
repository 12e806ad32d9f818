package petpack

import (
	"io"
)

// endRecord holds the end-of-central-directory fields stage 1 uses.
type endRecord struct {
	offset int64 // of the record itself
	count  int
	cdOff  int64
	cdSize int64
}

func readEnd(c *checker, r io.ReaderAt, size int64) (endRecord, bool) {
	var e endRecord
	tailLen := int64(endLen + maxComment)
	if size < tailLen {
		tailLen = size
	}
	tail := make([]byte, tailLen)
	if err := readAt(r, tail, size-tailLen); err != nil {
		c.fail(RulePackageUnreadable, "", "", "reading the archive's end: %v", err)
		return e, false
	}
	// The last signature with room for a whole record is the end record,
	// as for archive/zip; insisting that its comment then end exactly at
	// the end of the file leaves no second reading of where it is.
	p := -1
	for i := len(tail) - endLen; i >= 0; i-- {
		if le32(tail[i:]) == sigEnd {
			p = i
			break
		}
	}
	if p < 0 {
		c.fail(RuleZipEndMissing, "", "", "no end-of-central-directory record: the file is not a ZIP archive")
		return e, false
	}
	rec := tail[p:]
	e.offset = size - tailLen + int64(p)
	comment := int64(le16(rec[20:]))
	switch after := size - e.offset - endLen; {
	case comment > after:
		c.fail(RuleZipCommentMismatch, "", "", "the end record declares a %d-byte comment but %d bytes follow it", comment, after)
		return e, false
	case comment < after:
		c.fail(RuleZipTrailingData, "", "", "%d bytes follow the end record and its %d-byte comment", after-comment, comment)
		return e, false
	}
	disk, cdDisk := uint64(le16(rec[4:])), uint64(le16(rec[6:]))
	onDisk, total := uint64(le16(rec[8:])), uint64(le16(rec[10:]))
	cdSize, cdOff := uint64(le32(rec[12:])), uint64(le32(rec[16:]))
	dirLimit := e.offset // where the central directory must end
	var loc [locatorLen]byte
	hasLocator := e.offset >= locatorLen && readAt(r, loc[:], e.offset-locatorLen) == nil && le32(loc[:]) == sigEnd64Locator
	if hasLocator {
		z, at, ok := readEnd64(c, r, loc[:], e.offset-locatorLen)
		if !ok {
			return e, false
		}
		// Each classic field is its placeholder or the Zip64 value.
		for _, f := range []struct {
			name         string
			classic, z64 uint64
			placeholder  uint64
		}{
			{"this disk's number", disk, z.disk, 0xffff}, {"the directory's disk", cdDisk, z.cdDisk, 0xffff},
			{"the entries on this disk", onDisk, z.onDisk, 0xffff}, {"the entry count", total, z.total, 0xffff},
			{"the directory size", cdSize, z.cdSize, 0xffffffff}, {"the directory offset", cdOff, z.cdOff, 0xffffffff},
		} {
			if f.classic != f.placeholder && f.classic != f.z64 {
				c.fail(RuleZip64Unsupported, "", "", "the end record says %d for %s but the Zip64 end record %d", f.classic, f.name, f.z64)
				return e, false
			}
		}
		disk, cdDisk, onDisk, total, cdSize, cdOff = z.disk, z.cdDisk, z.onDisk, z.total, z.cdSize, z.cdOff
		dirLimit = at
	} else if onDisk == 0xffff || total == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff || disk == 0xffff || cdDisk == 0xffff {
		c.fail(RuleZip64Unsupported, "", "", "the end record holds Zip64 placeholders but no Zip64 end record locator precedes it")
		return e, false
	}
	if disk != 0 || cdDisk != 0 || onDisk != total {
		c.fail(RuleZipMultiDisk, "", "", "the end record describes a multi-disk archive (disk %d, directory on disk %d, %d of %d entries here)", disk, cdDisk, onDisk, total)
		return e, false
	}
	// The entry budget comes before any per-entry work or allocation.
	if total > MaxEntries {
		c.fail(RuleTooManyEntries, "", "", "the archive declares %d entries, over the budget of %d", total, MaxEntries)
		return e, false
	}
	if cdOff > uint64(size) || cdSize > uint64(size) {
		c.fail(RuleZipDirectoryOutOfRange, "", "", "the central directory at %d of %d bytes lies outside the %d-byte archive", cdOff, cdSize, size)
		return e, false
	}
	e.count, e.cdOff, e.cdSize = int(total), int64(cdOff), int64(cdSize)
	switch dirEnd := e.cdOff + e.cdSize; {
	case dirEnd > dirLimit:
		c.fail(RuleZipDirectoryOutOfRange, "", "", "the central directory [%d, %d) runs past its end record at %d", e.cdOff, dirEnd, dirLimit)
		return e, false
	case dirEnd < dirLimit:
		c.fail(RuleZipGap, "", "", "%d unaccounted bytes lie between the central directory and its end record", dirLimit-dirEnd)
		return e, false
	}
	if e.cdSize < int64(e.count)*centralLen {
		c.fail(RuleZipEntryCountMismatch, "", "", "a %d-byte central directory cannot hold the %d entries the end record declares", e.cdSize, e.count)
		return e, false
	}
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
func readEnd64(c *checker, r io.ReaderAt, loc []byte, locAt int64) (end64, int64, bool) {
	var z end64
	locDisk, at, disks := le32(loc[4:]), le64(loc[8:]), le32(loc[16:])
	if locDisk != 0 || disks != 1 {
		c.fail(RuleZip64Unsupported, "", "", "the Zip64 locator describes a multi-disk archive (disk %d of %d)", locDisk, disks)
		return z, 0, false
	}
	if at > uint64(locAt) || uint64(locAt)-at != end64Len {
		c.fail(RuleZip64Unsupported, "", "", "the Zip64 locator points to %d, but a Zip64 end record ending at the locator starts at %d", at, locAt-end64Len)
		return z, 0, false
	}
	var rec [end64Len]byte
	if err := readAt(r, rec[:], int64(at)); err != nil {
		c.fail(RulePackageUnreadable, "", "", "reading the Zip64 end record: %v", err)
		return z, 0, false
	}
	if le32(rec[:]) != sigEnd64 || le64(rec[4:]) != end64Len-12 {
		c.fail(RuleZip64Unsupported, "", "", "no Zip64 end record of %d bytes lies where the Zip64 locator points", end64Len)
		return z, 0, false
	}
	z = end64{disk: uint64(le32(rec[16:])), cdDisk: uint64(le32(rec[20:])), onDisk: le64(rec[24:]), total: le64(rec[32:]), cdSize: le64(rec[40:]), cdOff: le64(rec[48:])}
	return z, int64(at), true
}
