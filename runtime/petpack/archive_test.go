package petpack

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
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

// TestContainerRules: every ZIP rule, each broken alone by one of
// ziptest's hostile archives (internal/strictzip holds the same archives
// against its reasons), is reported under its rule through the adapter;
// a Zip64 rejection says Zip64.
func TestContainerRules(t *testing.T) {
	b := zipBase()
	for _, tc := range append(ziptest.Refused(b), ziptest.Zip64Refused(b)...) {
		t.Run(tc.Name, func(t *testing.T) {
			var want []Rule
			for _, r := range tc.Want {
				want = append(want, zipRule(r))
			}
			v := validateBytes(tc.Archive)
			expectRules(t, v, want...)
			for _, f := range v.Errors {
				if f.Rule == RuleZip64Unsupported && !strings.Contains(strings.ToLower(f.Msg), "zip64") {
					t.Errorf("message does not name Zip64: %s", f)
				}
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		expectRules(t, Validate(failingReader{}, 4096), RulePackageUnreadable)
	})
}

// TestZipRules: every reason of the ZIP reader has its own rule, spelled
// the same, so the identifiers tools and apps match on never changed.
func TestZipRules(t *testing.T) {
	seen := map[Rule]bool{}
	for _, r := range strictzip.Reasons() {
		rule := zipRule(r)
		if string(rule) != string(r) || rule.Stage() == 0 || seen[rule] {
			t.Errorf("reason %s maps onto %s", r, rule)
		}
		seen[rule] = true
	}
}

// TestArchiveBudgets: the budgets of section 11 that the archive's
// records declare are applied before anything is inflated.
func TestArchiveBudgets(t *testing.T) {
	base := validPackage()
	many := func(n int) []ziptest.Entry {
		es := make([]ziptest.Entry, n)
		for i := range es {
			es[i] = ziptest.Entry{Name: fmt.Sprintf("data%05d", i), Method: strictzip.Store}
		}
		return es
	}
	// lying adds n root data files, one letter each to keep the bomb small,
	// declaring usize bytes apiece.
	lying := func(n int, usize uint32) []ziptest.Entry {
		es := entriesOf(base, false)
		for i := 0; i < n; i++ {
			e := ziptest.Entry{Name: string(rune('a' + i)), Method: strictzip.Deflate, Comp: []byte{3, 0}} // an empty fixed block
			ziptest.Lie(&e, usize)
			es = append(es, e)
		}
		return es
	}
	cases := []struct {
		name    string
		archive []byte
		want    []Rule
	}{
		{"5001 entries", ziptest.Build(ziptest.Spec{Entries: many(MaxEntries + 1)}), []Rule{RuleTooManyEntries}},
		{"an end record declaring 5001 entries", ziptest.Build(ziptest.Spec{End: func(e []byte) { ziptest.Put16(e[8:], 5001); ziptest.Put16(e[10:], 5001) }}), []Rule{RuleTooManyEntries}},
		{"one entry declaring 300 MiB", ziptest.Build(ziptest.Spec{Entries: lying(1, 300<<20)}), []Rule{RuleEntryTooLarge}},
		{"17 entries declaring 255 MiB each", ziptest.Build(ziptest.Spec{Entries: lying(17, 255<<20)}), []Rule{RuleExpandedTooLarge}},
		{"manifest over 1 MiB", rawZip(base.with("manifest.json", append(append([]byte(nil), base.get("manifest.json")...), bytes.Repeat([]byte(" "), MaxManifestBytes)...))), []Rule{RuleManifestTooLarge}},
		{"central Zip64 size beyond the budget", ziptest.WithZip64End(ziptest.Spec{Entries: ziptest.Zip64Entries(entriesOf(base, false), true, func(_ int, e *ziptest.Entry) {
			if e.Name == briefPath {
				ziptest.Put64(e.Extra[4:], 1<<40)
				ziptest.Put64(e.LocalExtra[4:], 1<<40)
			}
		})}, nil), []Rule{RuleEntryTooLarge, RuleExpandedTooLarge}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(tc.archive), tc.want...)
		})
	}
	t.Run("archive over 1 GiB", func(t *testing.T) {
		expectRules(t, Validate(failingReader{panics: true}, MaxArchiveBytes+1), RuleArchiveTooLarge)
	})
	t.Run("bomb archives are small", func(t *testing.T) {
		for _, b := range [][]byte{
			ziptest.Build(ziptest.Spec{Entries: lying(17, 255<<20)[len(base):]}),
			ziptest.Build(ziptest.Spec{Entries: lying(1, 300<<20)[len(base):]}),
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
