package petpack

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// failingReader fails every read, or panics when a test promises that no
// byte is read at all.
type failingReader struct{ panics bool }

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if f.panics {
		panic("the validator read the archive")
	}
	return 0, errors.New("disk on fire")
}

// lie makes e declare usize expanded bytes in both headers.
func lie(e *zent, usize uint32) {
	e.local = func(h []byte) { put32(h[22:], usize) }
	e.central = func(h []byte) { put32(h[24:], usize) }
}

// localRecord is e's local header and data as buildZip writes them.
func localRecord(e zent) []byte {
	b := buildZip(zspec{entries: []zent{e}})
	comp := e.comp
	if comp == nil {
		comp = e.data
	}
	return b[:localLen+len(e.name)+len(e.localExtra)+len(comp)]
}

func extra(name string, data []byte, edit func(e *zent)) []zent {
	es := entriesOf(validPackage(), false)
	e := zent{name: name, data: data, method: methodDeflate}
	if edit != nil {
		edit(&e)
	}
	return append(es, e)
}

const extName = "extensions/com.example.test/blob"

// TestContainerRules: every rule of stage 1, each broken alone by an
// archive crafted byte by byte.
func TestContainerRules(t *testing.T) {
	base := validPackage()
	good := rawZip(base)
	n := len(base)
	zip64Extra := []byte{1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	cases := []struct {
		name    string
		archive []byte
		want    Rule
	}{
		{"empty file", nil, RuleZipEndMissing},
		{"not a zip", []byte("this is not a zip archive at all"), RuleZipEndMissing},
		{"end record cut off", good[:len(good)-4], RuleZipEndMissing},
		{"trailing bytes", append(append([]byte(nil), good...), "tail"...), RuleZipTrailingData},
		{"comment longer than the file", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[20:], 9) }}), RuleZipCommentMismatch},
		{"zip64 count placeholder", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[8:], 0xffff); put16(e[10:], 0xffff) }}), RuleZip64Unsupported},
		{"zip64 offset placeholder", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put32(e[16:], 0xffffffff) }}), RuleZip64Unsupported},
		{"zip64 locator", buildZip(zspec{entries: func() []zent {
			es := entriesOf(base, false)
			es[n-1].comment = append([]byte{0x50, 0x4b, 0x06, 0x07}, make([]byte, 16)...)
			return es
		}()}), RuleZip64Unsupported},
		{"zip64 size placeholder", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.central = func(h []byte) { put32(h[20:], 0xffffffff) } })}), RuleZip64Unsupported},
		{"zip64 central extra", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.extra = zip64Extra })}), RuleZip64Unsupported},
		{"zip64 local extra", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.localExtra = zip64Extra })}), RuleZip64Unsupported},
		{"second disk", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[4:], 1) }}), RuleZipMultiDisk},
		{"entry on another disk", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.central = func(h []byte) { put16(h[34:], 1) } })}), RuleZipMultiDisk},
		{"directory past its end record", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put32(e[16:], le32(e[16:])+1) }}), RuleZipDirectoryOutOfRange},
		{"fewer records declared", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[8:], uint16(n-1)); put16(e[10:], uint16(n-1)) }}), RuleZipEntryCountMismatch},
		{"more records declared", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[8:], uint16(n+1)); put16(e[10:], uint16(n+1)) }}), RuleZipEntryCountMismatch},
		{"directory too small for its count", buildZip(zspec{entries: entriesOf(base, false), end: func(e []byte) { put16(e[8:], 4000); put16(e[10:], 4000) }}), RuleZipEntryCountMismatch},
		{"central signature", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.central = func(h []byte) { put32(h, 0x12345678) } })}), RuleZipDirectoryMalformed},
		{"central extra does not parse", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.extra = []byte{9, 9, 9} })}), RuleZipDirectoryMalformed},
		{"encrypted", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.flags = flagEncrypted })}), RuleZipEncrypted},
		{"strong encryption", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.flags = flagStrongEncrypted })}), RuleZipEncrypted},
		{"unknown flag", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.flags = 0x0020 })}), RuleZipFlagsUnsupported},
		{"bzip2", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.method = 12; e.comp = e.data })}), RuleZipMethodUnsupported},
		{"stored sizes differ", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.method = methodStore
			e.comp = append(append([]byte(nil), e.data...), 'x')
		})}), RuleZipStoredSizeMismatch},
		{"unix symlink", buildZip(zspec{entries: extra(extName, []byte("/etc/passwd"), func(e *zent) {
			e.madeBy, e.ext = creatorUnix<<8|20, 0xa1ff<<16
		})}), RuleEntrySymlink},
		{"macOS symlink", buildZip(zspec{entries: extra(extName, []byte("../../x"), func(e *zent) {
			e.madeBy, e.ext = creatorMacOSX<<8|20, 0xa1ed<<16
		})}), RuleEntrySymlink},
		{"windows reparse point", buildZip(zspec{entries: extra(extName, []byte("C:\\x"), func(e *zent) { e.ext = dosReparse })}), RuleEntrySymlink},
		{"fifo", buildZip(zspec{entries: extra(extName, nil, func(e *zent) { e.madeBy, e.ext = creatorUnix<<8|20, 0x11b6<<16 })}), RuleEntrySpecialFile},
		{"character device", buildZip(zspec{entries: extra(extName, nil, func(e *zent) { e.madeBy, e.ext = creatorUnix<<8|20, 0x21b6<<16 })}), RuleEntrySpecialFile},
		{"directory name with file mode", buildZip(zspec{entries: editEntry(base, "source/references/", func(e *zent) { e.madeBy, e.ext = creatorUnix<<8|20, 0x81a4<<16 })}), RuleEntryTypeMismatch},
		{"file name with directory mode", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.madeBy, e.ext = creatorUnix<<8|20, 0x41ed<<16 })}), RuleEntryTypeMismatch},
		{"file name with DOS directory bit", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.ext = dosDirectory })}), RuleEntryTypeMismatch},
		{"directory with data", buildZip(zspec{entries: editEntry(base, "source/references/", func(e *zent) { e.data = []byte("hidden") })}), RuleEntryTypeMismatch},
		{"local signature", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { put32(h, 0) } })}), RuleZipLocalHeaderMalformed},
		{"local extra does not parse", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.localExtra = []byte{1} })}), RuleZipLocalHeaderMalformed},
		{"local name", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { h[localLen] = 'B' } })}), RuleZipLocalHeaderMismatch},
		{"local name length", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.local = func(h []byte) { put16(h[26:], 9); put16(h[28:], 1) }
		})}), RuleZipLocalHeaderMismatch},
		{"local crc", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { put32(h[14:], 1) } })}), RuleZipLocalHeaderMismatch},
		{"local size", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { put32(h[22:], 7) } })}), RuleZipLocalHeaderMismatch},
		{"local method", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { put16(h[8:], 0) } })}), RuleZipLocalHeaderMismatch},
		{"local flags", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.local = func(h []byte) { put16(h[6:], flagUTF8) } })}), RuleZipLocalHeaderMismatch},
		{"descriptor disagrees", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.descriptor = true
			e.desc = func(d []byte) []byte { put32(d[4:], 0xdeadbeef); return d }
		})}), RuleZipDataDescriptorMismatch},
		{"descriptor missing", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.descriptor = true
			e.desc = func(d []byte) []byte { return nil }
		})}), RuleZipDataDescriptorMismatch},
		{"data runs into the directory", buildZip(zspec{entries: editEntry(base, "build/validation.json", func(e *zent) {
			e.local = func(h []byte) { put32(h[18:], le32(h[18:])+10) }
			e.central = func(h []byte) { put32(h[20:], le32(h[20:])+10) }
		})}), RuleZipEntryIntoDirectory},
		{"local header inside the directory", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.central = func(h []byte) { put32(h[42:], uint32(len(good)-endLen-10)) }
		})}), RuleZipEntryIntoDirectory},
		{"prepended stub", buildZip(zspec{entries: entriesOf(base, false), prefix: []byte("#!/bin/sh\nexec unzip \"$0\"\n")}), RuleZipPrependedData},
		{"entry inside another entry", buildZip(zspec{entries: func() []zent {
			inner := zent{name: "extensions/com.example.b/blob", data: []byte("quoted inside a"), method: methodStore}
			outerName := "extensions/com.example.a/blob"
			outer := zent{name: outerName, data: localRecord(inner), method: methodStore}
			inner.noLocal, inner.offset = true, localLen+len(outerName)
			return append([]zent{outer, inner}, entriesOf(base, false)...)
		}()}), RuleZipEntryOverlap},
		{"overlapping-files bomb", buildZip(zspec{entries: func() []zent {
			bomb := zent{name: "extensions/com.example.a/blob", data: make([]byte, 1<<16), method: methodDeflate}
			es := []zent{bomb}
			for i := 0; i < 20; i++ {
				b := bomb
				b.noLocal = true
				es = append(es, b)
			}
			return append(es, entriesOf(base, false)...)
		}()}), RuleZipEntryOverlap},
		{"gap between entries", buildZip(zspec{entries: entriesOf(base, false), gapAfter: map[int][]byte{3: []byte("gap!")}}), RuleZipGap},
		{"gap before the directory", buildZip(zspec{entries: entriesOf(base, false), beforeCD: []byte("gap!")}), RuleZipGap},
		{"gap after the directory", buildZip(zspec{entries: entriesOf(base, false), afterCD: []byte("gap!")}), RuleZipGap},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(tc.archive), tc.want)
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		expectRules(t, Validate(failingReader{}, 4096), RulePackageUnreadable)
	})
}

