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
	disk, cdDisk := le16(rec[4:]), le16(rec[6:])
	onDisk, total := le16(rec[8:]), le16(rec[10:])
	cdSize, cdOff := le32(rec[12:]), le32(rec[16:])
	if onDisk == 0xffff || total == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff || disk == 0xffff || cdDisk == 0xffff {
		c.fail(RuleZip64Unsupported, "", "", "the end record holds Zip64 placeholders; packages never need Zip64")
		return e, false
	}
	if e.offset >= 20 {
		var loc [4]byte
		if err := readAt(r, loc[:], e.offset-20); err == nil && le32(loc[:]) == sigEnd64Locator {
			c.fail(RuleZip64Unsupported, "", "", "a Zip64 end-of-central-directory locator precedes the end record")
			return e, false
		}
	}
	if disk != 0 || cdDisk != 0 || onDisk != total {
		c.fail(RuleZipMultiDisk, "", "", "the end record describes a multi-disk archive (disk %d, directory on disk %d, %d of %d entries here)", disk, cdDisk, onDisk, total)
		return e, false
	}
	e.count, e.cdOff, e.cdSize = int(total), int64(cdOff), int64(cdSize)
	// The entry budget comes before any per-entry work or allocation.
	if e.count > MaxEntries {
		c.fail(RuleTooManyEntries, "", "", "the archive declares %d entries, over the budget of %d", e.count, MaxEntries)
		return e, false
	}
	switch dirEnd := e.cdOff + e.cdSize; {
	case dirEnd > e.offset:
		c.fail(RuleZipDirectoryOutOfRange, "", "", "the central directory [%d, %d) runs past its end record at %d", e.cdOff, dirEnd, e.offset)
		return e, false
	case dirEnd < e.offset:
		c.fail(RuleZipGap, "", "", "%d unaccounted bytes lie between the central directory and its end record", e.offset-dirEnd)
		return e, false
	}
	if e.cdSize < int64(e.count)*centralLen {
		c.fail(RuleZipEntryCountMismatch, "", "", "a %d-byte central directory cannot hold the %d entries the end record declares", e.cdSize, e.count)
		return e, false
	}
	return e, true
}
