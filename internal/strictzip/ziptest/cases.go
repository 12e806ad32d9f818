package ziptest

import (
	"bytes"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// Base is the honest archive the cases break: the strict reader's tests
// use a few small entries, runtime/petpack's a whole valid package, so
// each case is known to fail for its own reason and no other.
type Base struct {
	// Entries are at least four, files deflated and directories stored
	// (as Build writes them), the last one a file.
	Entries []Entry
	// File names a deflated file of Entries, Dir a directory entry.
	File, Dir string
	// Added is a new name for the entries a case adds.
	Added string
}

// Case is one archive and what the strict reader makes of it.
type Case struct {
	Name    string
	Archive []byte
	// Want are the reasons reported, by Open or by reading the entries
	// (nil: the archive is accepted and every entry reads back).
	Want []strictzip.Reason
}

// with adds one entry named b.Added after b's entries.
func (b Base) with(data []byte, edit func(e *Entry)) []Entry {
	e := Entry{Name: b.Added, Data: data, Method: strictzip.Deflate}
	if edit != nil {
		edit(&e)
	}
	return append(append([]Entry(nil), b.Entries...), e)
}

func (b Base) edit(name string, edit func(e *Entry)) []Entry { return Edit(b.Entries, name, edit) }

func (b Base) spec() Spec { return Spec{Entries: b.Entries} }

func (b Base) endEdit(edit func(e []byte)) []byte {
	return Build(Spec{Entries: b.Entries, End: edit})
}

// fileIndex is the position of b.File.
func (b Base) fileIndex() int {
	for i, e := range b.Entries {
		if e.Name == b.File {
			return i
		}
	}
	panic("no entry " + b.File)
}

func want(r ...strictzip.Reason) []strictzip.Reason { return r }

// Accepted are honest archives in the shapes producers write them: each
// must be read, every entry's content intact.
func Accepted(b Base) []Case {
	unixModes := append([]Entry(nil), b.Entries...)
	for i := range unixModes {
		unixModes[i].MadeBy = zipspec.CreatorUnix<<8 | 20
		unixModes[i].Ext = 0x81a4 << 16
		if name := unixModes[i].Name; name[len(name)-1] == '/' {
			unixModes[i].Ext = 0x41ed<<16 | zipspec.DOSDirectory
		}
	}
	stored := append([]Entry(nil), b.Entries...)
	descriptors := append([]Entry(nil), b.Entries...)
	for i := range stored {
		stored[i].Method = strictzip.Store
		descriptors[i].Descriptor = true
	}
	return []Case{
		{"archive/zip with data descriptors", ArchiveZip(b.Entries), nil},
		{"raw deflate", Build(b.spec()), nil},
		{"raw stored", Build(Spec{Entries: stored}), nil},
		{"raw with descriptors", Build(Spec{Entries: descriptors}), nil},
		{"descriptors without signature", Build(Spec{Entries: Edit(b.Entries, b.Entries[3].Name, func(e *Entry) {
			e.Descriptor = true
			e.Desc = func(d []byte) []byte { return d[4:] }
		})}), nil},
		{"long extra fields", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			x := append([]byte{0xfe, 0xca, 0x2c, 0x01}, make([]byte, 300)...) // tag 0xcafe, 300 bytes
			e.Extra, e.LocalExtra = x, x
		})}), nil},
		{"archive comment", Build(Spec{Entries: b.Entries, Comment: []byte("made by a test")}), nil},
		{"unix modes", Build(Spec{Entries: unixModes}), nil},
		{"python force_zip64", Build(Spec{Entries: Zip64Entries(b.Entries, false, nil)}), nil},
		{"zip -fz", WithZip64End(Spec{Entries: Zip64Entries(b.Entries, true, nil)}, nil), nil},
		{"a Zip64 end record with no placeholder", WithZip64End(b.spec(), func(z, _, e []byte) {
			Put32(e[16:], uint32(Le64(z[48:])))
		}), nil},
	}
}