// TestArchiveBudgets: the budgets of section 11 that the archive's
// records declare are applied before anything is inflated.
func TestArchiveBudgets(t *testing.T) {
	base := validPackage()
	many := func(n int) []zent {
		es := make([]zent, n)
		for i := range es {
			es[i] = zent{name: fmt.Sprintf("data%05d", i), method: methodStore}
		}
		return es
	}
	// lying adds n root data files, one letter each to keep the bomb small,
	// declaring usize bytes apiece.
	lying := func(n int, usize uint32) []zent {
		es := entriesOf(base, false)
		for i := 0; i < n; i++ {
			e := zent{name: string(rune('a' + i)), method: methodDeflate, comp: []byte{3, 0}} // an empty fixed block
			lie(&e, usize)
			es = append(es, e)
		}
		return es
	}
	zeros := deflate(make([]byte, 1<<20))
	cases := []struct {
		name    string
		archive []byte
		want    Rule
	}{
		{"5001 entries", buildZip(zspec{entries: many(MaxEntries + 1)}), RuleTooManyEntries},
		{"an end record declaring 5001 entries", buildZip(zspec{end: func(e []byte) { put16(e[8:], 5001); put16(e[10:], 5001) }}), RuleTooManyEntries},
		{"one entry declaring 300 MiB", buildZip(zspec{entries: lying(1, 300<<20)}), RuleEntryTooLarge},
		{"17 entries declaring 255 MiB each", buildZip(zspec{entries: lying(17, 255<<20)}), RuleExpandedTooLarge},
		{"manifest over 1 MiB", rawZip(base.with("manifest.json", append(append([]byte(nil), base.get("manifest.json")...), bytes.Repeat([]byte(" "), MaxManifestBytes)...))), RuleManifestTooLarge},
		{"inflates past its declared size", buildZip(zspec{entries: extra(extName, nil, func(e *zent) {
			e.data, e.comp = make([]byte, 1<<20), zeros
			lie(e, 100)
		})}), RuleEntrySizeMismatch},
		{"holds less than its declared size", buildZip(zspec{entries: extra(extName, []byte("ten bytes!"), func(e *zent) { lie(e, 1000) })}), RuleEntrySizeMismatch},
		{"crc", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.local = func(h []byte) { put32(h[14:], 0x01020304) }
			e.central = func(h []byte) { put32(h[16:], 0x01020304) }
		})}), RuleEntryCRCMismatch},
		{"crc of zero", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.local = func(h []byte) { put32(h[14:], 0) }
			e.central = func(h []byte) { put32(h[16:], 0) }
		})}), RuleEntryCRCMismatch},
		{"crc of a stored entry", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			e.method = methodStore
			e.comp = append([]byte(nil), e.data...)
			e.comp[0] ^= 1
		})}), RuleEntryCRCMismatch},
		{"corrupt deflate", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.comp = bytes.Repeat([]byte{0xff}, 40) })}), RuleEntryDataCorrupt},
		{"truncated deflate", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.comp = deflate(e.data)[:10] })}), RuleEntryDataCorrupt},
		{"bytes after the deflate stream", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) { e.comp = append(deflate(e.data), "junk"...) })}), RuleEntryDataCorrupt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(tc.archive), tc.want)
		})
	}
	t.Run("archive over 1 GiB", func(t *testing.T) {
		expectRules(t, Validate(failingReader{panics: true}, MaxArchiveBytes+1), RuleArchiveTooLarge)
	})
	t.Run("bomb archives are small", func(t *testing.T) {
		for _, b := range [][]byte{
			buildZip(zspec{entries: lying(17, 255<<20)[len(base):]}),
			buildZip(zspec{entries: lying(1, 300<<20)[len(base):]}),
		} {
			if len(b) > 1400 {
				t.Errorf("bomb of %d bytes", len(b))
			}
			if v := validateBytes(b); v.OK() {
				t.Error("bomb accepted")
			}
		}
	})
}

