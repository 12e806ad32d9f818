package manifest

import (
	"strconv"
	"strings"
)

// Format writes m as canonical `manifest pet 1` text: the header, the four
// sections in order, one space between fields, LF terminators. Parsing the
// result gives back m, which is what lets tests generate manifests from
// structures and lets fuzzing check that an accepted text round-trips.
func Format(m *Manifest) []byte {
	var b strings.Builder
	b.WriteString("manifest pet 1\n\n[images]\n")
	for _, im := range m.Images {
		b.WriteString(im.ID + " " + im.Path + "\n")
	}
	b.WriteString("\n[animations]\n")
	for _, a := range m.Animations {
		b.WriteString(a.ID)
		for _, f := range m.Frames[a.FirstFrame : a.FirstFrame+a.FrameCount] {
			b.WriteString(" " + m.Images[f.Image].ID + " " + strconv.FormatUint(uint64(f.DurationMS), 10))
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n[roles]\n")
	for _, r := range m.Roles {
		b.WriteString(r.ID + " " + m.Animations[r.Animation].ID + "\n")
	}
	b.WriteString("\n[fallback]\n" + m.Roles[m.Fallback].ID + "\n")
	return []byte(b.String())
}
