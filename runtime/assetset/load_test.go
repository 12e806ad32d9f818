package assetset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

const canonicalDir = "testdata/canonical"

// canonicalManifest is the example of manifest contract section 10.
func canonicalManifest(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(canonicalDir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// png is the signature followed by bytes that decode as nothing, which the
// layer must accept because it decodes nothing.
var png = []byte(PNGSignature + "not really a png")

// canonicalFiles is an accepted in-memory copy of the canonical set.
func canonicalFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{ManifestName: canonicalManifest(t)}
	for _, name := range []string{"fallback", "idle", "curious", "attentive", "happy"} {
		files["sprites/"+name+".png"] = png
	}
	return files
}

// writeTree materialises files under a new temporary directory. A key ending
// in "/" becomes a directory, as it does for Memory.
func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

type want struct {
	kind    Kind // "" means accepted
	imageID string
	path    string
	rule    manifest.Rule // for KindManifestInvalid
	line    int
}

// loadCases run against both Memory and Dir, so the two readers are held to
// the same outcomes.
var loadCases = []struct {
	name string
	edit func(files map[string][]byte)
	want want
}{
	{
		name: "accepted canonical set",
		edit: func(map[string][]byte) {},
	},
	{
		name: "signature with garbage after it is accepted",
		edit: func(f map[string][]byte) { f["sprites/idle.png"] = []byte(PNGSignature + "\x00\xff garbage") },
	},
	{
		name: "exactly the signature is accepted",
		edit: func(f map[string][]byte) { f["sprites/idle.png"] = []byte(PNGSignature) },
	},
	{
		name: "manifest missing",
		edit: func(f map[string][]byte) { delete(f, ManifestName) },
		want: want{kind: KindManifestMissing, path: ManifestName},
	},
	{
		name: "manifest is a directory",
		edit: func(f map[string][]byte) {
			delete(f, ManifestName)
			f[ManifestName+"/"] = nil
		},
		want: want{kind: KindManifestUnreadable, path: ManifestName},
	},
	{
		name: "manifest invalid keeps line and rule",
		edit: func(f map[string][]byte) {
			f[ManifestName] = []byte("manifest pet 1\n\n[images]\nimg sprites/a.png\nimg sprites/b.png\n")
		},
		want: want{kind: KindManifestInvalid, path: ManifestName, rule: manifest.RuleDuplicateImageID, line: 5},
	},
	{
		name: "empty manifest is invalid",
		edit: func(f map[string][]byte) { f[ManifestName] = nil },
		want: want{kind: KindManifestInvalid, path: ManifestName, rule: manifest.RuleHeaderMissing, line: 1},
	},
	{
		name: "manifest of 1 MiB is too large",
		edit: func(f map[string][]byte) {
			f[ManifestName] = []byte(strings.Repeat("# padding comment line\n", 1<<20/23+1))
		},
		want: want{kind: KindManifestInvalid, path: ManifestName, rule: manifest.RuleFileTooLarge, line: 713},
	},
	{
		name: "image missing",
		edit: func(f map[string][]byte) { delete(f, "sprites/curious.png") },
		want: want{kind: KindImageMissing, imageID: "sprite_curious", path: "sprites/curious.png"},
	},
	{
		name: "image is a directory",
		edit: func(f map[string][]byte) {
			delete(f, "sprites/curious.png")
			f["sprites/curious.png/"] = nil
		},
		want: want{kind: KindImageIsDirectory, imageID: "sprite_curious", path: "sprites/curious.png"},
	},
	{
		name: "image empty",
		edit: func(f map[string][]byte) { f["sprites/happy.png"] = []byte{} },
		want: want{kind: KindImageEmpty, imageID: "sprite_happy", path: "sprites/happy.png"},
	},
	{
		name: "three-byte image is not png",
		edit: func(f map[string][]byte) { f["sprites/happy.png"] = []byte("\x89PN") },
		want: want{kind: KindImageNotPNG, imageID: "sprite_happy", path: "sprites/happy.png"},
	},
	{
		name: "seven signature bytes are not png",
		edit: func(f map[string][]byte) { f["sprites/happy.png"] = []byte(PNGSignature[:7]) },
		want: want{kind: KindImageNotPNG, imageID: "sprite_happy", path: "sprites/happy.png"},
	},
	{
		name: "text file named png",
		edit: func(f map[string][]byte) { f["sprites/idle.png"] = []byte("this is a text file, not an image\n") },
		want: want{kind: KindImageNotPNG, imageID: "sprite_idle", path: "sprites/idle.png"},
	},
	{
		name: "first failing image in declaration order is reported",
		edit: func(f map[string][]byte) {
			delete(f, "sprites/happy.png")     // declared fifth
			f["sprites/idle.png"] = []byte{}   // declared second
			delete(f, "sprites/attentive.png") // declared fourth
		},
		want: want{kind: KindImageEmpty, imageID: "sprite_idle", path: "sprites/idle.png"},
	},
}

func TestLoad(t *testing.T) {
	readers := []struct {
		name string
		make func(t *testing.T, files map[string][]byte) Reader
	}{
		{"memory", func(_ *testing.T, f map[string][]byte) Reader { return Memory(f) }},
		{"dir", func(t *testing.T, f map[string][]byte) Reader { return Dir(writeTree(t, f)) }},
	}
	for _, rd := range readers {
		for _, tc := range loadCases {
			t.Run(rd.name+"/"+tc.name, func(t *testing.T) {
				files := canonicalFiles(t)
				tc.edit(files)
				checkOutcome(t, Load(rd.make(t, files)), tc.want)
			})
		}
	}
}

func checkOutcome(t *testing.T, got Outcome, w want) {
	t.Helper()
	if (got.Set == nil) == (got.Fallback == nil) {
		t.Fatalf("Outcome must hold exactly one of Set and Fallback, got %+v", got)
	}
	if w.kind == "" {
		if got.Fallback != nil {
			t.Fatalf("Load rejected the set: %v", got.Fallback)
		}
		if n := len(got.Set.Manifest.Images); n != 5 {
			t.Errorf("accepted set has %d images, want 5", n)
		}
		return
	}
	fr := got.Fallback
	if fr == nil {
		t.Fatalf("Load accepted the set, want fallback %s", w.kind)
	}
	if fr.Kind != w.kind || fr.ImageID != w.imageID || fr.Path != w.path {
		t.Errorf("fallback = {Kind:%s ImageID:%q Path:%q}, want {Kind:%s ImageID:%q Path:%q}",
			fr.Kind, fr.ImageID, fr.Path, w.kind, w.imageID, w.path)
	}
	if !strings.HasPrefix(fr.Error(), string(w.kind)+": ") {
		t.Errorf("Error() = %q, want it to begin with the kind", fr.Error())
	}
	if w.kind == KindManifestInvalid {
		var me *manifest.Error
		if !errors.As(fr, &me) {
			t.Fatalf("errors.As(%v, *manifest.Error) failed", fr)
		}
		if me.Rule != w.rule || me.Line != w.line {
			t.Errorf("manifest error at %d %s, want %d %s (%v)", me.Line, me.Rule, w.line, w.rule, me)
		}
	}
}

func TestLoadCanonicalDirectory(t *testing.T) {
	got := Load(Dir(canonicalDir))
	if got.Fallback != nil {
		t.Fatalf("canonical test set rejected: %v", got.Fallback)
	}
	want, err := manifest.Parse(canonicalManifest(t))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Set.Manifest, want) {
		t.Errorf("Load manifest = %+v, want %+v", got.Set.Manifest, want)
	}
}

