package ziptest

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"testing"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// AgreesWithArchiveZip is the differential check of the fuzz targets:
// whatever strictzip accepts under limits, archive/zip must read as the
// same entries (names, methods, sizes, CRCs, data offsets, types and Unix
// permissions) with the same content. Where only strictzip refuses an
// entry's content, it must be for what archive/zip does not check: a CRC
// of zero, or bytes after the end of the deflate stream.
func AgreesWithArchiveZip(t testing.TB, data []byte, limits strictzip.Limits) {
	t.Helper()
	a, err := strictzip.Open(bytes.NewReader(data), int64(len(data)), limits)
	if err != nil {
		return
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err.Error() != "zip: insecure file path" {
		t.Fatalf("strictzip accepts what archive/zip rejects: %v", err)
	}
	entries := a.Entries()
	if len(zr.File) != len(entries) {
		t.Fatalf("archive/zip sees %d entries, strictzip %d", len(zr.File), len(entries))
	}
	for i, zf := range zr.File {
		e := &entries[i]
		whole := e.NameLen == len(e.Name)
		if whole && zf.Name != e.Name {
			t.Fatalf("entry %d: archive/zip names %q, strictzip %q", i, zf.Name, e.Name)
		}
		off, err := zf.DataOffset()
		if err != nil || off != e.DataOffset || int64(zf.CompressedSize64) != e.CompressedSize || int64(zf.UncompressedSize64) != e.UncompressedSize || zf.CRC32 != e.CRC32 || zf.Method != e.Method {
			t.Fatalf("entry %d %q: archive/zip reads a different record (%v)", i, zf.Name, err)
		}
		if whole && zf.Mode().IsDir() != e.IsDir() {
			t.Fatalf("entry %d %q: archive/zip says directory %v, strictzip %v", i, zf.Name, zf.Mode().IsDir(), e.IsDir())
		}
		if host := e.CreatorVersion >> 8; whole && (host == zipspec.CreatorUnix || host == zipspec.CreatorMacOSX) && zf.Mode()&(fs.ModeDir|fs.ModePerm) != e.Mode() {
			t.Fatalf("entry %d %q: archive/zip's mode is %v, strictzip's %v", i, zf.Name, zf.Mode(), e.Mode())
		}
		ours, oerr := ReadAll(e.Open())
		theirs, terr := ReadAll(zf.Open())
		var p *strictzip.Problem
		switch {
		case oerr != nil && terr != nil:
		case oerr != nil && errors.As(oerr, &p) && (p.Reason == strictzip.CRCMismatch && e.CRC32 == 0 || p.Reason == strictzip.DataCorrupt):
		case oerr != nil || terr != nil || !bytes.Equal(ours, theirs):
			t.Fatalf("entry %d %q: strictzip reads %d bytes (%v), archive/zip %d (%v)", i, zf.Name, len(ours), oerr, len(theirs), terr)
		}
	}
}

// ReadAll reads what an Open returns to the end and closes it.
func ReadAll(rc io.ReadCloser, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}
