package motionqa

import (
	"image"
	"math/big"
	"sort"

	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// loops says whether a state's last frame is followed by its first in
// playback, so the loop seam is measured: loop and periodic always, the
// burst modes when they repeat (the authors' reading).
func loops(st stateTiming) bool {
	switch st.mode {
	case model.ModeLoop, model.ModePeriodic:
		return true
	case model.ModeBurstThenSettle, model.ModeBurstThenIdle:
		return st.repeat > 1
	}
	return false
}

type stateTiming struct {
	mode   model.PlaybackMode
	repeat int
}

// stateMetrics measures one state's frames; it returns the metrics object
// and the state's review warnings, each in the report's key order.
func stateMetrics(frames []*image.NRGBA, norm [][]byte, seam bool) (obj, []obj) {
	sigs := make([]signature, len(frames))
	for i, f := range frames {
		sigs[i] = measureSignature(f)
	}
	var deltas []*big.Rat
	for i := 1; i < len(norm); i++ {
		deltas = append(deltas, frameDelta(norm[i-1], norm[i]))
	}
	median := new(big.Rat)
	maxDelta := new(big.Rat)
	maxAt := 0
	if len(deltas) > 0 {
		sorted := append([]*big.Rat(nil), deltas...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Cmp(sorted[j]) < 0 })
		n := len(sorted)
		if n%2 == 1 {
			median = sorted[n/2]
		} else {
			median = new(big.Rat).Add(sorted[n/2-1], sorted[n/2])
			median.Quo(median, rat(2, 1))
		}
		for i, d := range deltas {
			if d.Cmp(maxDelta) > 0 {
				maxDelta, maxAt = d, i+1
			}
		}
		if maxAt == 0 {
			maxAt = 1
		}
	}
	eps := rat(1, 1000000)
	floorMedian := median
	if floorMedian.Cmp(eps) < 0 {
		floorMedian = eps
	}
	spike := new(big.Rat).Quo(maxDelta, floorMedian)
	seamDelta := new(big.Rat)
	if seam && len(norm) > 1 {
		seamDelta = frameDelta(norm[len(norm)-1], norm[0])
	}

	maxStep := func(get func(signature) *big.Rat, relative bool) *big.Rat {
		best := new(big.Rat)
		for i := 1; i < len(sigs); i++ {
			prev, cur := get(sigs[i-1]), get(sigs[i])
			d := new(big.Rat).Sub(cur, prev)
			d.Abs(d)
			if relative {
				p := new(big.Rat).Abs(prev)
				if p.Cmp(eps) < 0 {
					p = eps
				}
				d.Quo(d, p)
			}
			if d.Cmp(best) > 0 {
				best = d
			}
		}
		return best
	}
	areaStep := maxStep(signature.area, true)
	bwStep := maxStep(signature.bboxWidth, false)
	bhStep := maxStep(signature.bboxHeight, false)
	baseStep := maxStep(signature.baseline, false)
	centroid2 := new(big.Rat) // the largest squared centroid step
	for i := 1; i < len(sigs); i++ {
		dx := new(big.Rat).Sub(sigs[i].centroidX(), sigs[i-1].centroidX())
		dy := new(big.Rat).Sub(sigs[i].centroidY(), sigs[i-1].centroidY())
		d2 := new(big.Rat).Add(new(big.Rat).Mul(dx, dx), new(big.Rat).Mul(dy, dy))
		if d2.Cmp(centroid2) > 0 {
			centroid2 = d2
		}
	}

	registration := make([]obj, len(sigs))
	var edges []obj
	var minMargin *big.Rat
	for i, s := range sigs {
		registration[i] = obj{
			{"frame", i},
			{"body_anchor_x", ratDecimal(s.centroidX(), 6)},
			{"baseline_y", ratDecimal(s.baseline(), 6)},
		}
		if sides := s.edgeSides(); len(sides) > 0 {
			edges = append(edges, obj{{"frame", i}, {"sides", sides}})
		}
		for _, m := range s.margins() {
			if minMargin == nil || m.Cmp(minMargin) < 0 {
				minMargin = m
			}
		}
	}
	if minMargin == nil {
		minMargin = new(big.Rat)
	}
	blends := BlendCandidates(frames)
	blendObjs := make([]obj, 0, len(blends))
	for _, f := range blends {
		blendObjs = append(blendObjs, blendObj(f))
	}
	var seamValue interface{}
	if seam {
		seamValue = ratDecimal(seamDelta, 6)
	}
	w, h := 0, 0
	if len(frames) > 0 {
		w, h = frames[0].Rect.Dx(), frames[0].Rect.Dy()
	}
	metrics := obj{
		{"adjacent_delta", obj{
			{"median", ratDecimal(median, 6)},
			{"maximum", ratDecimal(maxDelta, 6)},
			{"maximum_arrival_frame", maxAt},
			{"maximum_to_median_ratio", ratDecimal(spike, 3)},
		}},
		{"maximum_visible_area_step_ratio", ratDecimal(areaStep, 4)},
		{"maximum_bbox_width_step", ratDecimal(bwStep, 4)},
		{"maximum_bbox_height_step", ratDecimal(bhStep, 4)},
		{"maximum_centroid_step", sqrtDecimal(centroid2, 4)},
		{"maximum_baseline_step", ratDecimal(baseStep, 4)},
		{"registration", registration},
		{"minimum_edge_margin", ratDecimal(minMargin, 6)},
		{"edge_contact_frame_count", len(edges)},
		{"edge_contact_frames", firstN(edges, 8)},
		{"linear_blend_candidate_count", len(blendObjs)},
		{"linear_blend_candidates", firstN(blendObjs, 8)},
		{"loop_seam_delta", seamValue},
		{"preview_width", w},
		{"preview_height", h},
	}

	var warnings []obj
	warn := func(code, msg string, evidence obj) {
		warnings = append(warnings, obj{{"code", code}, {"severity", "review"}, {"message", msg}, {"evidence", evidence}})
	}
	if maxDelta.Cmp(rat(4, 1000)) >= 0 && spike.Cmp(rat(35, 10)) >= 0 {
		warn(WarnAbruptMotionSpike, "one transition is far larger than the typical one: look for a cut pose or a jumping prop",
			obj{{"arrival_frame", maxAt}, {"delta", ratDecimal(maxDelta, 6)}, {"ratio_to_median", ratDecimal(spike, 3)}})
	}
	if areaStep.Cmp(rat(1, 10)) >= 0 || bwStep.Cmp(rat(8, 100)) >= 0 || bhStep.Cmp(rat(8, 100)) >= 0 {
		warn(WarnLargeSilhouette, "the silhouette or its scale changes a lot between frames: check shape continuity, identity and crop in playback",
			obj{{"visible_area_step_ratio", ratDecimal(areaStep, 4)}, {"bbox_width_step", ratDecimal(bwStep, 4)}, {"bbox_height_step", ratDecimal(bhStep, 4)}})
	}
	limit2 := rat(35*35, 1000*1000)
	if centroid2.Cmp(limit2) >= 0 || baseStep.Cmp(rat(35, 1000)) >= 0 {
		warn(WarnLargeDisplacement, "the body anchor or the baseline moves a lot: compare the registration path with the intended travel",
			obj{{"centroid_step", sqrtDecimal(centroid2, 4)}, {"baseline_step", ratDecimal(baseStep, 4)}})
	}
	twiceMedian := new(big.Rat).Mul(median, rat(2, 1))
	seamFloor := rat(4, 1000)
	if twiceMedian.Cmp(seamFloor) > 0 {
		seamFloor = twiceMedian
	}
	if seam && seamDelta.Cmp(seamFloor) >= 0 {
		warn(WarnLargeLoopSeam, "the last-to-first seam is larger than the typical transition: check it reads as an authored boundary, not a pop",
			obj{{"seam_delta", ratDecimal(seamDelta, 6)}, {"ratio_to_median", ratDecimal(new(big.Rat).Quo(seamDelta, floorMedian), 3)}})
	}
	if maxDelta.Cmp(rat(8, 10000)) < 0 {
		warn(WarnNearInert, "the frames barely change: check the action reads at runtime size",
			obj{{"maximum_delta", ratDecimal(maxDelta, 6)}})
	}
	if len(blendObjs) >= 2 {
		warn(WarnSyntheticBlending, "two or more frames are near-linear blends of their neighbours: crossfade or interpolated filler",
			obj{{"candidates", firstN(blendObjs, 8)}})
	}
	return metrics, warnings
}

func blendObj(f BlendFit) obj {
	return obj{
		{"frame", f.Frame},
		{"weight", ratDecimal(f.Weight(), 4)},
		{"relative_residual", sqrtDecimal(f.RelativeResidual2(), 6)},
		{"motion_rms", sqrtDecimal(new(big.Rat).Quo(f.MotionRMS2(), rat(255*255, 1)), 6)},
	}
}

func firstN(list []obj, n int) []obj {
	if list == nil {
		return []obj{}
	}
	if len(list) > n {
		return list[:n]
	}
	return list
}

// The review warning codes of a state (the authors' names).
const (
	WarnAbruptMotionSpike = "abrupt_motion_spike"
	WarnLargeSilhouette   = "large_silhouette_or_scale_change"
	WarnLargeDisplacement = "large_subject_displacement"
	WarnLargeLoopSeam     = "large_loop_boundary_delta"
	WarnNearInert         = "near_inert_motion"
	WarnSyntheticBlending = "synthetic_frame_blending"
)
