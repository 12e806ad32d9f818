package petpack

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestOpen(t *testing.T) {
	p := validPackage()
	b := rawZip(p)
	pk, v := Open(bytes.NewReader(b), int64(len(b)))
	if pk == nil || !v.OK() {
		t.Fatalf("Open of a valid package: %v, %v", pk, v.Err())
	}
	if pk.Manifest == nil || pk.Manifest.ID != v.Manifest.ID {
		t.Fatalf("the package's manifest %v is not the verdict's", pk.Manifest)
	}
	var files []string
	for _, f := range p {
		if f.name[len(f.name)-1] != '/' {
			files = append(files, f.name)
		}
	}
	if err := fstest.TestFS(pk.FS(), files...); err != nil {
		t.Fatal(err)
	}
	for _, f := range p {
		if got, err := fs.ReadFile(pk.FS(), f.name); err == nil && !bytes.Equal(got, f.data) {
			t.Errorf("%s: the package's bytes differ from the archive's", f.name)
		}
	}
	for _, st := range pk.Manifest.States {
		frames := pk.Frames(st.Name)
		if len(frames) != len(st.FrameDurationsMS) {
			t.Errorf("%s: %d frames, the manifest times %d", st.Name, len(frames), len(st.FrameDurationsMS))
		}
		for i, f := range frames {
			if want := fmt.Sprintf("%s/", st.Name.FramesDir()); len(f) <= len(want) || f[:len(want)] != want {
				t.Errorf("%s: frame %s is outside %s", st.Name, f, want)
			}
			if i > 0 && !NaturalLess(frames[i-1], f) {
				t.Errorf("%s: %s before %s is not natural order", st.Name, frames[i-1], f)
			}
		}
	}
	entries := pk.Entries()
	if len(entries) != len(files) {
		t.Errorf("Entries() lists %d files, the archive holds %d", len(entries), len(files))
	}
	for i, e := range entries {
		if i > 0 && entries[i-1].Path >= e.Path {
			t.Errorf("Entries() not in path order at %s", e.Path)
		}
		if data := p.get(e.Path); int64(len(data)) != e.Size || (e.Size > 0 && e.StoredSize <= 0) {
			t.Errorf("%s: size %d stored %d, the file holds %d bytes", e.Path, e.Size, e.StoredSize, len(data))
		}
	}
	if pk.Frames("start") != nil {
		t.Error("Frames of a removed action is not nil")
	}
}

func TestOpenRejects(t *testing.T) {
	b := rawZip(validPackage().with("manifest.json", []byte("{}")))
	pk, v := Open(bytes.NewReader(b), int64(len(b)))
	if pk != nil || v.OK() {
		t.Fatalf("Open of an invalid package: %v, %v", pk, v.Errors)
	}
	want := validateBytes(b)
	if fmt.Sprint(v.Errors) != fmt.Sprint(want.Errors) {
		t.Errorf("Open's verdict %v, Validate's %v", v.Errors, want.Errors)
	}
}

func TestOpenPath(t *testing.T) {
	p := validPackage()
	dir := t.TempDir()
	archive := filepath.Join(dir, "pet.petpack")
	if err := os.WriteFile(archive, rawZip(p), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.petpack")
	if err := os.Symlink(archive, link); err != nil {
		t.Fatal(err)
	}
	unpacked := writeDir(t, p)
	for _, path := range []string{archive, unpacked} {
		pk, v := OpenPath(path)
		if pk == nil {
			t.Fatalf("OpenPath(%s): %v", path, v.Err())
		}
		entries := pk.Entries()
		if len(entries) == 0 {
			t.Fatalf("OpenPath(%s): no entries", path)
		}
		for _, e := range entries {
			data, err := fs.ReadFile(pk.FS(), e.Path)
			if err != nil || !bytes.Equal(data, p.get(e.Path)) {
				t.Errorf("%s: %s reads %d bytes, %v", path, e.Path, len(data), err)
			}
			if path == archive && crc32.ChecksumIEEE(data) != e.CRC32 {
				t.Errorf("%s: %s's CRC32 %08x is not its content's", path, e.Path, e.CRC32)
			}
		}
		if err := pk.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	if pk, v := OpenPath(link); pk != nil || v.OK() || v.Errors[0].Rule != RulePackageNotRegular {
		t.Errorf("OpenPath of a symbolic link: %v, %v", pk, v.Errors)
	}
}

func TestReadContainer(t *testing.T) {
	b := rawZip(validPackage())
	pk, _ := Open(bytes.NewReader(b), int64(len(b)))
	got, v := ReadContainer(bytes.NewReader(b), int64(len(b)))
	if !v.OK() || fmt.Sprint(got) != fmt.Sprint(pk.Entries()) {
		t.Errorf("ReadContainer = %v, %v; want the validated package's entries", got, v.Errors)
	}
	// Stage 1 only: a broken manifest does not stop the listing.
	bad := rawZip(validPackage().with("manifest.json", []byte("{}")))
	if got, v := ReadContainer(bytes.NewReader(bad), int64(len(bad))); got == nil || !v.OK() {
		t.Errorf("ReadContainer of a package with a bad manifest: %d entries, %v", len(got), v.Errors)
	}
	if got, v := ReadContainer(bytes.NewReader([]byte("not a zip")), 9); got != nil || v.OK() || v.Errors[0].Rule != RuleZipEndMissing {
		t.Errorf("ReadContainer of a non-archive: %v, %v", got, v.Errors)
	}
}
