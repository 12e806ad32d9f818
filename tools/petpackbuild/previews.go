package petpackbuild

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/runtime/webp"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

// The package paths of the two previews (contract section 3).
const (
	CoverPath   = "assets/preview/cover.png"
	PreviewPath = "assets/preview/animated_preview.webp"
)

// PreviewSize is the recommended preview canvas of section 6; the
// validator warns about any other.
var PreviewSize = petpack.Size{Width: 384, Height: 416}

// previewScale is the integer factor that takes a render size to the
// recommended preview size, or 1 when none does (the high tier): previews
// are enlarged by pixel replication only, never resampled, so they show
// exactly the authored pixels.
func previewScale(s petpack.Size) int {
	if s.Width <= 0 || PreviewSize.Width%s.Width != 0 {
		return 1
	}
	k := PreviewSize.Width / s.Width
	if s.Height*k != PreviewSize.Height {
		return 1
	}
	return k
}

// scaleNRGBA replicates every pixel of img k times in each direction. It
// works on Pix rows: each source pixel is converted once (read straight
// from Pix when img is already NRGBA), written k times into one output
// row, and that row is copied k-1 times; per-pixel At/Set, converting
// each pixel k*k times, made scaling the high tier's frames a large part
// of a build.
func scaleNRGBA(img image.Image, k int) *image.NRGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w*k, h*k))
	src, isNRGBA := img.(*image.NRGBA)
	rowLen := w * k * 4
	for y := 0; y < h; y++ {
		row := out.Pix[y*k*out.Stride : y*k*out.Stride+rowLen]
		switch {
		case isNRGBA && k == 1:
			copy(row, src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):])
		default:
			for x := 0; x < w; x++ {
				var px [4]byte
				if isNRGBA {
					copy(px[:], src.Pix[src.PixOffset(b.Min.X+x, b.Min.Y+y):])
				} else {
					c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
					px = [4]byte{c.R, c.G, c.B, c.A}
				}
				for dx := 0; dx < k; dx++ {
					copy(row[(x*k+dx)*4:], px[:])
				}
			}
		}
		for dy := 1; dy < k; dy++ {
			copy(out.Pix[(y*k+dy)*out.Stride:], row)
		}
	}
	return out
}

// frameSet is a package's frames by action, each list in the natural
// order the validator and the runtime play them in.
type frameSet map[petpack.Action][]File

func framesOf(files map[string]File) frameSet {
	out := frameSet{}
	for _, a := range petpack.Actions() {
		dir := a.FramesDir() + "/"
		for p, f := range files {
			if path.Dir(p)+"/" == dir && isPNGName(p) {
				out[a] = append(out[a], f)
			}
		}
		list := out[a]
		sort.Slice(list, func(i, j int) bool { return petpack.NaturalLess(path.Base(list[i].Path), path.Base(list[j].Path)) })
	}
	return out
}

// isPNGName is the frame rule of section 3: a case-insensitive .png suffix.
func isPNGName(p string) bool { return strings.EqualFold(path.Ext(p), ".png") }

func decodePNG(f File) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	return img, nil
}

// errNoPreview is a preview the authored frames cannot make: the frame it
// would show does not decode or is not render_size. The writer then leaves
// the preview out and lets the validator's verdict name the frame, which
// says what to fix; the encoder's complaint about mismatched sizes would
// not.
var errNoPreview = errors.New("no preview: the frames it would show are not decodable render_size PNGs")

// renderFrame decodes an authored frame that is exactly render_size, the
// only kind a preview is made from.
func renderFrame(m *petpack.Manifest, f File) (image.Image, error) {
	img, err := decodePNG(f)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoPreview, err)
	}
	if got := img.Bounds().Size(); got.X != m.RenderSize.Width || got.Y != m.RenderSize.Height {
		return nil, fmt.Errorf("%w: %s is %dx%d", errNoPreview, f.Path, got.X, got.Y)
	}
	return img, nil
}

// coverFrame picks the cover's frame: the one named, or by default the
// idle action's reduced-motion frame, the pose the pet is represented by
// when it does not move.
func coverFrame(m *petpack.Manifest, frames frameSet, name string) (File, error) {
	if name != "" {
		for _, list := range frames {
			for _, f := range list {
				if f.Path == name {
					return f, nil
				}
			}
		}
		return File{}, fmt.Errorf("cover frame %s: not a frame of the package", name)
	}
	list := frames[petpack.ActionIdle]
	i := 0
	if idle := m.State(petpack.ActionIdle); idle != nil {
		i = idle.ReducedMotionFrameIndex
	}
	if i < 0 || i >= len(list) {
		return File{}, fmt.Errorf("cover: the idle action has no frame %d", i)
	}
	return list[i], nil
}

// makeCover is cover.png: the chosen frame at the preview scale, as an
// NRGBA PNG, which image/png writes with an alpha colour type whenever a
// pixel is not opaque.
func makeCover(m *petpack.Manifest, frames frameSet, name string) ([]byte, error) {
	f, err := coverFrame(m, frames, name)
	if err != nil {
		return nil, err
	}
	img, err := renderFrame(m, f)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, scaleNRGBA(img, previewScale(m.RenderSize))); err != nil {
		return nil, fmt.Errorf("cover: %w", err)
	}
	return b.Bytes(), nil
}

// makeAnimatedPreview is animated_preview.webp: the actions in manifest
// order, each whole, at their authored durations (the preview is never
// retimed), for as many actions as fit the preview budgets of section 11
// (120 frames, 128 MiB of decoded RGBA). Every action is a complete
// sequence or absent, so the preview never shows half a gesture.
func makeAnimatedPreview(m *petpack.Manifest, frames frameSet) ([]byte, error) {
	k := previewScale(m.RenderSize)
	frameBytes := int64(4 * m.RenderSize.Width * k * m.RenderSize.Height * k)
	var (
		imgs      []image.Image
		durations []int
		bytesUsed int64
	)
	for _, s := range m.States {
		// A state with the wrong number of frames is the validator's to
		// reject, by name; the preview shows what pairs up.
		list := frames[s.Name]
		if len(list) > len(s.FrameDurationsMS) {
			list = list[:len(s.FrameDurationsMS)]
		}
		n := len(list)
		if len(imgs)+n > webp.DefaultMaxFrames || bytesUsed+int64(n)*frameBytes > webp.DefaultMaxDecodedBytes {
			break
		}
		action := make([]image.Image, 0, n)
		for _, f := range list {
			img, err := renderFrame(m, f)
			if err != nil {
				break
			}
			action = append(action, scaleNRGBA(img, k))
		}
		if len(action) < n {
			continue // a frame the validator will name keeps the action out
		}
		imgs = append(imgs, action...)
		durations = append(durations, s.FrameDurationsMS[:n]...)
		bytesUsed += int64(n) * frameBytes
	}
	if len(imgs) == 0 {
		return nil, errNoPreview
	}
	data, err := webpenc.EncodeAnimated(imgs, durations, 0)
	if err != nil {
		return nil, fmt.Errorf("animated preview: %w", err)
	}
	return data, nil
}
