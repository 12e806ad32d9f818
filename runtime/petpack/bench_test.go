package petpack

import (
	"bytes"
	"image"
	"image/png"
	"sync"
	"testing"

	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

var (
	highTierOnce    sync.Once
	highTierArchive []byte
)

// highTierPackage is the largest package the contract allows in frames:
// the high tier (576x624) with 240 frames of 100 ms, every one distinct
// from its neighbours (pet-validation.schema.json caps frame_count at 240,
// below section 11's 360-frame budget): 40 in idle and thinking, 23 or 22
// in the seven others; a 384x416 cover,
// and an animated preview of the first two actions' 80 frames at full
// size, which is as many whole actions as the 128 MiB preview budget
// holds, as the writer would make it. It is built once: encoding it takes
// seconds.
func highTierPackage(tb testing.TB) []byte {
	highTierOnce.Do(func() {
		states := DefaultStates()
		for i := range states {
			n := 23
			switch {
			case i < 2:
				n = MaxFramesPerState
			case i == len(states)-1:
				n = 22
			}
			d := make([]int, n)
			for j := range d {
				d[j] = 100
			}
			states[i].FrameDurationsMS = d
		}
		p := packageDrawn(states, func(w, h, seed int) []byte {
			if w == 192 {
				w, h = 576, 624 // a frame; the cover keeps its size
			}
			return testPNG(w, h, seed)
		})
		p = p.withManifest(func(m jmap) {
			m["quality"] = string(QualityHigh)
			m["render_size"] = map[string]interface{}{"width": 576, "height": 624}
		})
		mt := metadataFor(states)
		mt.src.Quality, mt.brf.Quality, mt.brf.Runtime.RenderSize = QualityHigh, QualityHigh, Size{Width: 576, Height: 624}
		mt.events[0].Quality = QualityHigh
		p = p.with(sourcePath, mt.source()).with(briefPath, mt.brief()).with(sessionPath, mt.session())
		var frames []image.Image
		var durations []int
		for _, a := range []Action{ActionIdle, ActionThinking} {
			for i := 0; i < MaxFramesPerState; i++ {
				img, err := png.Decode(bytes.NewReader(p.get(frameName(a, i))))
				if err != nil {
					panic(err)
				}
				frames = append(frames, img)
				durations = append(durations, 100)
			}
		}
		preview, err := webpenc.EncodeAnimated(frames, durations, 0)
		if err != nil {
			panic(err)
		}
		highTierArchive = ziptest.Build(ziptest.Spec{Entries: entriesOf(p.with(previewPath, preview), true)})
	})
	return highTierArchive
}

// BenchmarkValidateHighTier validates highTierPackage, reporting the time
// per validation and the largest heap growth seen during one more
// (peak-MiB), measured outside the timed loop: measure's sampler stops the
// world every millisecond, which would slow what is timed.
func BenchmarkValidateHighTier(b *testing.B) {
	archive := highTierPackage(b)
	v := validateBytes(archive)
	if !v.OK() {
		b.Fatalf("the benchmark package is rejected:\n%s", describeVerdict(v))
	}
	b.SetBytes(int64(len(archive)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		validateBytes(archive)
	}
	b.StopTimer()
	peak, _ := measure(func() { validateBytes(archive) })
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}
