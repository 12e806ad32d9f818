package assetset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadManifestBounded(t *testing.T) {
	huge := []byte(strings.Repeat("x", 1<<20))
	tests := []struct {
		name string
		r    func(t *testing.T) Reader
	}{
		{"dir", func(t *testing.T) Reader { return Dir(writeTree(t, map[string][]byte{ManifestName: huge})) }},
		{"memory", func(*testing.T) Reader { return Memory(map[string][]byte{ManifestName: huge}) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.r(t).ReadManifest()
			if err != nil {
				t.Fatal(err)
			}
			if len(data) != MaxManifestRead {
				t.Errorf("ReadManifest returned %d bytes of a 1 MiB file, want exactly %d", len(data), MaxManifestRead)
			}
		})
	}
}

func TestReadLeading(t *testing.T) {
	content := []byte("0123456789abcdef")
	files := map[string][]byte{
		"a.png":         content,
		"short.png":     []byte("abc"),
		"empty.png":     {},
		"sprites/x.png": content,
		"marked.png/":   nil,
	}
	tests := []struct {
		path    string
		n       int
		want    string
		wantErr error
	}{
		{path: "a.png", n: 8, want: "01234567"},
		{path: "a.png", n: 100, want: string(content)},
		{path: "a.png", n: 0, want: ""},
		{path: "a.png", n: -1, want: ""},
		{path: "short.png", n: 8, want: "abc"},
		{path: "empty.png", n: 8, want: ""},
		{path: "sprites/x.png", n: 2, want: "01"},
		{path: "missing.png", n: 8, wantErr: fs.ErrNotExist},
		{path: "sprites/missing.png", n: 8, wantErr: fs.ErrNotExist},
		{path: "sprites", n: 8, wantErr: ErrIsDirectory},
		{path: "marked.png", n: 8, wantErr: ErrIsDirectory},
	}
	readers := map[string]Reader{"memory": Memory(files), "dir": Dir(writeTree(t, files))}
	for rname, r := range readers {
		for _, tc := range tests {
			t.Run(rname+"/"+tc.path, func(t *testing.T) {
				got, err := r.ReadLeading(tc.path, tc.n)
				if tc.wantErr != nil {
					if !errors.Is(err, tc.wantErr) {
						t.Fatalf("ReadLeading(%q) error = %v, want %v", tc.path, err, tc.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("ReadLeading(%q): %v", tc.path, err)
				}
				if string(got) != tc.want {
					t.Errorf("ReadLeading(%q, %d) = %q, want %q", tc.path, tc.n, got, tc.want)
				}
			})
		}
	}
}

func TestMemoryDoesNotExposeTail(t *testing.T) {
	data := []byte(PNGSignature + "tail")
	got, err := Memory(map[string][]byte{"a.png": data}).ReadLeading("a.png", SignatureLen)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(got, 'X')
	if string(data) != PNGSignature+"tail" {
		t.Errorf("appending to the returned prefix changed the backing file: %q", data)
	}
}

func TestDirRefusesPathsOutsideRoot(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "outside.png"), []byte(PNGSignature), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"../outside.png", "/etc/passwd", filepath.Join(parent, "outside.png"),
		"sprites/../../outside.png", `..\outside.png`, "C:outside.png", "", ".", "./a.png", "a//b.png",
	} {
		t.Run(p, func(t *testing.T) {
			if _, err := Dir(root).ReadLeading(p, 8); !errors.Is(err, ErrInvalidPath) {
				t.Errorf("ReadLeading(%q) error = %v, want ErrInvalidPath", p, err)
			}
		})
	}
}

func TestDirFollowsSymlinksInsideRoot(t *testing.T) {
	// Bazel runfiles are symlinks into the output base, outside the root.
	target := filepath.Join(t.TempDir(), "real.png")
	if err := os.WriteFile(target, []byte(PNGSignature+"body"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := writeTree(t, canonicalFiles(t))
	link := filepath.Join(root, "sprites", "idle.png")
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if got := Load(Dir(root)); got.Fallback != nil {
		t.Errorf("Load through a symlinked image: %v", got.Fallback)
	}
}

func TestRuntimeRoot(t *testing.T) {
	got := RuntimeRoot(filepath.Join("build", "dev"))
	want := filepath.Join("build", "dev", "assets", "pet")
	if got != want {
		t.Errorf("RuntimeRoot = %q, want %q", got, want)
	}
}