// unboundedReader ignores the MaxManifestRead hint, as a careless third-party
// Reader might, and records the image reads Load asks for.
type unboundedReader struct {
	manifest []byte
	err      error
	leading  []string
}

func (u *unboundedReader) ReadManifest() ([]byte, error) { return u.manifest, u.err }

func (u *unboundedReader) ReadLeading(path string, n int) ([]byte, error) {
	u.leading = append(u.leading, path)
	if n != SignatureLen {
		return nil, errors.New("asked for more than the signature")
	}
	return png, nil
}

func TestLoadReaderBehaviour(t *testing.T) {
	hidden := errors.New("device fault")
	tests := []struct {
		name    string
		r       *unboundedReader
		want    want
		msg     string   // substring of Error()
		leading []string // image reads, in order
	}{
		{
			name: "reader error is unreadable",
			r:    &unboundedReader{err: hidden},
			want: want{kind: KindManifestUnreadable, path: ManifestName},
			msg:  "manifest_unreadable: device fault",
		},
		{
			name: "wrapped not-exist is missing",
			r:    &unboundedReader{err: &fs.PathError{Op: "read", Path: "x", Err: fs.ErrNotExist}},
			want: want{kind: KindManifestMissing, path: ManifestName},
		},
		{
			name: "oversized manifest is clipped and reported without a false size",
			r:    &unboundedReader{manifest: make([]byte, 1<<20)},
			want: want{kind: KindManifestInvalid, path: ManifestName, rule: manifest.RuleFileTooLarge, line: 1},
			msg:  "manifest_invalid: manifest.petasset:1: file_too_large: file is larger than the 16384-byte limit",
		},
		{
			name: "invalid manifest message",
			r:    &unboundedReader{manifest: []byte("manifest pet 2\n")},
			want: want{kind: KindManifestInvalid, path: ManifestName, rule: manifest.RuleUnsupportedVersion, line: 1},
			msg:  "manifest_invalid: manifest.petasset:1: unsupported_manifest_version: ",
		},
		{
			name:    "every image read for its signature only, in declaration order",
			r:       &unboundedReader{manifest: nil},
			leading: []string{"sprites/fallback.png", "sprites/idle.png", "sprites/curious.png", "sprites/attentive.png", "sprites/happy.png"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.manifest == nil && tc.r.err == nil {
				tc.r.manifest = canonicalManifest(t)
			}
			got := Load(tc.r)
			checkOutcome(t, got, tc.want)
			if got.Fallback != nil && !strings.Contains(got.Fallback.Error(), tc.msg) {
				t.Errorf("Error() = %q, want it to contain %q", got.Fallback.Error(), tc.msg)
			}
			if tc.leading != nil && !reflect.DeepEqual(tc.r.leading, tc.leading) {
				t.Errorf("image reads = %q, want %q", tc.r.leading, tc.leading)
			}
		})
	}
}

func TestFallbackRequiredUnwrap(t *testing.T) {
	got := Load(Memory(map[string][]byte{}))
	if !errors.Is(got.Fallback, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", got.Fallback)
	}
	files := canonicalFiles(t)
	files["sprites/idle.png"] = []byte("text")
	got = Load(Memory(files))
	const msg = "image_not_png: image sprite_idle (sprites/idle.png): the file does not begin with the PNG signature"
	if got.Fallback == nil || got.Fallback.Error() != msg {
		t.Errorf("Error() = %v, want %q", got.Fallback, msg)
	}
}
