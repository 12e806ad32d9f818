package assetpackbuild

import (
	"runtime"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/benchsets"
)

// BenchmarkBuildSet builds the benchmark suite's sets (tools/bench.sh has
// the whole-process comparison with LVGL's converter), reporting the
// heap in use at its peak as peak-MiB from one more build outside the
// timed loop.
func BenchmarkBuildSet(b *testing.B) {
	for _, name := range []string{"8x512", "7x1024", "32x496"} {
		s, err := benchsets.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			mp, err := benchsets.Write(b.TempDir(), s)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var size int
			for i := 0; i < b.N; i++ {
				p, err := BuildFile(mp)
				if err != nil {
					b.Fatal(err)
				}
				size = len(p)
			}
			b.StopTimer()
			b.SetBytes(int64(size))
		})
	}
}

// BenchmarkOversizeRejection: nine 1024x1024 images, past the limit at
// the eighth (tools/bench.sh times the suite's 32x1024 set), are refused
// from their headers; total-alloc-KiB/op shows nothing was decoded.
func BenchmarkOversizeRejection(b *testing.B) {
	s := benchsets.Set{Name: "9x1024", Count: 9, Side: 1024}
	mp, err := benchsets.Write(b.TempDir(), s)
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildFile(mp); err == nil {
			b.Fatal("the 32x1024 set was accepted")
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1024, "total-alloc-KiB/op")
}

// BenchmarkReduceAlphaRow reduces a 1024-pixel RGBA row of half
// transparent, half opaque noise, in cache: the conversion's own cost.
func BenchmarkReduceAlphaRow(b *testing.B) {
	row := make([]byte, 4*1024)
	for i := range row {
		row[i] = byte(i*131 + i>>7)
	}
	colour, mask := make([]byte, 2*1024), make([]byte, 1024/8)
	b.SetBytes(int64(len(row)))
	for i := 0; i < b.N; i++ {
		reduceAlphaRow(row, colour, mask)
	}
}
