// Package manifesttest builds manifests for tests of the packages that
// consume them (the pack reader and writer, the firmware vectors), so every
// test "at the limits" means the same manifest.
package manifesttest

import (
	"fmt"
	"strings"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// ID returns an identifier of exactly n bytes (at least len(prefix)+3),
// distinct for each i below 1000.
func ID(prefix string, i, n int) string {
	s := fmt.Sprintf("%s%d_", prefix, i)
	return s + strings.Repeat("x", n-len(s))
}

// Limits returns a manifest at every count limit of section 8 at once: 32
// images, 32 animations (the first with 16 frames), 128 pooled frames, 64
// roles, durations alternating 1 and 60000 ms, 31-byte animation and role
// identifiers, and image identifiers of imageIDBytes bytes (at most 31).
// Image i has the path sprites/s<i>.png.
//
// Pass 31 for a manifest that is only ever a structure. Its text form needs
// shorter image identifiers: a 16-frame line of 31-byte ones would pass the
// 384-byte line limit, and 6 keeps it inside.
func Limits(imageIDBytes int) *manifest.Manifest {
	m := &manifest.Manifest{}
	for i := 0; i < manifest.MaxImages; i++ {
		m.Images = append(m.Images, manifest.Image{ID: ID("img", i, imageIDBytes), Path: fmt.Sprintf("sprites/s%d.png", i)})
	}
	// 16 + 19*4 + 12*3 = 128 frames over 32 animations.
	for a := 0; a < manifest.MaxAnimations; a++ {
		n := 3
		switch {
		case a == 0:
			n = manifest.MaxFramesPerAnimation
		case a <= 19:
			n = 4
		}
		m.Animations = append(m.Animations, manifest.Animation{ID: ID("anim", a, manifest.MaxIdentifierBytes), FirstFrame: len(m.Frames), FrameCount: n})
		for k := 0; k < n; k++ {
			d := uint32(manifest.MinDurationMS)
			if len(m.Frames)%2 == 1 {
				d = manifest.MaxDurationMS
			}
			m.Frames = append(m.Frames, manifest.Frame{Image: len(m.Frames) % manifest.MaxImages, DurationMS: d})
		}
	}
	for r := 0; r < manifest.MaxRoles; r++ {
		m.Roles = append(m.Roles, manifest.Role{ID: ID("role", r, manifest.MaxIdentifierBytes), Animation: r % manifest.MaxAnimations})
	}
	m.Fallback = manifest.MaxRoles - 1
	return m
}