// Refused are archives that each break one rule of the strict reader
// (Zip64 ones in Zip64Refused): the structure, an entry's record, its
// local header, the tiling of the bytes, or its content.
func Refused(b Base) []Case {
	good := Build(b.spec())
	n := len(b.Entries)
	last := b.Entries[n-1].Name
	zeros := Deflate(make([]byte, 1<<20))
	return []Case{
		{"empty file", nil, want(strictzip.EndMissing)},
		{"not a zip", []byte("this is not a zip archive at all"), want(strictzip.EndMissing)},
		{"end record cut off", good[:len(good)-4], want(strictzip.EndMissing)},
		{"trailing bytes", append(append([]byte(nil), good...), "tail"...), want(strictzip.TrailingData)},
		{"comment longer than the file", b.endEdit(func(e []byte) { Put16(e[20:], 9) }), want(strictzip.CommentMismatch)},
		{"second disk", b.endEdit(func(e []byte) { Put16(e[4:], 1) }), want(strictzip.MultiDisk)},
		{"entry on another disk", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Central = func(h []byte) { Put16(h[34:], 1) } })}), want(strictzip.MultiDisk)},
		{"directory past its end record", b.endEdit(func(e []byte) { Put32(e[16:], Le32(e[16:])+1) }), want(strictzip.DirectoryOutOfRange)},
		{"directory outside the file", b.endEdit(func(e []byte) { Put32(e[16:], uint32(len(good))+1) }), want(strictzip.DirectoryOutOfRange)},
		{"fewer records declared", b.endEdit(func(e []byte) { Put16(e[8:], uint16(n-1)); Put16(e[10:], uint16(n-1)) }), want(strictzip.EntryCountMismatch)},
		{"more records declared", b.endEdit(func(e []byte) { Put16(e[8:], uint16(n+1)); Put16(e[10:], uint16(n+1)) }), want(strictzip.EntryCountMismatch)},
		{"directory too small for its count", b.endEdit(func(e []byte) { Put16(e[8:], 4000); Put16(e[10:], 4000) }), want(strictzip.EntryCountMismatch)},
		{"central signature", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Central = func(h []byte) { Put32(h, 0x12345678) } })}), want(strictzip.DirectoryMalformed)},
		{"central extra does not parse", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Extra = []byte{9, 9, 9} })}), want(strictzip.DirectoryMalformed)},
		{"encrypted", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Flags = zipspec.FlagEncrypted })}), want(strictzip.Encrypted)},
		{"strong encryption", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Flags = zipspec.FlagStrongEncrypted })}), want(strictzip.Encrypted)},
		{"unknown flag", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Flags = 0x0020 })}), want(strictzip.FlagsUnsupported)},
		{"bzip2", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Method = 12; e.Comp = e.Data })}), want(strictzip.MethodUnsupported)},
		{"stored sizes differ", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Method = strictzip.Store
			e.Comp = append(append([]byte(nil), e.Data...), 'x')
		})}), want(strictzip.StoredSizeMismatch)},
		{"unix symlink", Build(Spec{Entries: b.with([]byte("/etc/passwd"), func(e *Entry) {
			e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0xa1ff<<16
		})}), want(strictzip.Symlink)},
		{"macOS symlink", Build(Spec{Entries: b.with([]byte("../../x"), func(e *Entry) {
			e.MadeBy, e.Ext = zipspec.CreatorMacOSX<<8|20, 0xa1ed<<16
		})}), want(strictzip.Symlink)},
		{"windows reparse point", Build(Spec{Entries: b.with([]byte("C:\\x"), func(e *Entry) { e.Ext = zipspec.DOSReparse })}), want(strictzip.Symlink)},
		{"fifo", Build(Spec{Entries: b.with(nil, func(e *Entry) { e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0x11b6<<16 })}), want(strictzip.SpecialFile)},
		{"character device", Build(Spec{Entries: b.with(nil, func(e *Entry) { e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0x21b6<<16 })}), want(strictzip.SpecialFile)},
		{"directory name with file mode", Build(Spec{Entries: b.edit(b.Dir, func(e *Entry) { e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0x81a4<<16 })}), want(strictzip.TypeMismatch)},
		{"file name with directory mode", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0x41ed<<16 })}), want(strictzip.TypeMismatch)},
		{"file name with DOS directory bit", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Ext = zipspec.DOSDirectory })}), want(strictzip.TypeMismatch)},
		{"directory with data", Build(Spec{Entries: b.edit(b.Dir, func(e *Entry) { e.Data = []byte("hidden") })}), want(strictzip.TypeMismatch)},
		{"local signature", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { Put32(h, 0) } })}), want(strictzip.LocalHeaderMalformed)},
		{"local extra does not parse", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.LocalExtra = []byte{1} })}), want(strictzip.LocalHeaderMalformed)},
		{"local name", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { h[zipspec.LocalLen] = 'B' } })}), want(strictzip.LocalHeaderMismatch)},
		{"local name length", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Local = func(h []byte) { Put16(h[26:], 9); Put16(h[28:], 1) }
		})}), want(strictzip.LocalHeaderMismatch)},
		{"local crc", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { Put32(h[14:], 1) } })}), want(strictzip.LocalHeaderMismatch)},
		{"local size", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { Put32(h[22:], 7) } })}), want(strictzip.LocalHeaderMismatch)},
		{"local method", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { Put16(h[8:], 0) } })}), want(strictzip.LocalHeaderMismatch)},
		{"local flags", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Local = func(h []byte) { Put16(h[6:], zipspec.FlagUTF8) } })}), want(strictzip.LocalHeaderMismatch)},
		{"descriptor disagrees", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Descriptor = true
			e.Desc = func(d []byte) []byte { Put32(d[4:], 0xdeadbeef); return d }
		})}), want(strictzip.DataDescriptorMismatch)},
		{"descriptor missing", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Descriptor = true
			e.Desc = func(d []byte) []byte { return nil }
		})}), want(strictzip.DataDescriptorMismatch)},
		{"data runs into the directory", Build(Spec{Entries: b.edit(last, func(e *Entry) {
			e.Local = func(h []byte) { Put32(h[18:], Le32(h[18:])+10) }
			e.Central = func(h []byte) { Put32(h[20:], Le32(h[20:])+10) }
		})}), want(strictzip.EntryIntoDirectory)},
		{"local header inside the directory", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Central = func(h []byte) { Put32(h[42:], uint32(len(good)-zipspec.EndLen-10)) }
		})}), want(strictzip.EntryIntoDirectory)},
		{"prepended stub", Build(Spec{Entries: b.Entries, Prefix: []byte("#!/bin/sh\nexec unzip \"$0\"\n")}), want(strictzip.PrependedData)},
		{"bytes before the directory of an empty archive", Build(Spec{BeforeCD: []byte("stub")}), want(strictzip.PrependedData)},
		{"entry inside another entry", Build(Spec{Entries: func() []Entry {
			inner := Entry{Name: b.Added + ".b", Data: []byte("quoted inside a"), Method: strictzip.Store}
			outerName := b.Added + ".a"
			outer := Entry{Name: outerName, Data: LocalRecord(inner), Method: strictzip.Store}
			inner.NoLocal, inner.Offset = true, zipspec.LocalLen+len(outerName)
			return append([]Entry{outer, inner}, b.Entries...)
		}()}), want(strictzip.EntryOverlap)},
		{"overlapping-files bomb", Build(Spec{Entries: func() []Entry {
			bomb := Entry{Name: b.Added, Data: make([]byte, 1<<16), Method: strictzip.Deflate}
			es := []Entry{bomb}
			for i := 0; i < 20; i++ {
				b := bomb
				b.NoLocal = true
				es = append(es, b)
			}
			return append(es, b.Entries...)
		}()}), want(strictzip.EntryOverlap)},
		{"gap between entries", Build(Spec{Entries: b.Entries, GapAfter: map[int][]byte{3: []byte("gap!")}}), want(strictzip.Gap)},
		{"gap before the directory", Build(Spec{Entries: b.Entries, BeforeCD: []byte("gap!")}), want(strictzip.Gap)},
		{"gap after the directory", Build(Spec{Entries: b.Entries, AfterCD: []byte("gap!")}), want(strictzip.Gap)},
		{"inflates past its declared size", Build(Spec{Entries: b.with(nil, func(e *Entry) {
			e.Data, e.Comp = make([]byte, 1<<20), zeros
			Lie(e, 100)
		})}), want(strictzip.SizeMismatch)},
		{"holds less than its declared size", Build(Spec{Entries: b.with([]byte("ten bytes!"), func(e *Entry) { Lie(e, 1000) })}), want(strictzip.SizeMismatch)},
		{"crc", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Local = func(h []byte) { Put32(h[14:], 0x01020304) }
			e.Central = func(h []byte) { Put32(h[16:], 0x01020304) }
		})}), want(strictzip.CRCMismatch)},
		{"crc of zero", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Local = func(h []byte) { Put32(h[14:], 0) }
			e.Central = func(h []byte) { Put32(h[16:], 0) }
		})}), want(strictzip.CRCMismatch)},
		{"crc of a stored entry", Build(Spec{Entries: b.edit(b.File, func(e *Entry) {
			e.Method = strictzip.Store
			e.Comp = append([]byte(nil), e.Data...)
			e.Comp[0] ^= 1
		})}), want(strictzip.CRCMismatch)},
		{"corrupt deflate", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Comp = bytes.Repeat([]byte{0xff}, 40) })}), want(strictzip.DataCorrupt)},
		{"truncated deflate", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Comp = Deflate(e.Data)[:10] })}), want(strictzip.DataCorrupt)},
		{"bytes after the deflate stream", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Comp = append(Deflate(e.Data), "junk"...) })}), want(strictzip.DataCorrupt)},
	}
}

