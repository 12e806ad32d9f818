package strictzip_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/petpackzip"
	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
	"github.com/agentpet/rules_pet/internal/testsupport/fuzzseed"
)

// limits are the .petpack container's budgets, the ones the reader serves.
var limits = petpackzip.Limits

// base is a small honest archive for ziptest's cases to break: a deflated
// file to edit, a directory, stored and deflated files, the last a file.
func base() ziptest.Base {
	text := []byte(strings.Repeat("A small archive for the strict reader's tests.\n", 8))
	bin := make([]byte, 256)
	for i := range bin {
		bin[i] = byte(i)
	}
	return ziptest.Base{
		Entries: []ziptest.Entry{
			{Name: "readme.txt", Data: text, Method: strictzip.Deflate},
			{Name: "data/", Method: strictzip.Store},
			{Name: "data/one.bin", Data: bin, Method: strictzip.Store},
			{Name: "data/two.txt", Data: []byte("two\n"), Method: strictzip.Deflate},
			{Name: "notes.md", Data: []byte("# Notes\n\nNothing to see.\n"), Method: strictzip.Deflate},
		},
		File:  "readme.txt",
		Dir:   "data/",
		Added: "added/blob",
	}
}

// failingReader fails every read, or panics when a test promises that no
// byte is read at all.
type failingReader struct{ panics bool }

var errDisk = errors.New("disk on fire")

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if f.panics {
		panic("the reader read the archive")
	}
	return 0, errDisk
}

// refusal is one archive the reader must refuse, and the reasons.
type refusal struct {
	name   string
	r      io.ReaderAt
	size   int64
	limits strictzip.Limits
	want   []strictzip.Reason
}

func bytesCase(name string, b []byte, l strictzip.Limits, want ...strictzip.Reason) refusal {
	return refusal{name, bytes.NewReader(b), int64(len(b)), l, want}
}

// refusals are ziptest's hostile archives and the cases of the limits and
// of I/O, which only this package's tests can set.
func refusals() []refusal {
	b := base()
	var out []refusal
	for _, c := range append(ziptest.Refused(b), ziptest.Zip64Refused(b)...) {
		out = append(out, bytesCase(c.Name, c.Archive, limits, c.Want...))
	}
	many := ziptest.Build(ziptest.Spec{Entries: append(b.Entries, ziptest.Entry{Name: "one more"})})
	huge := ziptest.WithZip64End(ziptest.Spec{Entries: b.Entries}, func(z, _, e []byte) {
		ziptest.Put64(z[24:], 1<<60)
		ziptest.Put64(z[32:], 1<<60)
		ziptest.Put16(e[8:], 0xffff)
		ziptest.Put16(e[10:], 0xffff)
	})
	return append(out,
		bytesCase("more entries than the limit", many, strictzip.Limits{MaxEntries: len(b.Entries)}, strictzip.TooManyEntries),
		bytesCase("2^60 entries declared under no limit", huge, strictzip.Limits{}, strictzip.EntryCountMismatch),
		refusal{"archive over the limit", failingReader{panics: true}, 1<<30 + 1, limits, []strictzip.Reason{strictzip.ArchiveTooLarge}},
		refusal{"negative size", failingReader{panics: true}, -1, limits, []strictzip.Reason{strictzip.Unreadable}},
		refusal{"unreadable", failingReader{}, 4096, limits, []strictzip.Reason{strictzip.Unreadable}},
	)
}

