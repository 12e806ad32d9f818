package playback

import (
	"fmt"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// TestReduceMotionEveryAction plays every state and interaction under
// Reduce Motion on the Reduce Motion pet, whose nine actions each have
// their own reduced_motion_frame_index (idle 8, thinking 0, tool 1, done 2,
// acknowledge 3, drag_left 4, drag_right 5, waiting 6 settling on 7,
// failed 7 settling on 3). On the sample pet most actions share index 2,
// so a drag or a burst showing idle's representative frame goes unseen;
// here it shows as the wrong index.
func TestReduceMotionEveryAction(t *testing.T) {
	m := manifestOf(t, petpacktest.ReduceMotionStates())
	rm := func(a petpack.Action) int { return m.State(a).ReducedMotionFrameIndex }
	active := func(a petpack.Action) int64 {
		s := m.State(a)
		var total int64
		for _, d := range s.FrameDurationsMS {
			total += int64(d)
		}
		return total * int64(*s.Playback.EntryRepeatCount)
	}
	on := `{"t_ms":0,"reduce_motion":true}`
	end := `{"t_ms":60000,"end":true}`

	// Every Agent event: its action's own representative frame, and for a
	// finite action idle's after the action's active duration.
	for _, ev := range Events() {
		a, err := EventAction(ev)
		if err != nil {
			t.Fatal(err)
		}
		want := lines("0 idle 8")
		switch m.State(a).Playback.Mode {
		case petpack.ModeBurstThenIdle:
			want = append(want, fmt.Sprintf("10 %s %d", a, rm(a)), fmt.Sprintf("%d idle 8", 10+active(a)))
		case petpack.ModeBurstThenSettle:
			want = append(want, fmt.Sprintf("10 %s %d", a, rm(a)))
		}
		t.Run("event "+ev, func(t *testing.T) {
			got := trace(t, m, constRand(0), script(on, fmt.Sprintf(`{"t_ms":10,"event":%q}`, ev), end))
			checkLines(t, got, want)
		})
	}
	if rm(petpack.ActionThinking) != 0 || rm(petpack.ActionWaiting) != 6 || active(petpack.ActionTool) != 2400 {
		t.Fatalf("the Reduce Motion pet is not the one these cases were written for")
	}

	cases := []struct {
		name   string
		script []string
		want   []string
	}{
		{"idle holds its representative frame with no cooldown play", lines(on, end), lines("0 idle 8")},
		{"a click gives no acknowledge and a press no press-scale", lines(on,
			`{"t_ms":100,"pointer":"down"}`, `{"t_ms":150,"pointer":"up"}`, `{"t_ms":150,"pointer":"click"}`, end),
			lines("0 idle 8")},
		{"drags show drag_left's and drag_right's own frames", lines(on,
			`{"t_ms":100,"pointer":"down"}`, `{"t_ms":110,"pointer":"drag_left"}`, `{"t_ms":900,"pointer":"drag_right"}`,
			`{"t_ms":1700,"pointer":"drag_left"}`, `{"t_ms":2000,"pointer":"drag_end"}`, end),
			lines("0 idle 8", "110 drag_left 4", "900 drag_right 5", "1700 drag_left 4", "2000 idle 8")},
		{"a drag over waiting returns to waiting's frame, not the settle frame", lines(on,
			`{"t_ms":10,"event":"waiting"}`, `{"t_ms":500,"pointer":"drag_right"}`, `{"t_ms":5000,"pointer":"drag_end"}`, end),
			lines("0 idle 8", "10 waiting 6", "500 drag_right 5", "5000 waiting 6")},
		{"a drag over a burst, then the burst's idle on time", lines(on,
			`{"t_ms":10,"event":"tool"}`, `{"t_ms":100,"pointer":"drag_left"}`, `{"t_ms":300,"pointer":"drag_end"}`, end),
			lines("0 idle 8", "10 tool 1", "100 drag_left 4", "300 tool 1", "2410 idle 8")},
		{"a drag outlasting a burst returns to idle", lines(on,
			`{"t_ms":10,"event":"done"}`, `{"t_ms":100,"pointer":"drag_right"}`, `{"t_ms":3000,"pointer":"drag_end"}`, end),
			lines("0 idle 8", "10 done 2", "100 drag_right 5", "3000 idle 8")},
		{"an event during a drag changes what the drag returns to", lines(on,
			`{"t_ms":10,"pointer":"drag_left"}`, `{"t_ms":50,"event":"failed"}`, `{"t_ms":100,"pointer":"drag_end"}`, end),
			lines("0 idle 8", "10 drag_left 4", "100 failed 7")},
		{"failed shows its representative frame, not its settle frame", lines(on,
			`{"t_ms":10,"event":"failed"}`, `{"t_ms":20,"event":"failed"}`, end),
			lines("0 idle 8", "10 failed 7")},
		{"a click during a burst's idle is still no acknowledge", lines(on,
			`{"t_ms":10,"event":"thinking"}`, `{"t_ms":2000,"pointer":"click"}`, end),
			lines("0 idle 8", "10 thinking 0", "1810 idle 8")},
		{"turning Reduce Motion on mid-acknowledge ends it on idle's frame", lines(
			`{"t_ms":0,"pointer":"click"}`, `{"t_ms":200,"reduce_motion":true}`, `{"t_ms":300,"pointer":"drag_right"}`, `{"t_ms":400,"pointer":"drag_end"}`, end),
			lines("0 acknowledge 0", "180 acknowledge 1", "200 idle 8", "300 drag_right 5", "400 idle 8")},
		{"turning it on mid-drag shows the drag's own frame at once", lines(
			`{"t_ms":0,"pointer":"drag_left"}`, `{"t_ms":150,"reduce_motion":true}`, `{"t_ms":600,"pointer":"drag_end"}`, end),
			lines("0 drag_left 0", "100 drag_left 1", "150 drag_left 4", "600 idle 8")},
		{"turning it on mid-burst shows the burst's own frame at once", lines(
			`{"t_ms":0,"event":"done"}`, `{"t_ms":130,"reduce_motion":true}`, end),
			lines("0 done 0", "120 done 1", "130 done 2", "1950 idle 8")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, trace(t, m, constRand(0), script(c.script...)), c.want)
		})
	}
}