// Zip64Refused are Zip64 archives with one Zip64 value that disagrees with
// the rest of the archive: each is refused, with Zip64Unsupported and a
// message that names Zip64 unless Want says otherwise.
func Zip64Refused(b Base) []Case {
	fi := b.fileIndex()
	onFile := func(edit func(e *Entry)) func(int, *Entry) {
		return func(i int, e *Entry) {
			if i == fi {
				edit(e)
			}
		}
	}
	z64 := want(strictzip.Zip64Unsupported)
	return []Case{
		{"zip64 count placeholder", b.endEdit(func(e []byte) { Put16(e[8:], 0xffff); Put16(e[10:], 0xffff) }), z64},
		{"zip64 offset placeholder", b.endEdit(func(e []byte) { Put32(e[16:], 0xffffffff) }), z64},
		{"zip64 locator", Build(Spec{Entries: func() []Entry {
			es := append([]Entry(nil), b.Entries...)
			es[len(es)-1].Comment = append([]byte{0x50, 0x4b, 0x06, 0x07}, make([]byte, 16)...)
			return es
		}()}), z64},
		{"zip64 size placeholder", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Central = func(h []byte) { Put32(h[20:], 0xffffffff) } })}), z64},
		{"zip64 central extra", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.Extra = zip64Extra() })}), z64},
		{"zip64 local extra", Build(Spec{Entries: b.edit(b.File, func(e *Entry) { e.LocalExtra = zip64Extra() })}), z64},
		{"local Zip64 size off by one", Build(Spec{Entries: Zip64Entries(b.Entries, false, onFile(func(e *Entry) { Put64(e.LocalExtra[4:], uint64(len(e.Data)+1)) }))}), z64},
		{"local placeholders without the extra field", Build(Spec{Entries: Zip64Entries(b.Entries, false, onFile(func(e *Entry) { e.LocalExtra = nil }))}), z64},
		{"local extra field of one size", Build(Spec{Entries: Zip64Entries(b.Entries, false, onFile(func(e *Entry) { e.LocalExtra = e.LocalExtra[:12]; Put16(e.LocalExtra[2:], 8) }))}), z64},
		{"central placeholder without the extra field", WithZip64End(Spec{Entries: Zip64Entries(b.Entries, true, onFile(func(e *Entry) { e.Extra = nil }))}, nil), z64},
		{"central extra field longer than its placeholders", WithZip64End(Spec{Entries: Zip64Entries(b.Entries, true, onFile(func(e *Entry) {
			e.Extra = append(append([]byte(nil), e.Extra...), make([]byte, 8)...)
			Put16(e.Extra[2:], 16)
		}))}, nil), z64},
		{"central Zip64 size beyond any archive", WithZip64End(Spec{Entries: Zip64Entries(b.Entries, true, onFile(func(e *Entry) { Put64(e.Extra[4:], 1<<63); Put64(e.LocalExtra[4:], 1<<63) }))}, nil), z64},
		{"Zip64 end record counting one more entry", WithZip64End(Spec{Entries: Zip64Entries(b.Entries, true, nil)}, func(z, _, _ []byte) { Put64(z[32:], Le64(z[32:])+1) }), z64},
		{"Zip64 end record with another directory offset", WithZip64End(b.spec(), func(z, _, e []byte) {
			Put32(e[16:], uint32(Le64(z[48:])))
			Put64(z[48:], Le64(z[48:])+1)
		}), z64},
		{"locator pointing past the record", WithZip64End(b.spec(), func(_, l, _ []byte) { Put64(l[8:], Le64(l[8:])+1) }), z64},
		{"locator of two disks", WithZip64End(b.spec(), func(_, l, _ []byte) { Put32(l[16:], 2) }), z64},
		{"Zip64 end record with extensible data", WithZip64End(b.spec(), func(z, _, _ []byte) { Put64(z[4:], zipspec.End64Len) }), z64},
		{"Zip64 end record on another disk", WithZip64End(b.spec(), func(z, _, e []byte) { Put32(z[16:], 1); Put16(e[4:], 0xffff) }), want(strictzip.MultiDisk)},
	}
}

// zip64Extra is a Zip64 extra field of one 8-byte value, which no record
// without a placeholder may carry.
func zip64Extra() []byte { return []byte{1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0} }
