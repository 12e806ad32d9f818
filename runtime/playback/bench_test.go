package playback

import (
	"math/rand"
	"testing"
)

// wakeLoop follows NextChange the way a frontend sleeps, from the current
// time until end, and returns how many times it woke.
func wakeLoop(p *Player, end int64) int {
	n := 0
	for {
		next, ok := p.NextChange()
		if !ok || next > end {
			return n
		}
		p.Show(next)
		n++
	}
}

// TestSteadyStateAllocs checks that a step and the next-change computation
// allocate nothing once the player exists.
func TestSteadyStateAllocs(t *testing.T) {
	p, err := New(sampleManifest(t), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	now := int64(0)
	i := 0
	allocs := testing.AllocsPerRun(2000, func() {
		i++
		switch i % 97 {
		case 0:
			_ = p.Event(now, Events()[i%7])
		case 13:
			_ = p.Pointer(now, PointerDragLeft)
		case 31:
			_ = p.Pointer(now, PointerDragEnd)
		case 50:
			_ = p.Pointer(now, PointerClick)
		}
		if next, ok := p.NextChange(); ok {
			now = next
		} else {
			now += 1000
		}
		p.Show(now)
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per step, want 0", allocs)
	}
}

// TestSettledPetSleeps checks the goal of the hour benchmark: a held
// settle pose wakes the frontend zero times.
func TestSettledPetSleeps(t *testing.T) {
	for _, e := range []string{"waiting", "failed"} {
		p, _ := New(sampleManifest(t), rand.New(rand.NewSource(1)))
		_ = p.Event(0, e)
		p.Show(10000) // the bursts are over
		if n := wakeLoop(p, 10000+3600000); n != 0 {
			t.Errorf("%s: %d wake-ups in an hour of a held pose", e, n)
		}
	}
}

// BenchmarkStep is one Show at the next change: the frontend's work per
// visible change on an idle pet.
func BenchmarkStep(b *testing.B) {
	p, _ := New(sampleManifest(b), rand.New(rand.NewSource(1)))
	b.ReportAllocs()
	b.ResetTimer()
	now := int64(0)
	for i := 0; i < b.N; i++ {
		now += 137
		p.Show(now)
	}
}

// BenchmarkNextChange is the wake-up computation on a running burst.
func BenchmarkNextChange(b *testing.B) {
	p, _ := New(sampleManifest(b), rand.New(rand.NewSource(1)))
	_ = p.Event(0, "waiting")
	p.Show(500)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.NextChange()
	}
}

// BenchmarkHour simulates an hour of random Agent events and pointer input
// as a frontend that sleeps until NextChange, and reports wake-ups per
// minute: overall, and in the hour after a settle pose is reached (goal 0),
// and for an untouched idle pet.
func BenchmarkHour(b *testing.B) {
	m := sampleManifest(b)
	const hour = 3600000
	var busy, settled, idle int
	for i := 0; i < b.N; i++ {
		r := rand.New(rand.NewSource(int64(i)))
		p, _ := New(m, rand.New(rand.NewSource(int64(i))))
		now := int64(0)
		for now < hour {
			at := now + 1 + r.Int63n(60000)
			busy += wakeLoop(p, at)
			switch k := r.Intn(10); {
			case k < 7:
				_ = p.Event(at, Events()[k])
			case k == 7:
				_ = p.Pointer(at, PointerClick)
			case k == 8:
				_ = p.Pointer(at, PointerDragRight)
				busy += wakeLoop(p, at+1500)
				at += 1500
				_ = p.Pointer(at, PointerDragEnd)
			default:
				p.SetReduceMotion(at, r.Intn(2) == 0)
			}
			now = at
		}
		s, _ := New(m, rand.New(rand.NewSource(int64(i))))
		_ = s.Event(0, "waiting")
		s.Show(4000)
		settled += wakeLoop(s, 4000+hour)
		q, _ := New(m, rand.New(rand.NewSource(int64(i))))
		idle += wakeLoop(q, hour)
	}
	n := float64(b.N) * 60
	b.ReportMetric(float64(busy)/n, "wakeups/min-random")
	b.ReportMetric(float64(settled)/n, "wakeups/min-settled")
	b.ReportMetric(float64(idle)/n, "wakeups/min-idle")
}
