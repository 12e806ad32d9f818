package webp_test

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/testsupport/webpcraft"
	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

func TestValidFiles(t *testing.T) {
	small := vp8lOf(t, gradient(6, 4))
	tests := []struct {
		name   string
		data   []byte
		frames int
		w, h   int
	}{
		{"simple vp8l", riff(ck{id: "VP8L", payload: small}), 1, 6, 4},
		{"vp8x still", riff(vp8x(0x10, 6, 4), ck{id: "VP8L", payload: small}), 1, 6, 4},
		{"vp8x still with exif", riff(vp8x(0x18, 6, 4), ck{id: "VP8L", payload: small}, ck{id: "EXIF", payload: []byte("abc")}), 1, 6, 4},
		{"animated offset frame", riff(vp8x(0x12, 10, 8), anim(0),
			anmf(0, 0, 6, 4, 100, 0, ck{id: "VP8L", payload: small}),
			anmf(4, 4, 6, 4, 200, 3, ck{id: "VP8L", payload: small})), 2, 10, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := webp.Parse(tc.data, webp.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Frames) != tc.frames || f.Width != tc.w || f.Height != tc.h {
				t.Fatalf("got %d frames %dx%d", len(f.Frames), f.Width, f.Height)
			}
			frames, err := webp.DecodeFrames(tc.data, webp.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if len(frames) != tc.frames {
				t.Fatalf("decoded %d frames", len(frames))
			}
		})
	}
}

