package petpackbuild

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/runtime/petpack"
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

// previews is what one pass over the frames made: cover.png and
// animated_preview.webp, each nil when it was not asked for or the frames
// could not make it.
type previews struct {
	cover, animated []byte
}

// makePreviews decodes every frame of the manifest's states once, through
// memo, so the validation that follows decodes none of them again, and
// makes from those decodes the previews asked for: cover.png (from
// coverFile, when wantCover) and animated_preview.webp (when
// wantAnimated). Each decoded frame is scaled and encoded at once and
// let go: the preview holds encoded bitstreams, never every frame's
// pixels.
//
// cover.png is the chosen frame at the preview scale, as an NRGBA PNG,
// which image/png writes with an alpha colour type whenever a pixel is
// not opaque. animated_preview.webp is the actions in manifest order,
// each whole, at their authored durations (the preview is never
// retimed), for as many actions as fit the preview budgets of section 11
// (120 frames, 128 MiB of decoded RGBA). Every action is a complete
// sequence or absent, so the preview never shows half a gesture; a frame
// that does not decode at render_size keeps its action out (and the
// cover, when it is the cover's frame), and the verdict names it.
func makePreviews(m *petpack.Manifest, frames frameSet, memo *petpack.MediaMemo, coverFile *File, wantAnimated bool) (previews, error) {
	var out previews
	k := previewScale(m.RenderSize)
	frameBytes := int64(4 * m.RenderSize.Width * k * m.RenderSize.Height * k)
	var (
		bits      [][]byte
		durations []int
		alpha     bool
		bytesUsed int64
		full      = !wantAnimated // no later action fits the budgets
	)
	encodeCover := func(img *image.NRGBA) error {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return fmt.Errorf("cover: %w", err)
		}
		out.cover = b.Bytes()
		return nil
	}
	for _, s := range m.States {
		// A state with the wrong number of frames is the validator's to
		// reject, by name; the preview shows what pairs up.
		list := frames[s.Name]
		n := len(list)
		if n > len(s.FrameDurationsMS) {
			n = len(s.FrameDurationsMS)
		}
		if !full && (len(bits)+n > webp.DefaultMaxFrames || bytesUsed+int64(n)*frameBytes > webp.DefaultMaxDecodedBytes) {
			full = true
		}
		inPreview := !full
		var action [][]byte
		actionAlpha := false
		// Every frame is decoded, the ones past the durations too: the
		// validation that follows needs each of them once.
		for i, f := range list {
			img, err := memo.DecodeFrame(f.Data, m.RenderSize)
			if err != nil {
				if i < n {
					inPreview = false
				}
				continue
			}
			isCover := coverFile != nil && f.Path == coverFile.Path
			if !isCover && (!inPreview || i >= n) {
				continue
			}
			scaled := scaleNRGBA(img, k)
			if isCover {
				if err := encodeCover(scaled); err != nil {
					return out, err
				}
				coverFile = nil
			}
			if inPreview && i < n {
				b, err := webpenc.EncodeVP8L(scaled)
				if err != nil {
					return out, fmt.Errorf("animated preview: %w", err)
				}
				action = append(action, b)
				actionAlpha = actionAlpha || !scaled.Opaque()
			}
		}
		if inPreview && len(action) == n {
			bits = append(bits, action...)
			durations = append(durations, s.FrameDurationsMS[:n]...)
			alpha = alpha || actionAlpha
			bytesUsed += int64(n) * frameBytes
		}
	}
	if coverFile != nil {
		// The cover's frame belongs to no state of the manifest.
		if img, err := memo.DecodeFrame(coverFile.Data, m.RenderSize); err == nil {
			if err := encodeCover(scaleNRGBA(img, k)); err != nil {
				return out, err
			}
		}
	}
	if wantAnimated && len(bits) > 0 {
		size := m.RenderSize
		data, err := webpenc.AssembleAnimated(size.Width*k, size.Height*k, alpha, bits, durations, 0)
		if err != nil {
			return out, fmt.Errorf("animated preview: %w", err)
		}
		out.animated = data
	}
	return out, nil
}
