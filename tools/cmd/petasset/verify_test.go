package main

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/testsupport/assetpackbuildtest"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

// bigPack writes a valid pack of seven 1024x1024 images, 14.9 MiB: near
// the limit, where the way the file is read shows in the allocations.
func bigPack(t testing.TB) (string, int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("manifest pet 1\n[images]\n")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&b, "i%d s/%d.png\n", i, i)
	}
	b.WriteString("[animations]\na")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&b, " i%d 10", i)
	}
	b.WriteString("\n[roles]\nr a\n[fallback]\nr\n")
	m, err := manifest.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	images := make([]assetpackbuild.Image, len(m.Images))
	for i := range images {
		images[i] = assetpackbuildtest.Synth(1024, 1024, i)
	}
	data, err := assetpackbuild.Encode(m, images)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "big.pack")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, len(data)
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// verifyMargin is what `pack verify` may allocate beside the file's own
// bytes: the decoded tables and the printed line, a few KiB. io.ReadAll of
// a 14.9 MiB file allocates about 2.5 times the file instead.
const verifyMargin = 256 << 10

// TestPackVerifyAllocations: verifying a pack allocates the file's size
// once and little else.
func TestPackVerifyAllocations(t *testing.T) {
	p, size := bigPack(t)
	var out strings.Builder
	var err error
	got := allocated(func() { err = packVerify([]string{p}, &out) })
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%s: ok: %d bytes, 7 images", p, size); !strings.HasPrefix(out.String(), want) {
		t.Errorf("printed %q, want the prefix %q", out.String(), want)
	}
	if got > uint64(size)+verifyMargin {
		t.Errorf("pack verify of a %d-byte pack allocated %d bytes, more than the file and %d", size, got, verifyMargin)
	}
}

// TestPackVerifyOversize: a file past the limit is refused after reading
// one byte past the limit, whatever its size.
func TestPackVerifyOversize(t *testing.T) {
	for _, extra := range []int64{1, 64 << 20} {
		p := filepath.Join(t.TempDir(), "over.pack")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		// Sparse: the size Stat reports, without the disk.
		if err := f.Truncate(assetpackformat.MaxPackLength + extra); err != nil {
			t.Fatal(err)
		}
		f.Close()
		var err2 error
		got := allocated(func() { err2 = packVerify([]string{p}, io.Discard) })
		if err2 == nil || !strings.HasPrefix(err2.Error(), p+": bad_magic: ") {
			t.Errorf("%d bytes past the limit: %v, want a bad_magic rejection", extra, err2)
		}
		if got > assetpackformat.MaxPackLength+1+verifyMargin {
			t.Errorf("%d bytes past the limit: allocated %d bytes, more than the limit, one byte and %d", extra, got, verifyMargin)
		}
	}
}

// BenchmarkPackVerify: `pack verify` of bigPack beside its baseline,
// os.ReadFile and crc32.ChecksumIEEE of the same file (tools/bench.sh
// compares them as whole processes).
func BenchmarkPackVerify(b *testing.B) {
	p, size := bigPack(b)
	b.Run("verify", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := packVerify([]string{p}, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("readfile+crc32", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			crc32.ChecksumIEEE(data)
		}
	})
}