func TestRejections(t *testing.T) {
	small := vp8lOf(t, gradient(6, 4))
	one := vp8lOf(t, solid(1, 1, color.NRGBA{1, 2, 3, 4}))
	still := riff(ck{id: "VP8L", payload: small})
	patch := func(b []byte, at int, v ...byte) []byte {
		out := append([]byte(nil), b...)
		copy(out[at:], v)
		return out
	}
	oddPayload := append(append([]byte(nil), small...), 0)
	if len(oddPayload)%2 == 0 {
		oddPayload = append(oddPayload, 0)
	}
	many := []ck{vp8x(0x02, 1, 1), anim(0)}
	for i := 0; i < webp.DefaultMaxFrames+1; i++ {
		many = append(many, anmf(0, 0, 1, 1, 10, 0, ck{id: "VP8L", payload: one}))
	}
	badSig := patch(small, 0, 0x2e)
	truncated := small[:5] // header only: the transform bit is missing
	tests := []struct {
		name   string
		data   []byte
		budget webp.Budget
		rule   webp.Rule
	}{
		{"short file", still[:10], webp.Budget{}, webp.RuleTruncated},
		{"chunk header cut", riff(ck{id: "VP8L", payload: small})[:len(still)-len(small)-4], webp.Budget{}, webp.RuleRIFFSizeMismatch},
		{"no chunks", riff(), webp.Budget{}, webp.RuleTruncated},
		{"bad magic", patch(still, 8, 'W', 'A', 'V', 'E'), webp.Budget{}, webp.RuleBadMagic},
		{"riff size too big", patch(still, 4, byte(len(still))), webp.Budget{}, webp.RuleRIFFSizeMismatch},
		{"trailing bytes", append(append([]byte(nil), still...), 0, 0), webp.Budget{}, webp.RuleRIFFSizeMismatch},
		{"chunk overrun", patch(still, 16, 0xff, 0xff), webp.Budget{}, webp.RuleChunkOverrun},
		{"odd chunk without pad", riff(vp8x(0, 6, 4), ck{id: "VP8L", payload: small}, ck{id: "EXIF", payload: []byte("abc"), noPad: true}), webp.Budget{}, webp.RuleChunkPadding},
		{"odd chunk nonzero pad", riff(ck{id: "VP8L", payload: oddPayload, pad: 7}), webp.Budget{}, webp.RuleChunkPadding},
		{"unknown chunk", riff(vp8x(0, 6, 4), ck{id: "VP8L", payload: small}, ck{id: "ABCD", payload: []byte{1, 2}}), webp.Budget{}, webp.RuleUnknownChunk},
		{"extra chunk in simple file", riff(ck{id: "VP8L", payload: small}, ck{id: "EXIF", payload: []byte{1, 2}}), webp.Budget{}, webp.RuleChunkOrder},
		{"anmf before anim", riff(vp8x(0x02, 6, 4), anmf(0, 0, 6, 4, 1, 0, ck{id: "VP8L", payload: small}), anim(0)), webp.Budget{}, webp.RuleChunkOrder},
		{"vp8l outside anmf", riff(vp8x(0x02, 6, 4), anim(0), ck{id: "VP8L", payload: small}), webp.Budget{}, webp.RuleChunkOrder},
		{"vp8x size", riff(ck{id: "VP8X", payload: make([]byte, 9)}, ck{id: "VP8L", payload: small}), webp.Budget{}, webp.RuleChunkSize},
		{"anim size", riff(vp8x(0x02, 6, 4), ck{id: "ANIM", payload: make([]byte, 5)}), webp.Budget{}, webp.RuleChunkSize},
		{"anmf header short", riff(vp8x(0x02, 6, 4), anim(0), ck{id: "ANMF", payload: make([]byte, 12)}), webp.Budget{}, webp.RuleChunkSize},
		{"vp8x reserved bit", riff(vp8x(0x01, 6, 4), ck{id: "VP8L", payload: small}), webp.Budget{}, webp.RuleVP8XFlags},
		{"exif without flag", riff(vp8x(0, 6, 4), ck{id: "VP8L", payload: small}, ck{id: "EXIF", payload: []byte{1, 2}}), webp.Budget{}, webp.RuleVP8XFlags},
		{"animation flag without anim", riff(vp8x(0x02, 6, 4)), webp.Budget{}, webp.RuleVP8XFlags},
		{"canvas too large", riff(vp8x(0x02, 5000, 5000), anim(0)), webp.Budget{}, webp.RuleCanvasTooLarge},
		{"121 frames", riff(many...), webp.Budget{}, webp.RuleFrameCount},
		{"animated without frames", riff(vp8x(0x02, 6, 4), anim(0)), webp.Budget{}, webp.RuleFrameCount},
		{"frame outside canvas", riff(vp8x(0x02, 6, 4), anim(0), anmf(2, 0, 6, 4, 1, 0, ck{id: "VP8L", payload: small})), webp.Budget{}, webp.RuleFrameOutsideCanvas},
		{"frame below canvas", riff(vp8x(0x02, 6, 4), anim(0), anmf(0, 2, 6, 4, 1, 0, ck{id: "VP8L", payload: small})), webp.Budget{}, webp.RuleFrameOutsideCanvas},
		{"frame unknown sub-chunk", riff(vp8x(0x02, 6, 4), anim(0), anmf(0, 0, 6, 4, 1, 0, ck{id: "VP8L", payload: small}, ck{id: "ABCD", payload: []byte{0, 0}})), webp.Budget{}, webp.RuleFrameData},
		{"frame without image", riff(vp8x(0x02, 6, 4), anim(0), anmf(0, 0, 6, 4, 1, 0)), webp.Budget{}, webp.RuleFrameData},
		{"frame reserved flags", riff(vp8x(0x02, 6, 4), anim(0), anmf(0, 0, 6, 4, 1, 0x80, ck{id: "VP8L", payload: small})), webp.Budget{}, webp.RuleFrameData},
		{"alph before vp8l", riff(vp8x(0x12, 6, 4), anim(0), anmf(0, 0, 6, 4, 1, 0, ck{id: "ALPH", payload: []byte{0}}, ck{id: "VP8L", payload: small})), webp.Budget{}, webp.RuleFrameData},
		{"vp8l signature", riff(ck{id: "VP8L", payload: badSig}), webp.Budget{}, webp.RuleBitstreamHeader},
		{"vp8 not key frame", riff(ck{id: "VP8 ", payload: []byte{1, 0, 0, 0x9d, 1, 0x2a, 1, 0, 1, 0}}), webp.Budget{}, webp.RuleBitstreamHeader},
		{"bitstream size differs from anmf", riff(vp8x(0x02, 8, 4), anim(0), anmf(0, 0, 8, 4, 1, 0, ck{id: "VP8L", payload: small})), webp.Budget{}, webp.RuleBitstreamSize},
		{"bitstream size differs from canvas", riff(vp8x(0, 8, 4), ck{id: "VP8L", payload: small}), webp.Budget{}, webp.RuleBitstreamSize},
		{"vp8l truncated", riff(ck{id: "VP8L", payload: truncated}), webp.Budget{}, webp.RuleBitstreamInvalid},
		{"huffman groups", riff(ck{id: "VP8L", payload: webpcraft.HostileVP8L(192, 208)}), webp.Budget{}, webp.RuleHuffmanGroups},
		{"huffman groups in anmf", riff(vp8x(0x02, 192, 208), anim(0), anmf(0, 0, 192, 208, 1, 0, ck{id: "VP8L", payload: webpcraft.HostileVP8L(192, 208)})), webp.Budget{}, webp.RuleHuffmanGroups},
		{"decoder memory", still, webp.Budget{MaxDecoderBytes: 1024}, webp.RuleDecoderMemory},
		{"decoded bytes", riff(many[:3]...), webp.Budget{MaxDecodedBytes: 3}, webp.RuleDecodedBytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := webp.Parse(tc.data, tc.budget)
			checkRule(t, "Parse", err, tc.rule)
			_, err = webp.DecodeFrames(tc.data, tc.budget)
			checkRule(t, "DecodeFrames", err, tc.rule)
		})
	}
}

func checkRule(t *testing.T, who string, err error, want webp.Rule) {
	t.Helper()
	var we *webp.Error
	if !errors.As(err, &we) {
		t.Fatalf("%s: error %v, want rule %s", who, err, want)
	}
	if we.Rule != want {
		t.Fatalf("%s: rule %s (%v), want %s", who, we.Rule, err, want)
	}
}

