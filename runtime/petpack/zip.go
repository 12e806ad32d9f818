package petpack

import (
	"encoding/binary"
	"io"
	"strings"
)

// The ZIP records read here (APPNOTE 4.3). archive/zip is not used to read
// packages: it allocates by the declared entry count before any budget can
// be applied, and it does not compare local headers, look for overlaps or
// gaps, or check a CRC of zero. The fuzz test runs archive/zip over every
// archive this reader accepts, as a second opinion.
const (
	sigLocal        = 0x04034b50
	sigCentral      = 0x02014b50
	sigEnd          = 0x06054b50
	sigEnd64Locator = 0x07064b50
	sigEnd64        = 0x06064b50
	sigDescriptor   = 0x08074b50

	localLen   = 30
	centralLen = 46
	endLen     = 22
	end64Len   = 56 // the Zip64 end record without extensible data
	locatorLen = 20
	maxComment = 0xffff

	methodStore   = 0
	methodDeflate = 8

	flagEncrypted       = 0x0001
	flagDescriptor      = 0x0008
	flagStrongEncrypted = 0x0040
	flagUTF8            = 0x0800
	flagMaskedHeaders   = 0x2000
	// flagsAllowed are the bits a package may set: deflate options (1, 2),
	// the data descriptor (3) and UTF-8 names (11).
	flagsAllowed = 0x0002 | 0x0004 | flagDescriptor | flagUTF8
	flagsCrypto  = flagEncrypted | flagStrongEncrypted | flagMaskedHeaders

	extraZip64 = 0x0001

	creatorUnix   = 3
	creatorMacOSX = 19

	// External attribute bits: the Unix mode in the high half, MS-DOS
	// attributes in the low byte for every host.
	unixTypeMask  = 0xf000
	unixRegular   = 0x8000
	unixDirectory = 0x4000
	unixSymlink   = 0xa000
	dosDirectory  = 0x10
	dosReparse    = 0x400 // a Windows symbolic link or junction
)

// zipEntry is one central directory record and what its local header says.
type zipEntry struct {
	// name is the stored name, cut to MaxPathBytes+1 bytes when longer
	// (such a name is rejected by path_too_long whatever follows).
	name    string
	nameLen int
	madeBy  uint16
	flags   uint16
	method  uint16
	crc     uint32
	csize   int64
	usize   int64
	ext     uint32
	local   int64 // offset of the local header
	data    int64 // offset of the entry data, from the local header
	end     int64 // end of the data and any data descriptor
	// unusable marks a record whose offsets cannot be followed (Zip64
	// fields that disagree, another disk), so no later check reads
	// through it.
	unusable bool
}

// archive is a ZIP file whose structure stage 1 has accepted.
type archive struct {
	r       io.ReaderAt
	entries []zipEntry
	inflate inflater
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// readArchive is stage 1 for an archive (with the two budgets that must
// come before the central directory is read). It returns nil when the
// archive is rejected; every finding is in c.
func readArchive(c *checker, r io.ReaderAt, size int64) *archive {
	if size < 0 {
		c.fail(RulePackageUnreadable, "", "", "the archive reports a negative size")
		return nil
	}
	if size > MaxArchiveBytes {
		c.fail(RuleArchiveTooLarge, "", "", "the archive is %d bytes, over the %d-byte budget", size, int64(MaxArchiveBytes))
		return nil
	}
	end, ok := readEnd(c, r, size)
	if !ok {
		return nil
	}
	a := &archive{r: r}
	if !readCentral(c, r, end, a) {
		return nil
	}
	mark := c.count()
	readLocals(c, r, end.cdOff, a)
	checkSpans(c, end.cdOff, a)
	if c.errorsSince(mark) {
		return nil
	}
	return a
}

// fileSet turns the accepted archive into the core's abstract file set.
func (a *archive) fileSet() *fileSet {
	fs := &fileSet{src: a, entries: make([]entry, len(a.entries))}
	for i, e := range a.entries {
		name, dir := e.name, false
		if strings.HasSuffix(name, "/") && e.nameLen == len(name) {
			name, dir = name[:len(name)-1], true
		}
		fs.entries[i] = entry{name: name, dir: dir, size: e.usize, ref: i}
	}
	return fs
}

func (a *archive) sealed() bool { return true }

// readAt fills p from off. io.ReaderAt may return io.EOF along with a full
// read at the end of the input, which is a success here.
func readAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
