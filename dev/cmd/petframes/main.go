// Command petframes generates the frames of the sample V3 pet (the
// `.petpack` contract): the orange tabby cat of dev/cmd/petsprites drawn
// at the low tier's 192x208 on a transparent background, with the nine fixed
// actions at the frame counts of the contract's default timing table
// (section 4), 50 frames in all:
//
//	idle         6  breathing, a blink, a tail flick
//	thinking     4  head tilt, glance up, thought dots appearing
//	tool         4  tapping a small keyboard, one paw then the other
//	waiting      8  tail swish settling, glances; the last frame is the settle pose
//	done         4  crouch, happy bounce, landing, with sparkles
//	failed       8  surprise, then ears, head and tail droop; the last is the settle pose
//	acknowledge  4  a small nod
//	drag_left    6  held by the scruff, body trailing right, legs dangling
//	drag_right   6  the same swinging the other way
//
// Usage:
//
//	go run ./dev/cmd/petframes -out assets/petpack/frames
//
// It writes OUT/<action>/0000.png, 0001.png, ... and removes any other .png
// file from those nine directories, so a glob of each directory is exactly
// the action's frames in playing order.
//
// Every frame is an 8-bit RGBA PNG (colour type 6, not interlaced) of an
// image.NRGBA whose pixels are either fully transparent with RGB 0 or fully
// opaque colours of a small flat palette with a dark outline. The drawing is
// dev/pixelart's integer geometry (fixed-point sub-pixel sampling,
// a rounded sine table for rotations), so the pixels are the same on every
// architecture, and the encoder is image/png's at its default level, so the
// same program gives the same bytes. Each file is written to a temporary name
// and renamed. The test in this directory checks that the checked-in frames match a fresh run;
// after changing the art, rerun the command above and update the golden
// archive (bazel run //assets/petpack:golden.update).
package main

import (
	"flag"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/dev/pixelart"
	"github.com/agentpet/rules_pet/dev/spritepng"
	"github.com/agentpet/rules_pet/runtime/petpack/model"
)

// Width and Height are the low tier's exact runtime canvas.
const (
	Width  = 192
	Height = 208
)

// Action is one of the contract's nine fixed actions and its frame count.
type Action struct {
	Name   string
	Frames int
}

// Actions lists the nine actions in the contract's order with the frame
// counts of its default timing table, both from the model.
var Actions = func() []Action {
	var out []Action
	for _, s := range model.DefaultStates() {
		out = append(out, Action{string(s.Name), len(s.FrameDurationsMS)})
	}
	return out
}()

func main() {
	out := flag.String("out", "assets/petpack/frames", "directory to write OUT/<action>/NNNN.png into")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: petframes [-out dir]")
		os.Exit(2)
	}
	if err := Generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "petframes:", err)
		os.Exit(1)
	}
}

// FrameName is the file name of frame i of an action: 0000.png, 0001.png, ...
func FrameName(i int) string {
	return fmt.Sprintf("%04d.png", i)
}

// Generate renders every action and writes its frames to
// outDir/<action>/NNNN.png, creating the directories as needed and removing
// any other .png file from them.
func Generate(outDir string) error {
	for _, a := range Actions {
		frames, err := Render(a.Name)
		if err != nil {
			return err
		}
		dir := filepath.Join(outDir, a.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		keep := make(map[string]bool)
		for i, img := range frames {
			keep[FrameName(i)] = true
			if err := spritepng.Write(filepath.Join(dir, FrameName(i)), img); err != nil {
				return err
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".png") && !keep[e.Name()] {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Render draws the frames of the named action, in playing order.
func Render(action string) ([]*image.NRGBA, error) {
	var draw func(c *pixelart.Canvas, i int)
	n := 0
	switch model.Action(action) {
	case model.ActionIdle:
		draw, n = drawIdle, len(idlePoses)
	case model.ActionThinking:
		draw, n = drawThinking, len(thinkingPoses)
	case model.ActionTool:
		draw, n = drawTool, len(toolPoses)
	case model.ActionWaiting:
		draw, n = drawWaiting, len(waitingPoses)
	case model.ActionDone:
		draw, n = drawDone, len(donePoses)
	case model.ActionFailed:
		draw, n = drawFailed, len(failedPoses)
	case model.ActionAcknowledge:
		draw, n = drawAcknowledge, len(acknowledgePoses)
	case model.ActionDragLeft:
		draw, n = func(c *pixelart.Canvas, i int) { drawDrag(c, -1, i) }, len(dragSwing)
	case model.ActionDragRight:
		draw, n = func(c *pixelart.Canvas, i int) { drawDrag(c, 1, i) }, len(dragSwing)
	default:
		return nil, fmt.Errorf("unknown action %q", action)
	}
	frames := make([]*image.NRGBA, n)
	for i := range frames {
		c := pixelart.New(Width, Height, 1, 2)
		draw(c, i)
		frames[i] = c.Image(palette)
	}
	return frames, nil
}
