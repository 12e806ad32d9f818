// Package presentation turns a presentation role and an elapsed time into the
// frame a frontend shows: role -> animation -> frame, the lookup of manifest
// contract sections 5.3 and 9 and the frame timing of section 5.2.
//
// Time is the caller's: elapsedMS is milliseconds since the role began (or
// any fixed origin), so the same inputs give the same frame on every
// frontend and in tests, and nothing here reads a clock.
package presentation

import (
	"github.com/agentpet/rules_pet/runtime/manifest"
)

// Selection is the frame to show for a role at one instant.
type Selection struct {
	// Role is the index in Manifest.Roles of the role actually used.
	Role int
	// RoleID is that role's identifier.
	RoleID string
	// UsedFallback is true when the requested role is not mapped and the
	// manifest's [fallback] role was used instead.
	UsedFallback bool
	// Animation is the index in Manifest.Animations.
	Animation int
	// Frame is the index in the shared Manifest.Frames pool.
	Frame int
	// Image is the index in Manifest.Images of the frame's image.
	Image int
	// UntilNextMS is how long the selected frame keeps showing before the
	// animation reaches its next frame boundary, 1 to 60000. A single-frame
	// animation reaches a boundary every duration and shows the same frame
	// again, so a caller can always redraw at elapsed+UntilNextMS without
	// special cases.
	UntilNextMS uint64
}

// Select returns the frame of role at elapsedMS. A role the manifest does not
// map selects the fallback role, so an accepted manifest always yields a
// frame. m must be an accepted manifest (from manifest.Parse or an accepted
// asset set).
func Select(m *manifest.Manifest, role string, elapsedMS uint64) Selection {
	return SelectIndex(m, m.RoleIndex(role), elapsedMS)
}

// SelectIndex is Select with the role given as its index in m.Roles, for
// callers that resolved the role once. An index outside m.Roles selects the
// fallback role.
func SelectIndex(m *manifest.Manifest, role int, elapsedMS uint64) Selection {
	s := Selection{Role: role}
	if role < 0 || role >= len(m.Roles) {
		s.Role, s.UsedFallback = m.Fallback, true
	}
	r := m.Roles[s.Role]
	s.RoleID, s.Animation = r.ID, r.Animation
	s.Frame, s.UntilNextMS = frameAt(m, r.Animation, elapsedMS)
	s.Image = m.Frames[s.Frame].Image
	return s
}

// frameAt returns the pool index of animation a's frame at elapsedMS and the
// time until its end. Reducing modulo the cycle first keeps every later
// value below 16*60000, so no sum can overflow whatever elapsedMS is.
func frameAt(m *manifest.Manifest, a int, elapsedMS uint64) (frame int, untilNext uint64) {
	first := m.Animations[a].FirstFrame
	frames := m.AnimationFrames(a)
	cycle := cycleMS(frames)
	if cycle == 0 {
		// Only a hand-built manifest can get here (the parser requires
		// durations of at least 1 ms); show its first frame rather than
		// divide by zero.
		return first, 0
	}
	t := elapsedMS % cycle
	for i, f := range frames {
		d := uint64(f.DurationMS)
		if t < d {
			return first + i, d - t
		}
		t -= d
	}
	panic("presentation: elapsed time beyond the animation's cycle") // unreachable: t < cycle
}

func cycleMS(frames []manifest.Frame) uint64 {
	var total uint64
	for _, f := range frames {
		total += uint64(f.DurationMS)
	}
	return total
}

// Step is one frame of a Schedule.
type Step struct {
	// StartMS is when the frame begins, from the schedule's origin.
	StartMS uint64
	// Frame is the index in the shared Manifest.Frames pool.
	Frame int
	// Image is the index in Manifest.Images.
	Image int
	// ImageID is the image's identifier.
	ImageID string
	// DurationMS is how long the frame shows.
	DurationMS uint32
}

// Schedule lists the frames role shows over cycles whole cycles of its
// animation, starting at 0 ms; an unmapped role schedules the fallback role,
// as Select does. Select at any Step's StartMS selects that Step's frame.
// cycles below 1 gives nil.
func Schedule(m *manifest.Manifest, role string, cycles int) []Step {
	if cycles < 1 {
		return nil
	}
	s := Select(m, role, 0)
	an := m.Animations[s.Animation]
	frames := m.AnimationFrames(s.Animation)
	steps := make([]Step, 0, cycles*len(frames))
	var start uint64
	for c := 0; c < cycles; c++ {
		for i, f := range frames {
			steps = append(steps, Step{
				StartMS:    start,
				Frame:      an.FirstFrame + i,
				Image:      f.Image,
				ImageID:    m.Images[f.Image].ID,
				DurationMS: f.DurationMS,
			})
			start += uint64(f.DurationMS)
		}
	}
	return steps
}
