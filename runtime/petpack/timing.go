package petpack

import (
	"fmt"
	"strconv"
)

// timingWarnings reports the production targets of section 5 that are not
// validity limits: 4 to 8 frames, about 1500 ms at most for a non-periodic
// action, and 4 to 12 frames a second on average. Periodic idle is exempt
// from the last two: section 5 lets it hold a calm pose longer before its
// cooldown, and the creation default itself runs at 3 frames a second.
func timingWarnings(c *checker, m *Manifest) {
	for i, s := range m.States {
		ptr := "/states/" + strconv.Itoa(i) + "/frame_durations_ms"
		n := len(s.FrameDurationsMS)
		total := 0
		for _, d := range s.FrameDurationsMS {
			total += d
		}
		if n < 4 || n > 8 {
			c.warn(RuleFrameCountUnusual, manifestPath, ptr, "%s has %d frames; the production target is 4 to 8", s.Name, n)
		}
		if s.Playback.Mode == ModePeriodic {
			continue
		}
		if total > 1500 {
			c.warn(RuleActionDurationLong, manifestPath, ptr, "%s lasts %d ms; the target for a non-periodic action is about 1500 ms at most", s.Name, total)
		}
		if n*1000 < 4*total || n*1000 > 12*total {
			c.warn(RuleFrameRateUnusual, manifestPath, ptr, "%s averages %s frames a second; the target is 4 to 12", s.Name, fmt.Sprintf("%.1f", float64(n)*1000/float64(total)))
		}
	}
}
