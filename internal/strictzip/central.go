package strictzip

import (
	"bufio"
	"io"
	"strconv"

	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// readCentral reads every central directory record, streaming: nothing is
// held per entry but its fixed fields and a bounded name. A record that
// cannot be parsed ends the read; a record that breaks an entry rule is
// reported and the read goes on, so every such entry is named.
func (z *reader) readCentral(end endRecord, a *Archive) bool {
	br := bufio.NewReaderSize(io.NewSectionReader(z.r, end.cdOff, end.cdSize), 4096)
	var hdr [zipspec.CentralLen]byte
	extra := make([]byte, 0, 256)
	mark := len(z.problems)
	for i := 0; i < end.count; i++ {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			z.fail(EntryCountMismatch, "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		if le32(hdr[:]) != zipspec.SigCentral {
			z.fail(DirectoryMalformed, "", "central directory record %d has no signature", i+1)
			return false
		}
		e := Entry{
			CreatorVersion:   le16(hdr[4:]),
			Flags:            le16(hdr[8:]),
			Method:           le16(hdr[10:]),
			CRC32:            le32(hdr[16:]),
			CompressedSize:   int64(le32(hdr[20:])),
			UncompressedSize: int64(le32(hdr[24:])),
			NameLen:          int(le16(hdr[28:])),
			ExternalAttrs:    le32(hdr[38:]),
			HeaderOffset:     int64(le32(hdr[42:])),
		}
		xlen, clen, diskStart := int(le16(hdr[30:])), int64(le16(hdr[32:])), le16(hdr[34:])
		name, err := readBoundedName(br, e.NameLen, z.limits.nameKeep())
		if err != nil {
			z.fail(EntryCountMismatch, "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		e.Name = name
		extra = grow(extra, xlen)
		if _, err := io.ReadFull(br, extra); err != nil {
			z.fail(EntryCountMismatch, "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		if _, err := io.CopyN(io.Discard, br, clen); err != nil {
			z.fail(EntryCountMismatch, "", "the central directory ends inside record %d of the %d declared", i+1, end.count)
			return false
		}
		z64, wellFormed := zip64Data(extra)
		if !wellFormed {
			z.fail(DirectoryMalformed, e.Name, "the central directory record's extra field does not parse")
		}
		if msg := applyZip64(&e, z64, diskStart); msg != "" {
			z.fail(Zip64Unsupported, e.Name, "%s", msg)
			e.unusable = true
		} else if diskStart != 0 && diskStart != 0xffff {
			z.fail(MultiDisk, e.Name, "the entry starts on disk %d", diskStart)
			e.unusable = true
		}
		z.checkEntryRecord(&e)
		a.entries = append(a.entries, e)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		z.fail(EntryCountMismatch, "", "bytes follow the %d records the end record declares", end.count)
		return false
	}
	return len(z.problems) == mark
}

// readBoundedName reads an n-byte name and keeps at most keep bytes of it.
func readBoundedName(br *bufio.Reader, n, keep int) (string, error) {
	if keep > n {
		keep = n
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
		if tag == zipspec.ExtraZip64 {
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
func applyZip64(e *Entry, z []byte, diskStart uint16) string {
	fields := []*int64{}
	if e.UncompressedSize == 0xffffffff {
		fields = append(fields, &e.UncompressedSize)
	}
	if e.CompressedSize == 0xffffffff {
		fields = append(fields, &e.CompressedSize)
	}
	if e.HeaderOffset == 0xffffffff {
		fields = append(fields, &e.HeaderOffset)
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
func (z *reader) checkEntryRecord(e *Entry) {
	if e.Flags&flagsCrypto != 0 {
		z.fail(Encrypted, e.Name, "the entry is encrypted (flags %#04x)", e.Flags)
	} else if e.Flags&^flagsAllowed != 0 {
		z.fail(FlagsUnsupported, e.Name, "the entry sets unsupported flag bits %#04x", e.Flags&^flagsAllowed)
	}
	switch e.Method {
	case Store:
		if e.CompressedSize != e.UncompressedSize {
			z.fail(StoredSizeMismatch, e.Name, "a stored entry declares %d compressed and %d uncompressed bytes", e.CompressedSize, e.UncompressedSize)
		}
	case Deflate:
	default:
		z.fail(MethodUnsupported, e.Name, "compression method %d; only stored (0) and deflate (8) are read", e.Method)
	}
	dirName := e.IsDir()
	host := e.CreatorVersion >> 8
	mode := uint32(0)
	if host == zipspec.CreatorUnix || host == zipspec.CreatorMacOSX {
		mode = e.ExternalAttrs >> 16 & zipspec.UnixTypeMask
	}
	switch {
	case mode == zipspec.UnixSymlink || e.ExternalAttrs&zipspec.DOSReparse != 0:
		z.fail(Symlink, e.Name, "the entry is a symbolic link; links are never followed or extracted")
	case mode != 0 && mode != zipspec.UnixRegular && mode != zipspec.UnixDirectory:
		z.fail(SpecialFile, e.Name, "the entry is a %s, not a file or directory", unixTypeName(mode))
	case mode == zipspec.UnixDirectory && !dirName, e.ExternalAttrs&zipspec.DOSDirectory != 0 && !dirName:
		z.fail(TypeMismatch, e.Name, "the entry is marked a directory but its name does not end in /")
	case mode == zipspec.UnixRegular && dirName:
		z.fail(TypeMismatch, e.Name, "the entry is marked a regular file but its name ends in /")
	case dirName && e.UncompressedSize != 0:
		z.fail(TypeMismatch, e.Name, "the directory entry holds %d bytes", e.UncompressedSize)
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
