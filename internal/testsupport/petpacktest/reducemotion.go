package petpacktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petpackbuild"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

// In the sample pet seven actions share reduced_motion_frame_index 2, so a
// Reduce Motion presentation that shows the wrong action's representative
// frame (a drag showing idle's, a burst showing idle's early) can pass a
// test that only compares action-independent indices. The Reduce Motion
// pet gives each of the nine actions its own index, 0 to 8, and each
// action its own frame count, so an index is only right for its action.

// reduceMotionTable is the Reduce Motion pet's timing: for each action
// (contract order) its durations, its reduced_motion_frame_index and, for
// burst_then_settle, a settle index unlike the representative one.
var reduceMotionTable = []struct {
	action    petpack.Action
	durations []int
	reduced   int
	settle    int
}{
	{petpack.ActionIdle, []int{260, 220, 240, 260, 380, 640, 200, 180, 300}, 8, -1},
	{petpack.ActionThinking, []int{120, 140, 160, 180}, 0, -1},
	{petpack.ActionTool, []int{150, 150, 170, 330}, 1, -1},
	{petpack.ActionWaiting, []int{100, 100, 110, 110, 120, 130, 160, 230}, 6, 7},
	{petpack.ActionDone, []int{120, 140, 160, 230}, 2, -1},
	{petpack.ActionFailed, []int{80, 80, 90, 100, 110, 120, 190, 290}, 7, 3},
	{petpack.ActionAcknowledge, []int{180, 140, 180, 300}, 3, -1},
	{petpack.ActionDragLeft, []int{100, 90, 100, 110, 100}, 4, -1},
	{petpack.ActionDragRight, []int{100, 90, 100, 110, 100, 200}, 5, -1},
}

// ReduceMotionStates is the Reduce Motion pet's nine states: the contract's
// default playback modes and repeat counts, idle's default cooldown, and
// per action the index reduced_motion_frame_index names.
func ReduceMotionStates() []petpack.State {
	states := petpack.DefaultStates()
	for i := range states {
		row := reduceMotionTable[i]
		if states[i].Name != row.action {
			panic("petpacktest: reduceMotionTable is not in the contract's order")
		}
		states[i].FrameDurationsMS = append([]int(nil), row.durations...)
		states[i].ReducedMotionFrameIndex = row.reduced
		if row.settle >= 0 {
			settle := row.settle
			states[i].Playback.SettleFrameIndex = &settle
		}
	}
	return states
}

// ReduceMotionFrame is frame i of action a of the Reduce Motion pet: a
// 192x208 transparent canvas holding a block whose colour is the action's
// and whose place is the frame's, so any two frames of the pet differ.
func ReduceMotionFrame(a petpack.Action, i int) []byte {
	k := 0
	for j, row := range reduceMotionTable {
		if row.action == a {
			k = j
		}
	}
	fill := color.NRGBA{R: uint8(40 + 24*k), G: uint8(220 - 20*k), B: uint8(60 + 15*i), A: 255}
	img := image.NewNRGBA(image.Rect(0, 0, 192, 208))
	x0, y0 := 20+12*i, 30+10*k
	for y := y0; y < y0+60; y++ {
		for x := x0; x < x0+50; x++ {
			img.SetNRGBA(x, y, fill)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ReduceMotionPet writes the Reduce Motion pet's archive to out through the
// package writer (which makes the previews and the metadata) and returns
// its validated manifest. The archive's bytes depend only on this code and
// the writer's.
func ReduceMotionPet(t testing.TB, out string) *petpack.Manifest {
	t.Helper()
	spec := &petpackbuild.Spec{
		ID: "pet_reducemotion", Name: "Reduce Motion", Style: "flat blocks",
		Quality: petpack.QualityLow, CreatedAt: "2026-01-02T03:04:05Z",
		Prompt: "prompt",
		// A two-frame 48x52 preview instead of the writer's 384x416 one
		// of every frame, which takes seconds to encode and decode: the
		// preview is display media, not what these tests are about.
		AnimatedPreview: "preview",
		Producer:        petpackbuild.Producer{Generator: "petpacktest", Provenance: "deterministic"},
	}
	for _, s := range ReduceMotionStates() {
		timing, err := json.Marshal(struct {
			FrameDurationsMS        []int            `json:"frame_durations_ms"`
			Playback                petpack.Playback `json:"playback"`
			ReducedMotionFrameIndex int              `json:"reduced_motion_frame_index"`
		}{s.FrameDurationsMS, s.Playback, s.ReducedMotionFrameIndex})
		if err != nil {
			t.Fatal(err)
		}
		st := petpackbuild.SpecState{Name: s.Name, Timing: timing}
		for i := range s.FrameDurationsMS {
			st.Frames = append(st.Frames, fmt.Sprintf("%s/%d", s.Name, i))
		}
		spec.States = append(spec.States, st)
	}
	read := func(name string) ([]byte, error) {
		switch name {
		case "prompt":
			return []byte("Nine coloured blocks, one representative frame each.\n"), nil
		case "preview":
			var frames []image.Image
			for _, c := range []color.NRGBA{{R: 200, A: 255}, {G: 200, A: 255}} {
				img := image.NewNRGBA(image.Rect(0, 0, 48, 52))
				for y := 10; y < 40; y++ {
					for x := 10; x < 30; x++ {
						img.SetNRGBA(x, y, c)
					}
				}
				frames = append(frames, img)
			}
			return webpenc.EncodeAnimated(frames, []int{500, 500}, 0)
		}
		i := strings.LastIndexByte(name, '/')
		n, err := strconv.Atoi(name[i+1:])
		if i < 0 || err != nil {
			return nil, fmt.Errorf("no input %q", name)
		}
		return ReduceMotionFrame(petpack.Action(name[:i]), n), nil
	}
	files, opt, err := petpackbuild.Assemble(spec, read)
	if err != nil {
		t.Fatalf("the Reduce Motion pet: %v", err)
	}
	res, err := petpackbuild.Pack(files, opt)
	if err != nil {
		if res != nil && res.Verdict != nil {
			t.Fatalf("the Reduce Motion pet: %v\n%v", err, res.Verdict.Err())
		}
		t.Fatalf("the Reduce Motion pet: %v", err)
	}
	if err := os.WriteFile(out, res.Archive, 0o644); err != nil {
		t.Fatal(err)
	}
	return res.Verdict.Manifest
}
