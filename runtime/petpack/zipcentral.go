package petpack

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// readCentral reads every central directory record, streaming: nothing is
// held per entry but its fixed fields and a bounded name. A record that
// cannot be parsed ends the read; a record that breaks an entry rule is
// reported and the read goes on, so every such entry is named.
func readCentral(c *checker, r io.ReaderAt, end endRecord, a *archive) bool {
	br := bufio.NewReaderSize(io.NewSectionReader(r, end.cdOff, end.cdSize), 4096)
	var hdr [centralLen]byte
	extra := make([]byte, 0, 256)
	mark := c.count()
	for i := 0; i < end.count; i++ {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			c.fail(RuleZipEntryCountMismatch, "", "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		if le32(hdr[:]) != sigCentral {
			c.fail(RuleZipDirectoryMalformed, "", "", "central directory record %d has no signature", i+1)
			return false
		}
		e := zipEntry{
			madeBy:  le16(hdr[4:]),
			flags:   le16(hdr[8:]),
			method:  le16(hdr[10:]),
			crc:     le32(hdr[16:]),
			csize:   int64(le32(hdr[20:])),
			usize:   int64(le32(hdr[24:])),
			nameLen: int(le16(hdr[28:])),
			ext:     le32(hdr[38:]),
			local:   int64(le32(hdr[42:])),
		}
		xlen, clen, diskStart := int(le16(hdr[30:])), int64(le16(hdr[32:])), le16(hdr[34:])
		name, err := readBoundedName(br, e.nameLen)
		if err != nil {
			c.fail(RuleZipEntryCountMismatch, "", "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		e.name = name
		extra = grow(extra, xlen)
		if _, err := io.ReadFull(br, extra); err != nil {
			c.fail(RuleZipEntryCountMismatch, "", "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		if _, err := io.CopyN(io.Discard, br, clen); err != nil {
			c.fail(RuleZipEntryCountMismatch, "", "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		path := safePath(e.name)
		z64, wellFormed := zip64Data(extra)
		if !wellFormed {
			c.fail(RuleZipDirectoryMalformed, path, "", "the central directory record's extra field does not parse")
		}
		if msg := applyZip64(&e, z64, diskStart); msg != "" {
			c.fail(RuleZip64Unsupported, path, "", "%s", msg)
			e.unusable = true
		} else if diskStart != 0 && diskStart != 0xffff {
			c.fail(RuleZipMultiDisk, path, "", "the entry starts on disk %d", diskStart)
			e.unusable = true
		}
		checkEntryRecord(c, &e, path)
		a.entries = append(a.entries, e)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		c.fail(RuleZipEntryCountMismatch, "", "", "bytes follow the %d records the end record declares", end.count)
		return false
	}
	return !c.errorsSince(mark)
}

// readBoundedName reads an n-byte name and keeps at most MaxPathBytes+1 of
// it: enough to apply every path rule, including the length bound.
func readBoundedName(br *bufio.Reader, n int) (string, error) {
	keep := n
	if keep > MaxPathBytes+1 {
		keep = MaxPathBytes + 1
	}
	b := make([]byte, keep)
	if _, err := io.ReadFull(br, b); err != nil {
		return "", err
	}
	if _, err := io.CopyN(io.Discard, br, int64(n-keep)); err != nil {
		return "", err
	}
	return string(b), nil
}

// zip64Data returns the data of an extra field's Zip64 record (nil when
// it has none), and whether the records tile the field exactly.
func zip64Data(x []byte) ([]byte, bool) {
	var data []byte
	for len(x) > 0 {
		if len(x) < 4 {
			return data, false
		}
		tag, n := le16(x), int(le16(x[2:]))
		if n > len(x)-4 {
			return data, false
		}
		if tag == extraZip64 {
			if data != nil {
				return data, false // two Zip64 records
			}
			data = x[4 : 4+n : 4+n]
		}
		x = x[4+n:]
	}
	return data, true
}

// applyZip64 replaces a central record's placeholders (0xFFFFFFFF sizes
// and offset, a 0xFFFF disk) with the values of its Zip64 extra field,
// which holds exactly those, in APPNOTE 4.5.3's order, 8 bytes each (the
// disk 4). It returns what disagrees, or "".
func applyZip64(e *zipEntry, z []byte, diskStart uint16) string {
	fields := []*int64{}
	if e.usize == 0xffffffff {
		fields = append(fields, &e.usize)
	}
	if e.csize == 0xffffffff {
		fields = append(fields, &e.csize)
	}
	if e.local == 0xffffffff {
		fields = append(fields, &e.local)
	}
	want := 8 * len(fields)
	if diskStart == 0xffff {
		want += 4
	}
	switch {
	case z == nil && want == 0:
		return ""
	case z == nil:
		return "the entry holds Zip64 placeholders but no Zip64 extra field"
	case len(z) != want:
		return "the entry's Zip64 extra field holds " + strconv.Itoa(len(z)) + " bytes, but its placeholders call for " + strconv.Itoa(want)
	}
	for i, f := range fields {
		v := le64(z[8*i:])
		if v > 1<<62 {
			return "the entry's Zip64 extra field holds a size or offset beyond any archive"
		}
		*f = int64(v)
	}
	if diskStart == 0xffff && le32(z[want-4:]) != 0 {
		return "the entry's Zip64 extra field starts it on another disk"
	}
	return ""
}

// checkEntryRecord applies the rules one central record can break alone.
func checkEntryRecord(c *checker, e *zipEntry, path string) {
	if e.flags&flagsCrypto != 0 {
		c.fail(RuleZipEncrypted, path, "", "the entry is encrypted (flags %#04x)", e.flags)
	} else if e.flags&^flagsAllowed != 0 {
		c.fail(RuleZipFlagsUnsupported, path, "", "the entry sets unsupported flag bits %#04x", e.flags&^flagsAllowed)
	}
	switch e.method {
	case methodStore:
		if e.csize != e.usize {
			c.fail(RuleZipStoredSizeMismatch, path, "", "a stored entry declares %d compressed and %d uncompressed bytes", e.csize, e.usize)
		}
	case methodDeflate:
	default:
		c.fail(RuleZipMethodUnsupported, path, "", "compression method %d; only stored (0) and deflate (8) are read", e.method)
	}
	dirName := strings.HasSuffix(e.name, "/") && e.nameLen == len(e.name)
	host := e.madeBy >> 8
	mode := uint32(0)
	if host == creatorUnix || host == creatorMacOSX {
		mode = e.ext >> 16 & unixTypeMask
	}
	switch {
	case mode == unixSymlink || e.ext&dosReparse != 0:
		c.fail(RuleEntrySymlink, path, "", "the entry is a symbolic link; links are never followed or extracted")
	case mode != 0 && mode != unixRegular && mode != unixDirectory:
		c.fail(RuleEntrySpecialFile, path, "", "the entry is a %s, not a file or directory", unixTypeName(mode))
	case mode == unixDirectory && !dirName, e.ext&dosDirectory != 0 && !dirName:
		c.fail(RuleEntryTypeMismatch, path, "", "the entry is marked a directory but its name does not end in /")
	case mode == unixRegular && dirName:
		c.fail(RuleEntryTypeMismatch, path, "", "the entry is marked a regular file but its name ends in /")
	case dirName && e.usize != 0:
		c.fail(RuleEntryTypeMismatch, path, "", "the directory entry holds %d bytes", e.usize)
	}
}

func unixTypeName(mode uint32) string {
	switch mode {
	case 0x1000:
		return "FIFO"
	case 0x2000:
		return "character device"
	case 0x6000:
		return "block device"
	case 0xc000:
		return "socket"
	}
	return "file of unknown type"
}
