package boundedread

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

func content(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return b
}

// TestRegular: a regular file comes back whole, in one buffer of its size
// and a spare byte, or cut at limit+1 when it is past the limit.
func TestRegular(t *testing.T) {
	const limit = 4096
	tests := []struct {
		size, wantLen, wantCap int
	}{
		{0, 0, 1},
		{1, 1, 2},
		{1000, 1000, 1001},
		{limit, limit, limit + 1},
		{limit + 1, limit + 1, limit + 1},
		{3 * limit, limit + 1, limit + 1},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		p := filepath.Join(dir, "f")
		want := content(tt.size)
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(f, limit)
		f.Close()
		if err != nil {
			t.Fatalf("size %d: %v", tt.size, err)
		}
		if len(got) != tt.wantLen || cap(got) != tt.wantCap || !bytes.Equal(got, want[:tt.wantLen]) {
			t.Errorf("size %d: %d bytes, cap %d; want the first %d bytes in a buffer of %d", tt.size, len(got), cap(got), tt.wantLen, tt.wantCap)
		}
	}
}

// TestPipe: a file without a size (a pipe) is read as io.ReadAll would,
// still stopping at limit+1.
func TestPipe(t *testing.T) {
	for _, tt := range []struct{ size, limit, want int }{{10000, 4096, 4097}, {10000, 1 << 20, 10000}, {0, 10, 0}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		data := content(tt.size)
		go func() {
			w.Write(data)
			w.Close()
		}()
		got, err := Read(r, int64(tt.limit))
		r.Close()
		if err != nil || !bytes.Equal(got, data[:tt.want]) {
			t.Errorf("pipe of %d, limit %d: %d bytes, %v; want %d", tt.size, tt.limit, len(got), err, tt.want)
		}
	}
}

// staleFile reports a size smaller than its content, as a file that grew
// after Stat would.
type staleFile struct {
	fs.File
	size int64
}

type staleInfo struct {
	fs.FileInfo
	size int64
}

func (s staleInfo) Size() int64 { return s.size }

func (s staleFile) Stat() (fs.FileInfo, error) {
	fi, err := s.File.Stat()
	return staleInfo{fi, s.size}, err
}

// TestGrown: the size from Stat is where the buffer starts, not where the
// read stops.
func TestGrown(t *testing.T) {
	data := content(5000)
	fsys := fstest.MapFS{"f": {Data: data, ModTime: time.Unix(0, 0)}}
	for _, tt := range []struct{ limit, want int }{{1 << 20, 5000}, {4096, 4097}} {
		f, err := fsys.Open("f")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(staleFile{f, 100}, int64(tt.limit))
		if err != nil || !bytes.Equal(got, data[:tt.want]) {
			t.Errorf("limit %d: %d bytes, %v; want %d", tt.limit, len(got), err, tt.want)
		}
	}
}

// TestReadInto: a buffer large enough is reused, file after file, and
// holds each file exactly; a smaller one is replaced.
func TestReadInto(t *testing.T) {
	fsys := fstest.MapFS{
		"big":   {Data: content(3000), ModTime: time.Unix(0, 0)},
		"small": {Data: content(100), ModTime: time.Unix(0, 0)},
	}
	var buf []byte
	for i, name := range []string{"big", "small", "big"} {
		f, err := fsys.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadInto(buf, f, 1<<20)
		f.Close()
		if err != nil || !bytes.Equal(got, fsys[name].Data) {
			t.Fatalf("%s: %d bytes, %v", name, len(got), err)
		}
		if i > 0 && &got[:1][0] != &buf[:1][0] {
			t.Errorf("%s: read into a new buffer although the last one holds %d bytes", name, cap(buf))
		}
		buf = got
	}
}