// TestPathRules: each name, added to a valid package, breaks exactly its
// rule, and stays out of the tree so nothing else is reported.
func TestPathRules(t *testing.T) {
	cases := []struct {
		name string
		want Rule
	}{
		{"", RulePathEmpty},
		{strings.Repeat("x", MaxPathBytes+1), RulePathTooLong},
		{"extensions/com.example.x/" + strings.Repeat("y", 65000), RulePathTooLong},
		{"a\x00b", RulePathNUL},
		{"a\x01b", RulePathControlByte},
		{"a\x7fb", RulePathControlByte},
		{"a\nb", RulePathControlByte},
		{`assets\frames\idle\0006.png`, RulePathBackslash},
		{`..\..\evil`, RulePathBackslash},
		{"/etc/passwd", RulePathAbsolute},
		{"C:/Windows/x", RulePathDrivePrefix},
		{"c:evil", RulePathDrivePrefix},
		{"../evil", RulePathDotDot},
		{"assets/../../evil", RulePathDotDot},
		{"..", RulePathDotDot},
		{"./x", RulePathDotSegment},
		{"assets/./x", RulePathDotSegment},
		{".", RulePathDotSegment},
		{"a//b", RulePathEmptySegment},
		{"extensions/com.example.x//b", RulePathEmptySegment},
		{"NUL", RulePathDeviceName},
		{"nul.txt", RulePathDeviceName},
		{"extensions/com.example.x/COM1.png", RulePathDeviceName},
		{"extensions/com.example.x/lpt9 .txt", RulePathDeviceName},
		{"extensions/com.example.x/com\u00b9", RulePathDeviceName},
		{"conin$", RulePathDeviceName},
		{"ab:c", RulePathNotPortable},
		{"what?", RulePathNotPortable},
		{"a|b", RulePathNotPortable},
		{"trailing.", RulePathNotPortable},
		{"trailing ", RulePathNotPortable},
		{"caf\x65\u0301", RulePathNotPortable},
		{"bad\xffutf8", RulePathNotPortable},
		{"brief.json", RulePathDuplicate},
		{"BRIEF.JSON", RulePathCaseCollision},
		{"Assets/x", RulePathCaseCollision},
		{"assets/frames/idle/0000.PNG", RulePathCaseCollision},
		{"\u212aelvin", RulePathCaseCollision}, // the Kelvin sign folds to k
		{"brief.json/", RulePathFileDirectoryConflict},
		{"brief.json/x", RulePathFileDirectoryConflict},
		{"assets", RulePathFileDirectoryConflict},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%.40q", tc.name), func(t *testing.T) {
			p := validPackage()
			if tc.want == RulePathCaseCollision && strings.HasPrefix(tc.name, "\u212a") {
				p = p.with("kelvin", []byte("k"))
			}
			data := []byte("x")
			if strings.HasSuffix(tc.name, "/") {
				data = nil
			}
			expectRules(t, validateBytes(rawZip(append(p, pkgFile{tc.name, data}))), tc.want)
		})
	}
	t.Run("a UNC name", func(t *testing.T) {
		p := validPackage()
		expectRules(t, validateBytes(rawZip(append(p, pkgFile{"//server/share/x", []byte("x")}))), RulePathAbsolute, RulePathEmptySegment)
	})
	t.Run("a directory beside a file of its name", func(t *testing.T) {
		p := validPackage().with("notes", []byte("n"))
		expectRules(t, validateBytes(rawZip(append(p, pkgFile{"notes/", nil}))), RulePathFileDirectoryConflict)
	})
	t.Run("a directory listed twice", func(t *testing.T) {
		p := validPackage()
		expectRules(t, validateBytes(rawZip(append(p, pkgFile{"source/references/", nil}))), RulePathDuplicate)
	})
}
