package assetpackbuild

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/manifest"
)

// countingFS serves files from memory and records, per path, how many
// bytes were read and how many files were open at once.
type countingFS struct {
	fsys fstest.MapFS

	mu      sync.Mutex
	read    map[string]int
	open    int
	maxOpen int
}

func newCountingFS(files map[string][]byte) *countingFS {
	c := &countingFS{fsys: fstest.MapFS{}, read: map[string]int{}}
	for p, data := range files {
		c.fsys[p] = &fstest.MapFile{Data: data}
	}
	return c
}

func (c *countingFS) Open(p string) (fs.File, error) {
	f, err := c.fsys.Open(p)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.open++
	if c.open > c.maxOpen {
		c.maxOpen = c.open
	}
	c.mu.Unlock()
	return &countedFile{File: f, c: c, path: p}, nil
}

type countedFile struct {
	fs.File
	c    *countingFS
	path string
}

func (f *countedFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.c.mu.Lock()
	f.c.read[f.path] += n
	f.c.mu.Unlock()
	return n, err
}

func (f *countedFile) Close() error {
	f.c.mu.Lock()
	f.c.open--
	f.c.mu.Unlock()
	return f.File.Close()
}

// memSet is a manifest of n images, frame i showing image i, and an
// in-memory PNG for each made by png(i).
func memSet(t testing.TB, n int, png func(i int) []byte) (*manifest.Manifest, map[string][]byte) {
	t.Helper()
	var b strings.Builder
	b.WriteString("manifest pet 1\n[images]\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "i%d sprites/%d.png\n", i, i)
	}
	b.WriteString("[animations]")
	for i := 0; i < n; i++ {
		if i%manifest.MaxFramesPerAnimation == 0 {
			fmt.Fprintf(&b, "\na%d", i)
		}
		fmt.Fprintf(&b, " i%d 10", i)
	}
	b.WriteString("\n[roles]\nr a0\n[fallback]\nr\n")
	m, err := manifest.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for i, im := range m.Images {
		files[im.Path] = png(i)
	}
	return m, files
}

// corruptIDAT flips a byte inside the image data: the header and chunk
// walk still pass, the decoder fails (on the chunk's CRC).
func corruptIDAT(t testing.TB, data []byte) []byte {
	t.Helper()
	i := bytes.Index(data, []byte("IDAT"))
	if i < 0 {
		t.Fatal("no IDAT chunk")
	}
	d := append([]byte(nil), data...)
	d[i+6] ^= 0xff
	return d
}

