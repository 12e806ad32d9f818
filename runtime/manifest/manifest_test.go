package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
)

// canonical is the example of manifest contract section 10.
func canonical(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/canonical.petasset")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// build assembles a manifest from its four section bodies.
func build(images, animations, roles, fallback string) string {
	return "manifest pet 1\n[images]\n" + images + "[animations]\n" + animations +
		"[roles]\n" + roles + "[fallback]\n" + fallback
}

const (
	oneImage = "img sprites/a.png\n"
	oneAnim  = "anim img 100\n"
	oneRole  = "role anim\n"
	oneFall  = "role\n"
)

func minimal() string { return build(oneImage, oneAnim, oneRole, oneFall) }

func repeatLines(n int, f func(i int) string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(f(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// frames returns n "<image> <ms>" pairs.
func frames(n int, image string, ms int) string {
	return strings.TrimSpace(strings.Repeat(fmt.Sprintf("%s %d ", image, ms), n))
}

func TestCanonical(t *testing.T) {
	m, err := Parse([]byte(canonical(t)))
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		Images: []Image{
			{"sprite_fallback", "sprites/fallback.png"},
			{"sprite_idle", "sprites/idle.png"},
			{"sprite_curious", "sprites/curious.png"},
			{"sprite_attentive", "sprites/attentive.png"},
			{"sprite_happy", "sprites/happy.png"},
		},
		Animations: []Animation{
			{"anim_fallback", 0, 1}, {"anim_idle", 1, 1}, {"anim_curious", 2, 1},
			{"anim_attentive", 3, 1}, {"anim_happy", 4, 2},
		},
		Frames: []Frame{{0, 1000}, {1, 900}, {2, 700}, {3, 700}, {4, 300}, {1, 300}},
		Roles: []Role{
			{"activity_idle", 1}, {"activity_curious", 2}, {"activity_attentive", 3},
			{"expression_neutral", 1}, {"expression_happy", 4}, {"fallback_default", 0},
		},
		Fallback: 5,
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("canonical manifest:\n got %+v\nwant %+v", m, want)
	}
	if got := m.AnimationFrames(4); !reflect.DeepEqual(got, []Frame{{4, 300}, {1, 300}}) {
		t.Errorf("AnimationFrames(anim_happy) = %v", got)
	}
	if m.RoleIndex("expression_happy") != 4 || m.RoleIndex("nope") != -1 {
		t.Errorf("RoleIndex wrong")
	}
}

// TestConformance covers every rejection of manifest contract section 12,
// the byte rules of section 4.1, every path rule of section 7 and both sides
// of every limit of section 8.
func TestConformance(t *testing.T) {
	limitID := "a" + strings.Repeat("b", MaxIdentifierBytes-1)
	longPath := func(n int) string { return strings.Repeat("d/", (n-6)/2) + strings.Repeat("x", (n-6)%2) + "ab.png" }
	images := func(n int) string {
		return repeatLines(n, func(i int) string { return fmt.Sprintf("img%d sprites/%d.png", i, i) })
	}
	animsOver := func(n, perAnim int) string {
		return repeatLines(n, func(i int) string { return fmt.Sprintf("anim%d %s", i, frames(perAnim, "img", 10)) })
	}
	pad := func(size int) string { // a file of exactly size bytes
		base := minimal() + "\n"
		var b strings.Builder
		b.WriteString(base)
		for b.Len() < size {
			n := size - b.Len() - 1
			if n > 100 {
				n = 100
			}
			if n == 0 {
				b.WriteString("\n")
				continue
			}
			b.WriteString("#" + strings.Repeat("c", n-1) + "\n")
		}
		return b.String()
	}
	cases := []struct {
		name string
		text string
		rule Rule // "" for accepted
		line int
	}{
		{"minimal", minimal(), "", 0},
		{"canonical", canonical(t), "", 0},
		{"no final newline", strings.TrimSuffix(minimal(), "\n"), "", 0},
		{"comments and blanks before header", "# hi\n\n   # indented\nmanifest pet 1\n[images]\n" + oneImage + "\n[animations]\n" + oneAnim + "[roles]\n" + oneRole + "[fallback]\n" + oneFall, "", 0},
		{"leading and trailing spaces", "  manifest   pet  1  \n [images] \n  img   sprites/a.png  \n[animations]\n" + oneAnim + "[roles]\n" + oneRole + "[fallback]\n  role  \n", "", 0},
		{"empty sections allowed until fallback", build("", "", "", ""), RuleFallbackCount, 5},
		{"unused image accepted", build(oneImage+"other sprites/b.png\n", oneAnim, oneRole, oneFall), "", 0},

		// Header.
		{"empty file", "", RuleHeaderMissing, 1},
		{"only comments", "# nothing\n\n", RuleHeaderMissing, 2},
		{"section before header", "[images]\n", RuleHeaderMissing, 1},
		{"header two fields", "manifest pet\n", RuleHeaderMalformed, 1},
		{"header extra field", "manifest pet 1 extra\n", RuleHeaderMalformed, 1},
		{"header bad kind", "manifest Pet 1\n", RuleHeaderMalformed, 1},
		{"header signed version", "manifest pet +1\n", RuleHeaderMalformed, 1},
		{"header huge version", "manifest pet 99999999999999999999999\n", RuleHeaderMalformed, 1},
		{"kind ui", "manifest ui 1\n[images]\n", RuleUnsupportedKind, 1},
		{"version 2", "manifest pet 2\n", RuleUnsupportedVersion, 1},
		{"version 0", "manifest pet 0\n", RuleUnsupportedVersion, 1},
		{"second header is a directive outside section", "manifest pet 1\nmanifest pet 1\n", RuleDirectiveOutsideSection, 2},

		// Sections.
		{"unknown section", "manifest pet 1\n[sounds]\n", RuleUnknownSection, 2},
		{"section name case", "manifest pet 1\n[Images]\n", RuleUnknownSection, 2},
		{"section header extra field", "manifest pet 1\n[images] x\n", RuleSectionHeaderMalformed, 2},
		{"section header unclosed", "manifest pet 1\n[images\n", RuleSectionHeaderMalformed, 2},
		{"section header empty", "manifest pet 1\n[]\n", RuleSectionHeaderMalformed, 2},
		{"section header spaced", "manifest pet 1\n[ images ]\n", RuleSectionHeaderMalformed, 2},
		{"section out of order", "manifest pet 1\n[animations]\n", RuleSectionOutOfOrder, 2},
		{"section skipped", "manifest pet 1\n[images]\n" + oneImage + "[roles]\n", RuleSectionOutOfOrder, 4},
		{"section repeated", "manifest pet 1\n[images]\n[images]\n", RuleSectionOutOfOrder, 3},
		{"section backwards", build(oneImage, oneAnim, oneRole, oneFall) + "[roles]\n", RuleSectionOutOfOrder, 10},
		{"sections missing at end", "manifest pet 1\n[images]\n" + oneImage, RuleSectionMissing, 3},
		{"fallback section missing", "manifest pet 1\n[images]\n" + oneImage + "[animations]\n" + oneAnim + "[roles]\n" + oneRole, RuleSectionMissing, 7},
		{"directive before section", "manifest pet 1\nimg sprites/a.png\n", RuleDirectiveOutsideSection, 2},

		// Directive forms.
		{"image one field", build("img\n", oneAnim, oneRole, oneFall), RuleDirectiveForm, 3},
		{"image extra field", build("img sprites/a.png extra\n", oneAnim, oneRole, oneFall), RuleDirectiveForm, 3},
		{"inline comment is an extra field", build("img sprites/a.png # note\n", oneAnim, oneRole, oneFall), RuleDirectiveForm, 3},
		{"animation without frames", build(oneImage, "anim\n", oneRole, oneFall), RuleDirectiveForm, 5},
		{"animation missing duration", build(oneImage, "anim img\n", oneRole, oneFall), RuleDirectiveForm, 5},
		{"animation dangling image", build(oneImage, "anim img 100 img\n", oneRole, oneFall), RuleDirectiveForm, 5},
		{"role one field", build(oneImage, oneAnim, "role\n", oneFall), RuleDirectiveForm, 7},
		{"role extra field", build(oneImage, oneAnim, "role anim x\n", oneFall), RuleDirectiveForm, 7},
		{"fallback two fields", build(oneImage, oneAnim, oneRole, "role role\n"), RuleDirectiveForm, 9},

		// Identifiers.
		{"identifier at 31 bytes", build(limitID+" sprites/a.png\n", "anim "+limitID+" 1\n", oneRole, oneFall), "", 0},
		{"identifier at 32 bytes", build(limitID+"c sprites/a.png\n", oneAnim, oneRole, oneFall), RuleIdentifierTooLong, 3},
		{"identifier uppercase", build("Img sprites/a.png\n", oneAnim, oneRole, oneFall), RuleInvalidIdentifier, 3},
		{"identifier leading digit", build("1img sprites/a.png\n", oneAnim, oneRole, oneFall), RuleInvalidIdentifier, 3},
		{"identifier leading underscore", build("_img sprites/a.png\n", oneAnim, oneRole, oneFall), RuleInvalidIdentifier, 3},
		{"identifier hyphen", build("im-g sprites/a.png\n", oneAnim, oneRole, oneFall), RuleInvalidIdentifier, 3},
		{"identifier digits and underscore", build("i_m_g_2 sprites/a.png\n", "anim i_m_g_2 1\n", oneRole, oneFall), "", 0},
		{"reserved image", build("images sprites/a.png\n", oneAnim, oneRole, oneFall), RuleReservedIdentifier, 3},
		{"reserved animation", build(oneImage, "manifest img 1\n", oneRole, oneFall), RuleReservedIdentifier, 5},
		{"reserved role", build(oneImage, oneAnim, "fallback anim\n", oneFall), RuleReservedIdentifier, 7},
		{"reserved roles and animations", build("roles sprites/a.png\nanimations sprites/b.png\n", oneAnim, oneRole, oneFall), RuleReservedIdentifier, 3},
		{"bad animation id", build(oneImage, "Anim img 1\n", oneRole, oneFall), RuleInvalidIdentifier, 5},
		{"bad role id", build(oneImage, oneAnim, "ro.le anim\n", oneFall), RuleInvalidIdentifier, 7},

		// Duplicates and references.
		{"duplicate image", build(oneImage+"img sprites/b.png\n", oneAnim, oneRole, oneFall), RuleDuplicateImageID, 4},
		{"duplicate animation", build(oneImage, oneAnim+oneAnim, oneRole, oneFall), RuleDuplicateAnimationID, 6},
		{"duplicate role", build(oneImage, oneAnim, oneRole+oneRole, oneFall), RuleDuplicateRoleID, 8},
		{"same id in two tables", build("x sprites/a.png\n", "x x 1\n", "x x\n", "x\n"), "", 0},
		{"unresolved image", build(oneImage, "anim other 100\n", oneRole, oneFall), RuleUnresolvedImage, 5},
		{"unresolved second frame", build(oneImage, "anim img 100 other 100\n", oneRole, oneFall), RuleUnresolvedImage, 5},
		{"unresolved animation", build(oneImage, oneAnim, "role other\n", oneFall), RuleUnresolvedAnimation, 7},
		{"unresolved fallback role", build(oneImage, oneAnim, oneRole, "other\n"), RuleUnresolvedRole, 9},
		{"fallback empty", build(oneImage, oneAnim, oneRole, ""), RuleFallbackCount, 8},
		{"fallback two lines", build(oneImage, oneAnim, oneRole+"r2 anim\n", "role\nr2\n"), RuleFallbackCount, 11},

		// Durations.
		{"duration 1", build(oneImage, "anim img 1\n", oneRole, oneFall), "", 0},
		{"duration 60000", build(oneImage, "anim img 60000\n", oneRole, oneFall), "", 0},
		{"duration 0", build(oneImage, "anim img 0\n", oneRole, oneFall), RuleDurationRange, 5},
		{"duration 60001", build(oneImage, "anim img 60001\n", oneRole, oneFall), RuleDurationRange, 5},
		{"duration huge", build(oneImage, "anim img 184467440737095516160\n", oneRole, oneFall), RuleDurationInvalid, 5},
		{"duration negative", build(oneImage, "anim img -5\n", oneRole, oneFall), RuleDurationInvalid, 5},
		{"duration unit", build(oneImage, "anim img 100ms\n", oneRole, oneFall), RuleDurationInvalid, 5},
		{"duration fraction", build(oneImage, "anim img 1.5\n", oneRole, oneFall), RuleDurationInvalid, 5},

		// Paths (section 7).
		{"path nested", build("img sprites/cat/a.png\n", oneAnim, oneRole, oneFall), "", 0},
		{"path 255 bytes", build("img "+longPath(255)+"\n", oneAnim, oneRole, oneFall), "", 0},
		{"path 256 bytes", build("img "+longPath(256)+"\n", oneAnim, oneRole, oneFall), RulePathTooLong, 3},
		{"path absolute", build("img /sprites/a.png\n", oneAnim, oneRole, oneFall), RulePathAbsolute, 3},
		{"path dot dot", build("img sprites/../../a.png\n", oneAnim, oneRole, oneFall), RulePathDotDot, 3},
		{"path leading dot dot", build("img ../a.png\n", oneAnim, oneRole, oneFall), RulePathDotDot, 3},
		{"path empty segment", build("img sprites//a.png\n", oneAnim, oneRole, oneFall), RulePathEmptySegment, 3},
		{"path trailing slash", build("img sprites/a.png/\n", oneAnim, oneRole, oneFall), RulePathEmptySegment, 3},
		{"path backslash", build("img sprites\\a.png\n", oneAnim, oneRole, oneFall), RulePathBackslash, 3},
		{"path drive prefix", build("img C:sprites/a.png\n", oneAnim, oneRole, oneFall), RulePathColon, 3},
		{"path not png", build("img sprites/a.gif\n", oneAnim, oneRole, oneFall), RulePathNotPNG, 3},
		{"path uppercase extension", build("img sprites/a.PNG\n", oneAnim, oneRole, oneFall), RulePathNotPNG, 3},
		{"path bare png", build("img sprites/.png\n", oneAnim, oneRole, oneFall), RulePathBarePNG, 3},
		{"path bare png alone", build("img .png\n", oneAnim, oneRole, oneFall), RulePathBarePNG, 3},

		// Counts (section 8).
		{"32 images", build(images(32), "anim img0 1\n", oneRole, oneFall), "", 0},
		{"33 images", build(images(33), "anim img0 1\n", oneRole, oneFall), RuleTooManyImages, 35},
		{"32 animations", build(oneImage, animsOver(32, 1), "role anim0\n", oneFall), "", 0},
		{"33 animations", build(oneImage, animsOver(33, 1), "role anim0\n", oneFall), RuleTooManyAnimations, 37},
		{"64 roles", build(oneImage, oneAnim, repeatLines(64, func(i int) string { return fmt.Sprintf("role%d anim", i) }), "role0\n"), "", 0},
		{"65 roles", build(oneImage, oneAnim, repeatLines(65, func(i int) string { return fmt.Sprintf("role%d anim", i) }), "role0\n"), RuleTooManyRoles, 71},
		{"16 frames in an animation", build(oneImage, "anim "+frames(16, "img", 5)+"\n", oneRole, oneFall), "", 0},
		{"17 frames in an animation", build(oneImage, "anim "+frames(17, "img", 5)+"\n", oneRole, oneFall), RuleTooManyFramesInAnimation, 5},
		{"128 pooled frames", build(oneImage, animsOver(8, 16), "role anim0\n", oneFall), "", 0},
		{"129 pooled frames", build(oneImage, animsOver(8, 16)+"anim8 img 1\n", "role anim0\n", oneFall), RuleTooManyFrames, 13},

		// Byte rules (section 4.1) and size limits.
		{"tab", build("img\tsprites/a.png\n", oneAnim, oneRole, oneFall), RuleInvalidByte, 3},
		{"tab in comment", "manifest pet 1\n#\tx\n", RuleInvalidByte, 2},
		{"CR not before LF", build("img sprites/a.png\r \n", oneAnim, oneRole, oneFall), RuleStrayCarriageReturn, 3},
		{"lone CR terminator", "manifest pet 1\r[images]\n", RuleStrayCarriageReturn, 1},
		{"CR at end of file", minimal() + "\r", RuleStrayCarriageReturn, 10},
		{"byte 0x7f", build("img sprites/a\x7f.png\n", oneAnim, oneRole, oneFall), RuleInvalidByte, 3},
		{"byte 0x80", "manifest pet 1\n# caf\xc3\xa9\n", RuleInvalidByte, 2},
		{"NUL", "manifest pet 1\n\x00\n", RuleInvalidByte, 2},
		{"byte 0x1f", "manifest pet 1\n#\x1f\n", RuleInvalidByte, 2},
		{"line 384 bytes", "manifest pet 1\n#" + strings.Repeat("x", 383) + "\n" + minimal()[15:], "", 0},
		{"line 384 bytes with CRLF", "manifest pet 1\r\n#" + strings.Repeat("x", 383) + "\r\n" + minimal()[15:], "", 0},
		{"line 385 bytes", "manifest pet 1\n#" + strings.Repeat("x", 384) + "\n" + minimal()[15:], RuleLineTooLong, 2},
		{"file 16 KiB", pad(MaxFileBytes), "", 0},
		{"file 16 KiB + 1", pad(MaxFileBytes + 1), RuleFileTooLarge, strings.Count(pad(MaxFileBytes + 1)[:MaxFileBytes], "\n") + 1},

		// First rule wins in file order, whichever layer owns it.
		{"schema error before byte error", build("Img sprites/a.png\n", oneAnim+"\t\n", oneRole, oneFall), RuleInvalidIdentifier, 3},
		{"byte error before schema error", build("img sprites/a.png\t\n", "Anim img 1\n", oneRole, oneFall), RuleInvalidByte, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "file 16 KiB" && len(tc.text) != MaxFileBytes || tc.name == "file 16 KiB + 1" && len(tc.text) != MaxFileBytes+1 {
				t.Fatalf("fixture is %d bytes", len(tc.text))
			}
			dst := Manifest{Images: []Image{{"stale", "x.png"}}, Fallback: 3}
			err := ParseInto([]byte(tc.text), &dst)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				if len(dst.Roles) == 0 || dst.Fallback >= len(dst.Roles) {
					t.Fatalf("accepted manifest without a fallback role: %+v", dst)
				}
				return
			}
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("got %v (%T), want rule %s", err, err, tc.rule)
			}
			if e.Rule != tc.rule || e.Line != tc.line {
				t.Fatalf("got %d: %s (%s), want %d: %s", e.Line, e.Rule, e.Msg, tc.line, tc.rule)
			}
			if e.Msg == "" {
				t.Errorf("empty message")
			}
			if !reflect.DeepEqual(dst, Manifest{}) {
				t.Errorf("rejected manifest left the destination filled: %+v", dst)
			}
		})
	}
}