// reasons opens the archive and, when it is accepted, reads every entry;
// it returns the distinct reasons found, sorted, and the problems.
func reasons(t *testing.T, c refusal) ([]strictzip.Reason, []strictzip.Problem) {
	t.Helper()
	a, err := strictzip.Open(c.r, c.size, c.limits)
	var probs []strictzip.Problem
	if err != nil {
		var zerr *strictzip.Error
		if !errors.As(err, &zerr) {
			t.Fatalf("Open: %v is not an *Error", err)
		}
		probs = zerr.Problems
	} else {
		for _, e := range a.Entries() {
			_, err := ziptest.ReadAll(e.Open())
			var p *strictzip.Problem
			switch {
			case errors.As(err, &p):
				probs = append(probs, *p)
			case err != nil:
				t.Fatalf("reading %q: %v", e.Name, err)
			}
		}
	}
	seen := map[strictzip.Reason]bool{}
	var out []strictzip.Reason
	for _, p := range probs {
		if !seen[p.Reason] {
			seen[p.Reason] = true
			out = append(out, p.Reason)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, probs
}

// TestRefused: each hostile archive is refused for exactly its reasons; a
// Zip64 refusal says Zip64; an I/O failure carries its error.
func TestRefused(t *testing.T) {
	for _, c := range refusals() {
		t.Run(c.name, func(t *testing.T) {
			got, probs := reasons(t, c)
			want := append([]strictzip.Reason(nil), c.want...)
			sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("reasons %v, want %v: %+v", got, want, probs)
			}
			for _, p := range probs {
				if p.Msg == "" {
					t.Errorf("a problem without a message: %+v", p)
				}
				if p.Reason == strictzip.Zip64Unsupported && !strings.Contains(strings.ToLower(p.Msg), "zip64") {
					t.Errorf("message does not name Zip64: %s", p.Msg)
				}
				if (p.Err != nil) != (c.name == "unreadable") || p.Err != nil && !errors.Is(&p, errDisk) {
					t.Errorf("problem %+v: wrong Err", p)
				}
			}
		})
	}
}

// TestEveryReasonRefuses: every reason has an archive that is refused for
// it, so no reason is dead code nobody knows works.
func TestEveryReasonRefuses(t *testing.T) {
	covered := map[strictzip.Reason]bool{}
	for _, c := range refusals() {
		for _, r := range c.want {
			covered[r] = true
		}
	}
	for _, r := range strictzip.Reasons() {
		if !covered[r] {
			t.Errorf("no refused archive for %s", r)
		}
	}
	if len(covered) != len(strictzip.Reasons()) {
		t.Errorf("cases want reasons Reasons does not list: %v", covered)
	}
}

// TestAccepted: the honest shapes are read, every entry's record and
// content as written.
func TestAccepted(t *testing.T) {
	b := base()
	for _, c := range ziptest.Accepted(b) {
		t.Run(c.Name, func(t *testing.T) {
			a, err := strictzip.Open(bytes.NewReader(c.Archive), int64(len(c.Archive)), limits)
			if err != nil {
				t.Fatal(err)
			}
			es := a.Entries()
			if len(es) != len(b.Entries) {
				t.Fatalf("%d entries, want %d", len(es), len(b.Entries))
			}
			for i, e := range es {
				w := b.Entries[i]
				if e.Name != w.Name || e.NameLen != len(w.Name) || e.UncompressedSize != int64(len(w.Data)) || e.IsDir() != strings.HasSuffix(w.Name, "/") {
					t.Errorf("entry %d: %+v, want %q of %d bytes", i, e, w.Name, len(w.Data))
				}
				got, err := ziptest.ReadAll(e.Open())
				if err != nil || !bytes.Equal(got, w.Data) {
					t.Errorf("entry %q: read %q (%v), want %q", e.Name, got, err, w.Data)
				}
			}
			ziptest.AgreesWithArchiveZip(t, c.Archive, limits)
		})
	}
}

// TestProblemsInOrder: problems of several entries are all reported, in
// central directory order, each naming its entry; Error sums them up.
func TestProblemsInOrder(t *testing.T) {
	b := base()
	es := ziptest.Edit(b.Entries, "data/one.bin", func(e *ziptest.Entry) { e.Flags = zipspec.FlagEncrypted })
	es = ziptest.Edit(es, "notes.md", func(e *ziptest.Entry) { e.Method = 14; e.Comp = e.Data })
	es = ziptest.Edit(es, "readme.txt", func(e *ziptest.Entry) { e.MadeBy, e.Ext = zipspec.CreatorUnix<<8|20, 0xa1ff<<16 })
	archive := ziptest.Build(ziptest.Spec{Entries: es})
	_, err := strictzip.Open(bytes.NewReader(archive), int64(len(archive)), limits)
	var zerr *strictzip.Error
	if !errors.As(err, &zerr) {
		t.Fatalf("Open: %v", err)
	}
	var got []string
	for _, p := range zerr.Problems {
		got = append(got, p.Name+" "+string(p.Reason))
	}
	want := []string{"readme.txt entry_symlink", "data/one.bin zip_encrypted", "notes.md zip_method_unsupported"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("problems %q, want %q", got, want)
	}
	if msg := err.Error(); msg != `strictzip: "readme.txt": entry_symlink: the entry is a symbolic link; links are never followed or extracted (and 2 more)` {
		t.Fatalf("Error() = %s", msg)
	}
}

// TestLongNames: a name over the limit is held cut to one byte past it,
// with its real length, and still compared with its local header.
func TestLongNames(t *testing.T) {
	long := strings.Repeat("n", 100)
	archive := ziptest.Build(ziptest.Spec{Entries: []ziptest.Entry{{Name: long, Data: []byte("x")}}})
	a, err := strictzip.Open(bytes.NewReader(archive), int64(len(archive)), strictzip.Limits{MaxNameBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if e := a.Entries()[0]; e.Name != long[:11] || e.NameLen != 100 || e.IsDir() {
		t.Fatalf("entry %+v", e)
	}
	bad := ziptest.Build(ziptest.Spec{Entries: []ziptest.Entry{{Name: long, Data: []byte("x"), Local: func(h []byte) { h[zipspec.LocalLen+5] = 'X' }}}})
	if _, err := strictzip.Open(bytes.NewReader(bad), int64(len(bad)), strictzip.Limits{MaxNameBytes: 10}); err == nil || !strings.Contains(err.Error(), "zip_local_header_mismatch") {
		t.Fatalf("a local name differing in the kept part: %v", err)
	}
}

// TestModes: permissions come from a Unix or macOS host's mode; other hosts
// record none; a directory is one by its name.
func TestModes(t *testing.T) {
	es := []ziptest.Entry{
		{Name: "unix", MadeBy: zipspec.CreatorUnix<<8 | 20, Ext: 0x81a4 << 16},
		{Name: "mac/", MadeBy: zipspec.CreatorMacOSX<<8 | 20, Ext: 0x41ed << 16},
		{Name: "dos"},
		{Name: "dos/dir/"},
	}
	archive := ziptest.Build(ziptest.Spec{Entries: es})
	a, err := strictzip.Open(bytes.NewReader(archive), int64(len(archive)), limits)
	if err != nil {
		t.Fatal(err)
	}
	want := []fs.FileMode{0o644, fs.ModeDir | 0o755, 0, fs.ModeDir}
	for i, e := range a.Entries() {
		if e.Mode() != want[i] {
			t.Errorf("%s: mode %v, want %v", e.Name, e.Mode(), want[i])
		}
	}
	ziptest.AgreesWithArchiveZip(t, archive, limits)
}

// TestOpenEntries: entries read back however they are opened: interleaved
// (the second deflated entry gets its own decompressor), twice, and after
// the caller changed its copy of the entries.
func TestOpenEntries(t *testing.T) {
	b := base()
	archive := ziptest.Build(ziptest.Spec{Entries: b.Entries})
	a, err := strictzip.Open(bytes.NewReader(archive), int64(len(archive)), limits)
	if err != nil {
		t.Fatal(err)
	}
	es := a.Entries()
	r0, err0 := es[0].Open()
	r3, err3 := es[3].Open()
	if err0 != nil || err3 != nil {
		t.Fatal(err0, err3)
	}
	got3, err3 := io.ReadAll(r3)
	got0, err0 := io.ReadAll(r0)
	r0.Close()
	r3.Close()
	if err0 != nil || err3 != nil || !bytes.Equal(got0, b.Entries[0].Data) || !bytes.Equal(got3, b.Entries[3].Data) {
		t.Fatalf("interleaved reads: %q (%v), %q (%v)", got0, err0, got3, err3)
	}
	es[0].UncompressedSize, es[0].CompressedSize, es[0].DataOffset = 1, 1, 0
	if again, err := ziptest.ReadAll(es[0].Open()); err != nil || !bytes.Equal(again, b.Entries[0].Data) {
		t.Fatalf("a second read after the copy changed: %q (%v)", again, err)
	}
	var stray strictzip.Entry
	if _, err := stray.Open(); err == nil {
		t.Fatal("an entry of no archive opened")
	}
}

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzOpen")

// seeds are FuzzOpen's corpus: ziptest's honest shapes and a hostile
// archive of each kind, picked by case name.
func seeds() map[string][]byte {
	b := base()
	pick := map[string]string{
		"raw stored": "valid_stored", "raw deflate": "valid_deflate", "archive/zip with data descriptors": "valid_archive_zip",
		"descriptors without signature": "descriptor_nosig", "python force_zip64": "zip64_python", "zip -fz": "zip64_fz",
		"unix symlink": "symlink", "overlapping-files bomb": "overlap", "inflates past its declared size": "lying_size",
		"local crc": "local_mismatch", "prepended stub": "prepended", "gap between entries": "gap", "trailing bytes": "trailing",
		"encrypted": "encrypted", "descriptor disagrees": "descriptor_mismatch", "crc of zero": "crc_zero",
		"bytes after the deflate stream": "deflate_trailing", "locator pointing past the record": "zip64_bad_locator",
		"local Zip64 size off by one": "zip64_local_size", "empty file": "empty",
	}
	out := map[string][]byte{}
	for _, c := range append(append(ziptest.Accepted(b), ziptest.Refused(b)...), ziptest.Zip64Refused(b)...) {
		if name, ok := pick[c.Name]; ok {
			out[name] = c.Archive
		}
	}
	if len(out) != len(pick) {
		panic(fmt.Sprintf("%d of %d seeds found", len(out), len(pick)))
	}
	return out
}

// TestFuzzSeeds writes the corpus with -update-seeds and otherwise checks
// that it is there and current, so the plain test run exercises every seed.
func TestFuzzSeeds(t *testing.T) {
	fuzzseed.Sync(t, "testdata/fuzz/FuzzOpen", seeds(), *updateSeeds, "go test ./internal/strictzip -run TestFuzzSeeds -update-seeds")
}

// outcome is what Open and reading every entry make of an archive, in a
// form two runs can be compared by.
type outcome struct {
	Problems []strictzip.Problem
	Entries  []string
}

func open(data []byte) outcome {
	a, err := strictzip.Open(bytes.NewReader(data), int64(len(data)), limits)
	if err != nil {
		return outcome{Problems: err.(*strictzip.Error).Problems}
	}
	var out outcome
	for _, e := range a.Entries() {
		content, err := ziptest.ReadAll(e.Open())
		out.Entries = append(out.Entries, fmt.Sprintf("%q %d %d %d %08x %d %d %04x %08x %v %x %v",
			e.Name, e.NameLen, e.Method, e.Flags, e.CRC32, e.CompressedSize, e.UncompressedSize, e.CreatorVersion, e.ExternalAttrs, e.Mode(), content, err))
	}
	return out
}

// FuzzOpen checks, for any bytes: Open never panics, and opening and
// reading twice gives the same problems, entries and contents; every
// problem has a listed reason and a message; whatever Open accepts,
// archive/zip reads the same way (AgreesWithArchiveZip). The seeds in
// testdata/fuzz/FuzzOpen also run as plain tests.
func FuzzOpen(f *testing.F) {
	known := map[strictzip.Reason]bool{}
	for _, r := range strictzip.Reasons() {
		known[r] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first := open(data)
		if again := open(data); !reflect.DeepEqual(first, again) {
			t.Fatalf("two readings differ:\n%+v\n%+v", first, again)
		}
		for _, p := range first.Problems {
			if !known[p.Reason] || p.Msg == "" {
				t.Fatalf("problem %+v", p)
			}
		}
		ziptest.AgreesWithArchiveZip(t, data, limits)
	})
}
