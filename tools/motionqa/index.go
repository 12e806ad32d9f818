package motionqa

import (
	"bytes"
	"fmt"
	"html"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// FramePath is where a QA directory keeps a copy of an audited frame, for
// the review page.
func FramePath(a petpack.Action, name string) string { return "frames/" + string(a) + "/" + name }

func (o obj) get(k string) interface{} {
	for _, m := range o {
		if m.K == k {
			return m.V
		}
	}
	return nil
}

// indexPage is the review page: the sheet, each audited state's preview
// beside its measurements, every frame with its duration, and the presence
// preview. It loads only files of the QA directory.
func indexPage(s *Source, audited []petpack.Action, states obj, presence obj) []byte {
	var b bytes.Buffer
	e := html.EscapeString
	m := s.Manifest
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<link rel=\"icon\" href=\"data:,\">\n<title>Motion QA: %s</title>\n", e(m.ID))
	b.WriteString("<style>body{font-family:sans-serif;background:#202024;color:#eee}section{margin:1em 0;padding:.5em;border-top:1px solid #555}" +
		"img{image-rendering:pixelated;background:#ccc}table{border-collapse:collapse}td,th{padding:2px 6px;border:1px solid #444}figure{display:inline-block;margin:4px}</style>\n</head>\n<body>\n")
	fmt.Fprintf(&b, "<h1>Motion QA: %s (%s)</h1>\n<p>%s</p>\n", e(m.Name), e(m.ID), e(MeasurementNote))
	fmt.Fprintf(&b, "<section id=\"keyframes\"><h2>Keyframe sheet</h2><img src=\"%s\" alt=\"keyframe sheet\"></section>\n", KeyframesPNG)
	fmt.Fprintf(&b, "<section id=\"presence\"><h2>Presence preview (%d ms)</h2><img class=\"anim\" src=\"%s\" alt=\"presence preview\" data-duration-ms=\"%d\"></section>\n",
		presence.get("duration_ms"), PresenceWebP, presence.get("duration_ms"))
	for _, a := range audited {
		st := m.State(a)
		so, _ := states.get(string(a)).(obj)
		metrics, _ := so.get("metrics").(obj)
		reg, _ := metrics.get("registration").([]obj)
		fmt.Fprintf(&b, "<section id=\"state-%s\"><h2>%s</h2>\n", a, a)
		fmt.Fprintf(&b, "<figure><img class=\"anim\" src=\"%s\" alt=\"%s at authored timing\" data-duration-ms=\"%d\"><figcaption>authored timing, %d ms a loop</figcaption></figure>\n",
			AuthoredPreviewPath(a), a, sum(st.FrameDurationsMS), sum(st.FrameDurationsMS))
		fmt.Fprintf(&b, "<table><tr><th>playback</th><td>%s</td></tr><tr><th>reduced-motion frame</th><td>%d</td></tr><tr><th>motion digest</th><td><code>%s</code></td></tr>",
			e(string(st.Playback.Mode)), st.ReducedMotionFrameIndex, e(fmt.Sprint(so.get("motion_digest"))))
		for _, k := range []string{"maximum_centroid_step", "maximum_baseline_step", "maximum_visible_area_step_ratio", "minimum_edge_margin", "edge_contact_frame_count", "linear_blend_candidate_count", "loop_seam_delta"} {
			fmt.Fprintf(&b, "<tr><th>%s</th><td>%v</td></tr>", k, metrics.get(k))
		}
		b.WriteString("<tr><th>warnings</th><td>")
		ws, _ := so.get("warnings").([]obj)
		for i, w := range ws {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e(fmt.Sprint(w.get("code"))))
		}
		b.WriteString("</td></tr></table>\n<div class=\"frames\">\n")
		for i, name := range s.FrameNames(a) {
			anchor, base := interface{}(""), interface{}("")
			if i < len(reg) {
				anchor, base = reg[i].get("body_anchor_x"), reg[i].get("baseline_y")
			}
			fmt.Fprintf(&b, "<figure><img src=\"%s\" alt=\"%s frame %d\"><figcaption>%d: %s, %d ms, anchor %v, baseline %v</figcaption></figure>\n",
				e(FramePath(a, name)), a, i, i, e(name), st.FrameDurationsMS[i], anchor, base)
		}
		b.WriteString("</div></section>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}