// TestCRLF shows that a checkout that rewrote line endings describes the
// same assets.
func TestCRLF(t *testing.T) {
	for name, text := range map[string]string{"canonical": canonical(t), "minimal": minimal()} {
		lf, err := Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		crlf, err := Parse([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
		if err != nil {
			t.Fatalf("%s CRLF: %v", name, err)
		}
		if !reflect.DeepEqual(lf, crlf) {
			t.Errorf("%s: CRLF parse differs from LF parse", name)
		}
	}
	// A CRLF error reports the same line as its LF twin.
	bad := build(oneImage, "anim img 0\n", oneRole, oneFall)
	_, e1 := Parse([]byte(bad))
	_, e2 := Parse([]byte(strings.ReplaceAll(bad, "\n", "\r\n")))
	if !reflect.DeepEqual(e1, e2) {
		t.Errorf("LF error %v, CRLF error %v", e1, e2)
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse([]byte("manifest pet 2\n"))
	if got, want := err.Error(), "1: unsupported_manifest_version: pet manifest version 2; this reader accepts only version 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// recorder is a Schema that records what Scan hands it, so the common
// grammar is tested apart from the pet schema, as another kind would use it.
type recorder struct{ events []string }

func (r *recorder) Header(line int, kind string, v uint64) *Error {
	r.events = append(r.events, fmt.Sprintf("%d header %s %d", line, kind, v))
	return nil
}
func (r *recorder) Section(line int, name string) *Error {
	r.events = append(r.events, fmt.Sprintf("%d section %s", line, name))
	return nil
}
func (r *recorder) Directive(line int, f []string) *Error {
	r.events = append(r.events, fmt.Sprintf("%d directive %s", line, strings.Join(f, "|")))
	return nil
}
func (r *recorder) End(last int) *Error {
	r.events = append(r.events, fmt.Sprintf("%d end", last))
	return nil
}

func TestScanOtherKind(t *testing.T) {
	text := "# ui assets\nmanifest ui 1\r\n\n[buttons]\n  ok   sprites/ok.png  \n# c\n[panels]\n"
	var r recorder
	if err := Scan([]byte(text), Limits{MaxFileBytes: 1 << 10, MaxLineBytes: 80}, &r); err != nil {
		t.Fatal(err)
	}
	want := []string{"2 header ui 1", "4 section buttons", "5 directive ok|sprites/ok.png", "7 section panels", "7 end"}
	if !reflect.DeepEqual(r.events, want) {
		t.Errorf("events %q, want %q", r.events, want)
	}
}

func BenchmarkParseCanonical(b *testing.B) {
	data := []byte(canonical(b))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var m Manifest
	for i := 0; i < b.N; i++ {
		if err := ParseInto(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.petasset", minimal())
	if _, err := ReadFile(good); err != nil {
		t.Fatal(err)
	}
	bad := write("bad.petasset", build(oneImage, "anim img 0\n", oneRole, oneFall))
	_, err := ReadFile(bad)
	if got, want := fmt.Sprint(err), bad+":5: duration_out_of_range: duration 0 ms is outside 1 to 60000"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	huge := write("huge.petasset", strings.Repeat("#\n", 1<<20))
	_, err = ReadFile(huge)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Err.Rule != RuleFileTooLarge {
		t.Errorf("huge file: %v", err)
	}
	if _, err := ReadFile(dir + "/missing.petasset"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file does not unwrap to fs.ErrNotExist: %v", err)
	}
	for _, p := range []string{dir + "/missing.petasset", dir} {
		_, err := ReadFile(p)
		if !errors.As(err, &fe) || fe.Err.Rule != RuleUnreadable || !strings.HasPrefix(err.Error(), p+": manifest_unreadable: ") {
			t.Errorf("%s: %v", p, err)
		}
	}
}
