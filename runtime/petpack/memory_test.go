package petpack

import (
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
	"github.com/agentpet/rules_pet/internal/testsupport/webpcraft"
)

// deflateZeros compresses n zero bytes, streaming, so building a bomb
// does not itself hold n bytes.
func deflateZeros(t testing.TB, n int) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for n > 0 {
		k := len(chunk)
		if n < k {
			k = n
		}
		w.Write(chunk[:k])
		n -= k
	}
	w.Close()
	return b.Bytes()
}

// measure runs f and returns the largest growth of the live heap a 1 ms
// sampler saw, and the bytes f allocated in all (an upper bound on any
// peak, whatever the sampler missed).
func measure(f func()) (peak, total uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var m runtime.MemStats
		max := uint64(0)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				done <- max
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > max {
					max = m.HeapAlloc
				}
			}
		}
	}()
	f()
	close(stop)
	max := <-done
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if max > before.HeapAlloc {
		peak = max - before.HeapAlloc
	}
	return peak, after.TotalAlloc - before.TotalAlloc
}

// TestBombMemory: validating archives built to exhaust memory stays under
// 64 MiB of heap, whether the bomb is the ZIP container, a PNG header or
// the animated preview. The honest 255 MiB entry is valid data and is inflated
// in full (to check its size and CRC); the others are rejected before or
// while inflating, without the memory they declare.
func TestBombMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 255 MiB")
	}
	const limit = 64 << 20
	const big = 255 << 20
	zeros := deflateZeros(t, big)
	base := validPackage()
	withEntries := func(extra ...ziptest.Entry) []byte {
		return ziptest.Build(ziptest.Spec{Entries: append(entriesOf(base, false), extra...)})
	}
	declared := func() []byte {
		var es []ziptest.Entry
		for i := 0; i < 17; i++ {
			e := ziptest.Entry{Name: string(rune('a' + i)), Method: strictzip.Deflate, Comp: []byte{3, 0}}
			ziptest.Lie(&e, big)
			es = append(es, e)
		}
		return ziptest.Build(ziptest.Spec{Entries: es})
	}()
	overlapping := func() []byte {
		// One 255 MiB stream named by 17 records: 4.3 GiB to a naive reader.
		stream := ziptest.Entry{Name: "bomb", Method: strictzip.Deflate, Comp: zeros}
		ziptest.Lie(&stream, big)
		stream.Local = func(h []byte) { ziptest.Put32(h[14:], 0); ziptest.Put32(h[22:], big) }
		stream.Central = func(h []byte) { ziptest.Put32(h[16:], 0); ziptest.Put32(h[24:], big) }
		es := []ziptest.Entry{stream}
		for i := 0; i < 16; i++ {
			e := stream
			e.NoLocal = true
			es = append(es, e)
		}
		return ziptest.Build(ziptest.Spec{Entries: es})
	}()
	// The CRC of 255 MiB of zeros, for the honest entry.
	honestCRC := func() uint32 {
		r := flate.NewReader(bytes.NewReader(zeros))
		defer r.Close()
		h := crc32.NewIEEE()
		if _, err := io.Copy(h, r); err != nil {
			t.Fatal(err)
		}
		return h.Sum32()
	}()
	cases := []struct {
		name    string
		archive []byte
		want    []Rule
	}{
		{"1 KiB declaring 4.3 GiB", declared, []Rule{RuleExpandedTooLarge}},
		{"17 records over one stream", overlapping, []Rule{RuleZipEntryOverlap}},
		{"255 MiB declared as 100 bytes", withEntries(func() ziptest.Entry {
			e := ziptest.Entry{Name: extName, Method: strictzip.Deflate, Comp: zeros}
			ziptest.Lie(&e, 100)
			return e
		}()), []Rule{RuleEntrySizeMismatch}},
		{"255 MiB of honest data", withEntries(ziptest.Entry{Name: "padding.bin", Method: strictzip.Deflate, Comp: zeros,
			Local:   func(h []byte) { ziptest.Put32(h[14:], honestCRC); ziptest.Put32(h[22:], big) },
			Central: func(h []byte) { ziptest.Put32(h[16:], honestCRC); ziptest.Put32(h[24:], big) },
		}), nil},
		{"a 20000x20000 frame", rawZip(base.with("assets/frames/idle/0000.png", ihdrOnly(20000, 20000, 8))), []Rule{RuleImageTooManyPixels}},
		// x/image would allocate about 175 MiB for this 160 KiB stream;
		// stage 2's pre-pass refuses it before anything is decoded.
		{"a VP8L preview of 65536 prefix-code groups", rawZip(base.with(previewPath, riffWebP(animHeader(192, 208), anmfVP8L(0, 0, 192, 208, webpcraft.HostileVP8L(192, 208))))), []Rule{RulePreviewDecoderMemory}},
		{"a preview of 121 frames", rawZip(base.with(previewPath, animatedBlank(4, 4, 121))), []Rule{RulePreviewFrameCount}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v *Verdict
			start := time.Now()
			peak, total := measure(func() { v = validateBytes(tc.archive) })
			t.Logf("%d-byte archive: %v, peak heap growth %.1f MiB, %.1f MiB allocated", len(tc.archive), time.Since(start).Round(time.Millisecond), float64(peak)/(1<<20), float64(total)/(1<<20))
			expectRules(t, v, tc.want...)
			if peak >= limit || total >= limit {
				t.Fatalf("peak %d, allocated %d bytes: over %d", peak, total, limit)
			}
		})
	}
}