func TestDecodeFailed(t *testing.T) {
	// The pre-pass reads only to the entropy image; pixel data cut short
	// is for the decoder to find.
	small := vp8lOf(t, gradient(6, 4))
	data := riff(ck{id: "VP8L", payload: small[:len(small)/2]})
	if _, err := webp.Parse(data, webp.Budget{}); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	_, err := webp.DecodeFrames(data, webp.Budget{})
	checkRule(t, "DecodeFrames", err, webp.RuleDecodeFailed)
}

func TestDecoderPanicRecovered(t *testing.T) {
	restore := webp.SetDecoderForTest(func(io.Reader) (image.Image, error) {
		var s []int
		_ = s[3] // the shape of GO-2026-5061: an index out of range
		return nil, nil
	})
	defer restore()
	data, err := webpenc.EncodeStill(gradient(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	_, err = webp.DecodeFrames(data, webp.Budget{})
	checkRule(t, "DecodeFrames", err, webp.RuleDecoderPanic)
}

// TestHostileVP8LPeakHeap checks that refusing the CVE-2026-46603 stream
// costs little memory: the total allocated while rejecting it (an upper
// bound on the peak) and the heap high-water mark seen by a sampler both
// stay under 64 MiB, where x/image alone would take ~175 MiB.
func TestHostileVP8LPeakHeap(t *testing.T) {
	data := riff(vp8x(0x12, 192, 208), anim(0), anmf(0, 0, 192, 208, 1, 0, ck{id: "VP8L", payload: webpcraft.HostileVP8L(192, 208)}))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := before.HeapAlloc
	var stop int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for done := false; !done; {
			done = atomic.LoadInt32(&stop) != 0
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > atomic.LoadUint64(&peak) {
				atomic.StoreUint64(&peak, m.HeapAlloc)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err := webp.DecodeFrames(data, webp.Budget{})
	atomic.StoreInt32(&stop, 1)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	checkRule(t, "DecodeFrames", err, webp.RuleHuffmanGroups)
	total := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d bytes while rejecting; sampled peak heap %d bytes (baseline %d)", total, peak, before.HeapAlloc)
	const limit = 64 << 20
	if total > limit {
		t.Fatalf("allocated %d bytes, limit %d", total, limit)
	}
	if peak > before.HeapAlloc+limit {
		t.Fatalf("peak heap %d bytes above baseline %d, limit %d", peak, before.HeapAlloc, limit)
	}
}

func TestRulesUnique(t *testing.T) {
	seen := map[webp.Rule]bool{}
	for _, r := range webp.Rules() {
		if seen[r] {
			t.Errorf("rule %s listed twice", r)
		}
		seen[r] = true
	}
}

// TestDecodeEach: frames arrive one at a time in file order, and an error
// from the callback stops decoding and comes back unchanged.
func TestDecodeEach(t *testing.T) {
	frames := []image.Image{solid(4, 4, color.NRGBA{1, 2, 3, 255}), solid(4, 4, color.NRGBA{4, 5, 6, 255}), gradient(4, 4)}
	data, err := webpenc.EncodeAnimated(frames, []int{100, 200, 300}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var durations []int
	err = webp.DecodeEach(data, webp.Budget{}, func(i int, fr webp.Frame) error {
		if i != len(durations) {
			t.Fatalf("frame %d after %d frames", i, len(durations))
		}
		durations = append(durations, fr.Duration)
		return nil
	})
	if err != nil || fmt.Sprint(durations) != "[100 200 300]" {
		t.Fatalf("durations %v, error %v", durations, err)
	}
	stop := errors.New("enough")
	calls := 0
	err = webp.DecodeEach(data, webp.Budget{}, func(int, webp.Frame) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("error %v after %d calls, want %v after 1", err, calls, stop)
	}
}

// TestLargestFrameAllowed: the contract's budgets (16,777,216 pixels per
// image, 128 MiB of preview RGBA) admit a single 4096x4096 frame, so the
// decoder bound, derived from those budgets, must let it through the
// pre-pass; one pixel more per side is over the pixel budget.
func TestLargestFrameAllowed(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 4096, 4096))
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	data, err := webpenc.EncodeAnimated([]image.Image{img}, []int{100}, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := webp.Parse(data, webp.DefaultBudget())
	if err != nil {
		t.Fatalf("a 4096x4096 frame within the contract's budgets is refused: %v", err)
	}
	if p.Width != 4096 || p.Height != 4096 {
		t.Fatalf("parsed %dx%d", p.Width, p.Height)
	}
	if webp.DefaultMaxDecoderBytes != webp.DecoderBytesFor(webp.DefaultBudget()) || webp.DefaultMaxDecoderBytes < 2*4*webp.DefaultMaxPixels {
		t.Fatalf("the default decoder bound %d is not derived from the default budget", webp.DefaultMaxDecoderBytes)
	}
}