// TestBuildWorkerCounts: one worker, any number of workers and the
// package's default at GOMAXPROCS 1 and 4 all give the same bytes.
func TestBuildWorkerCounts(t *testing.T) {
	sizes := [...][2]int{{64, 64}, {1, 1}, {300, 7}, {17, 200}, {1024, 1}, {128, 96}}
	m, files := memSet(t, 23, func(i int) []byte {
		d := sizes[i%len(sizes)]
		return encodePNG(t, sprite(d[0], d[1], i))
	})
	c := newCountingFS(files)
	want, err := build(m, c.Open, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 3, 8, 64} {
		got, err := build(m, c.Open, w)
		if err != nil {
			t.Fatalf("%d workers: %v", w, err)
		}
		if d := assetpackformat.FirstDifference(got, want); d != "" {
			t.Errorf("%d workers differ from one: %s", w, d)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		c := newCountingFS(files)
		got, err := Build(m, c.Open)
		if err != nil {
			t.Fatalf("GOMAXPROCS=%d: %v", procs, err)
		}
		if d := assetpackformat.FirstDifference(got, want); d != "" {
			t.Errorf("GOMAXPROCS=%d differs from one worker: %s", procs, d)
		}
		// One file a worker: the header pass opens one at a time.
		if c.maxOpen > procs {
			t.Errorf("GOMAXPROCS=%d: %d files open at once", procs, c.maxOpen)
		}
	}
}

// TestBuildLowestIndexError: with several bad images, every worker count
// reports the lowest-index one, with the text one worker gives.
func TestBuildLowestIndexError(t *testing.T) {
	bad := map[int]bool{3: true, 4: true, 9: true, 15: true}
	m, files := memSet(t, 16, func(i int) []byte {
		p := encodePNG(t, sprite(48, 40, i))
		if bad[i] {
			return corruptIDAT(t, p)
		}
		return p
	})
	const want = "image i3 (sprites/3.png): png_decode: "
	c := newCountingFS(files)
	_, seqErr := build(m, c.Open, 1)
	if seqErr == nil || !strings.HasPrefix(seqErr.Error(), want) {
		t.Fatalf("one worker: %v, want the prefix %q", seqErr, want)
	}
	for _, w := range []int{2, 3, 4, 16} {
		for round := 0; round < 20; round++ {
			_, err := build(m, c.Open, w)
			if err == nil || err.Error() != seqErr.Error() {
				t.Fatalf("%d workers, round %d: %v, want %v", w, round, err, seqErr)
			}
		}
	}
}

// TestOversizeNoDecode: a set whose headers already take the pack past
// 16 MiB is refused from the headers alone. Every file holds a valid
// signature and a 1024x1024 IHDR followed by bytes that cannot decode, and
// no file is read past its IHDR: no decoder saw a byte of pixel data.
func TestOversizeNoDecode(t *testing.T) {
	header := encodePNG(t, sprite(1024, 1024, 0))[:headerLength]
	m, files := memSet(t, 32, func(i int) []byte {
		return append(append([]byte(nil), header...), bytes.Repeat([]byte{0xee}, 4096)...)
	})
	// Without the header pass the first decode would fail: that is the
	// error a decode-first build reports instead.
	if _, err := ConvertPNG(files[m.Images[0].Path]); err == nil || !strings.HasPrefix(err.Error(), string(ReasonDecode)) {
		t.Fatalf("ConvertPNG of image 0 = %v, want a %s rejection", err, ReasonDecode)
	}
	for _, w := range []int{1, 4} {
		c := newCountingFS(files)
		_, err := build(m, c.Open, w)
		const want = "encode: image 7 (i7) takes the pack past the 16777216-byte limit"
		if err == nil || err.Error() != want {
			t.Fatalf("%d workers: %v, want %q", w, err, want)
		}
		if len(c.read) != 8 {
			t.Errorf("%d workers: %d files read, want images 0 to 7", w, len(c.read))
		}
		for p, n := range c.read {
			if n > headerLength {
				t.Errorf("%d workers: %s: %d bytes read, more than the %d of its signature and IHDR", w, p, n, headerLength)
			}
		}
	}
}

// TestHeaderPassOrder: the header pass reports the first image in
// manifest order whose header is refused, even when a later image alone
// would take the pack past the limit.
func TestHeaderPassOrder(t *testing.T) {
	big := encodePNG(t, sprite(1024, 1024, 0))[:headerLength]
	small := encodePNG(t, sprite(4, 4, 0))
	m, files := memSet(t, 10, func(i int) []byte {
		switch {
		case i == 5:
			return []byte("GIF89a")
		case i >= 2:
			return big
		}
		return small
	})
	_, err := build(m, newCountingFS(files).Open, 4)
	const want = "image i5 (sprites/5.png): png_not_png: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("build = %v, want the prefix %q", err, want)
	}
}

// TestReadImageSize: a file is read in one buffer of its size (the
// limit itself is boundedread's to test).
func TestReadImageSize(t *testing.T) {
	open := newCountingFS(map[string][]byte{"ok.png": bytes.Repeat([]byte{1}, 1000)}).Open
	data, err := readImage(open, "ok.png", nil)
	if err != nil || len(data) != 1000 || cap(data) != 1001 {
		t.Errorf("readImage(ok.png) = %d bytes (cap %d), %v; want 1000 in one buffer of 1001", len(data), cap(data), err)
	}
	if _, err := readImage(open, "missing.png", nil); !os.IsNotExist(err) {
		t.Errorf("readImage(missing.png) = %v, want not-exist", err)
	}
}

// TestImageChangedBetweenPasses: an image whose size differs between the
// header pass and the decode (rewritten during the build) is refused, not
// reduced into a place sized for the other image.
func TestImageChangedBetweenPasses(t *testing.T) {
	first, later := encodePNG(t, sprite(4, 4, 0)), encodePNG(t, sprite(5, 4, 0))
	m, files := memSet(t, 1, func(int) []byte { return first })
	opens := 0
	open := func(p string) (fs.File, error) {
		opens++
		if opens > 1 {
			files[p] = later
		}
		return newCountingFS(files).Open(p)
	}
	_, err := build(m, open, 1)
	const want = "image i0 (sprites/0.png): png_decode: the header says 5x4, but 4x4 when it was first read"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("build = %v, want the prefix %q", err, want)
	}
}
