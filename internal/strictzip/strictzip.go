package strictzip

import (
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// Bounds of the format, and the flag bits the reader accepts.
const (
	maxComment = 0xffff
	maxName    = 0xffff

	// flagsAllowed are the bits an entry may set: deflate options (1, 2),
	// the data descriptor (3) and UTF-8 names (11).
	flagsAllowed = 0x0002 | 0x0004 | zipspec.FlagDescriptor | zipspec.FlagUTF8
	flagsCrypto  = zipspec.FlagEncrypted | zipspec.FlagStrongEncrypted | zipspec.FlagMaskedHeaders
)

// The compression methods an accepted entry has.
const (
	// Store is an entry stored as is.
	Store uint16 = 0
	// Deflate is an entry compressed with deflate (RFC 1951).
	Deflate uint16 = 8
)

// Limits are the caller's budgets that must hold before the reader spends
// memory or time on what the archive declares. A field of zero or less sets
// no bound beyond the format's own.
type Limits struct {
	// MaxArchiveBytes bounds the archive's size; nothing is read from a
	// larger one.
	MaxArchiveBytes int64
	// MaxEntries bounds the entry count the end record declares, before
	// the central directory is read.
	MaxEntries int
	// MaxNameBytes bounds how much of each name is held: a longer name is
	// kept as its first MaxNameBytes+1 bytes, so the caller still sees it
	// is too long, while 5000 names of 65535 bytes cannot cost 320 MiB.
	MaxNameBytes int
}

// nameKeep is how many bytes of a name are held.
func (l Limits) nameKeep() int {
	if l.MaxNameBytes <= 0 || l.MaxNameBytes >= maxName {
		return maxName
	}
	return l.MaxNameBytes + 1
}

// Archive is a ZIP archive Open accepted. Its entries may be opened from
// several goroutines when its io.ReaderAt allows concurrent reads.
type Archive struct {
	r       io.ReaderAt
	entries []Entry
	inflate inflater
}

// Entries returns the archive's entries in central directory order. The
// slice is a copy: changing it changes nothing Entry.Open reads.
func (a *Archive) Entries() []Entry {
	out := make([]Entry, len(a.entries))
	copy(out, a.entries)
	return out
}

// Entry is one central directory record, as the archive declares it and as
// its local header confirmed it.
type Entry struct {
	// Name is the stored name, cut to Limits.MaxNameBytes+1 bytes when
	// longer; NameLen is the stored length.
	Name    string
	NameLen int
	// Method is Store or Deflate.
	Method uint16
	// Flags are the general purpose bits (a subset of deflate options,
	// data descriptor and UTF-8).
	Flags uint16
	// CRC32 is the declared checksum of the content; Open checks it.
	CRC32 uint32
	// CompressedSize and UncompressedSize are the declared sizes, from
	// the Zip64 extra field where the record defers to it.
	CompressedSize   int64
	UncompressedSize int64
	// CreatorVersion is the "version made by" field: the host that wrote
	// the entry in the high byte, which says how ExternalAttrs reads.
	CreatorVersion uint16
	// ExternalAttrs holds the Unix mode in its high half for Unix and
	// macOS hosts, and MS-DOS attributes in its low byte.
	ExternalAttrs uint32
	// HeaderOffset is where the local header starts; DataOffset where the
	// entry's data starts, after the local name and extra field.
	HeaderOffset int64
	DataOffset   int64

	archive *Archive
	index   int
	// end is the end of the data and any data descriptor.
	end int64
	// unusable marks a record whose offsets cannot be followed (Zip64
	// fields that disagree, another disk), so no later check reads
	// through it.
	unusable bool
}

// IsDir reports whether the entry is a directory: its whole name ends in
// a slash (the reader has refused any entry whose mode says otherwise).
func (e *Entry) IsDir() bool {
	return e.NameLen == len(e.Name) && strings.HasSuffix(e.Name, "/")
}

// Mode is the entry's type (fs.ModeDir or a regular file) and, when a Unix
// or macOS host wrote it, its permission bits; other hosts record none.
func (e *Entry) Mode() fs.FileMode {
	var m fs.FileMode
	if host := e.CreatorVersion >> 8; host == zipspec.CreatorUnix || host == zipspec.CreatorMacOSX {
		m = fs.FileMode(e.ExternalAttrs>>16) & fs.ModePerm
	}
	if e.IsDir() {
		m |= fs.ModeDir
	}
	return m
}

// Problem is one thing wrong with an archive or one of its entries.
type Problem struct {
	// Reason is the stable identifier of what is wrong.
	Reason Reason
	// Name is the entry's name as Entry.Name holds it (cut, and not
	// otherwise cleaned: it may hold any bytes), or "" for a problem of
	// the archive as a whole.
	Name string
	// Msg says what is wrong, for a person.
	Msg string
	// Err is the I/O error behind an Unreadable problem, nil otherwise.
	Err error
}

// Error formats the problem as `NAME: REASON: message`, without the name
// when it is "".
func (p *Problem) Error() string {
	s := string(p.Reason) + ": " + p.Msg
	if p.Name != "" {
		s = fmt.Sprintf("%q: %s", p.Name, s)
	}
	return s
}

// Unwrap returns the I/O error behind an Unreadable problem.
func (p *Problem) Unwrap() error { return p.Err }

// Error is an archive Open refused: every problem found, in the order the
// checks found them (structure first, then entry by entry, field by
// field).
type Error struct {
	// Problems holds at least one problem.
	Problems []Problem
}

// Error formats the first problem and says how many more there are.
func (e *Error) Error() string {
	if len(e.Problems) == 0 {
		return "strictzip: refused"
	}
	s := "strictzip: " + e.Problems[0].Error()
	if n := len(e.Problems) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// Open reads the structure of the ZIP archive of size bytes that r reads.
// It returns the archive, or nil and an *Error holding every problem found:
// a problem that leaves the structure unknown (no end record, a directory
// that does not parse) ends the reading, and a problem of one entry is
// reported and the next entry read, so every such entry is named. No
// content is read until Entry.Open.
func Open(r io.ReaderAt, size int64, limits Limits) (*Archive, error) {
	z := &reader{r: r, limits: limits}
	a := z.read(size)
	if len(z.problems) > 0 {
		return nil, &Error{Problems: z.problems}
	}
	for i := range a.entries {
		a.entries[i].archive, a.entries[i].index = a, i
	}
	return a, nil
}

// reader collects problems while Open runs.
type reader struct {
	r        io.ReaderAt
	limits   Limits
	problems []Problem
}

func (z *reader) fail(reason Reason, name, format string, args ...interface{}) {
	z.problems = append(z.problems, Problem{Reason: reason, Name: name, Msg: fmt.Sprintf(format, args...)})
}

// unreadable records an I/O error, which says nothing about the archive
// but ends what needed the bytes.
func (z *reader) unreadable(name, what string, err error) {
	z.problems = append(z.problems, Problem{Reason: Unreadable, Name: name, Msg: fmt.Sprintf("%s: %v", what, err), Err: err})
}

// read runs the checks in order; the archive it returns is meaningful only
// when no problem was recorded.
func (z *reader) read(size int64) *Archive {
	if size < 0 {
		z.fail(Unreadable, "", "the archive reports a negative size")
		return nil
	}
	if z.limits.MaxArchiveBytes > 0 && size > z.limits.MaxArchiveBytes {
		z.fail(ArchiveTooLarge, "", "the archive is %d bytes, over the %d-byte budget", size, z.limits.MaxArchiveBytes)
		return nil
	}
	end, ok := z.readEnd(size)
	if !ok {
		return nil
	}
	a := &Archive{r: z.r}
	if !z.readCentral(end, a) {
		return nil
	}
	z.readLocals(end.cdOff, a)
	z.checkSpans(end.cdOff, a)
	return a
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

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
