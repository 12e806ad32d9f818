package desktop

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/runtime/assetset"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/runtime/playback"
	"github.com/agentpet/rules_pet/runtime/presentation"
)

// manifestPet plays a `manifest pet 1` asset set, from a pack or a runtime
// copy: one role at a time, its animation's frames at their durations from
// when the role was selected.
type manifestPet struct {
	m      *manifest.Manifest
	images []*image.NRGBA // by image index, on the canvas
	w, h   int
	role   int   // role index; -1 for a name the manifest lacks
	since  int64 // when role was selected
	reduce bool
}

// FromPack returns the pet of a PETP pack's bytes, presenting role (the
// fallback role when the pack has none of that name). The colour payload
// and mask are shown as they are: RGB565 expanded by bit replication, a
// pixel shown where its mask bit is set. An invalid pack is the reader's
// *pack.Error naming the rule.
func FromPack(data []byte, role string) (Pet, error) {
	p, err := pack.Read(data)
	if err != nil {
		return nil, err
	}
	m := p.Manifest()
	w, h := 0, 0
	for _, e := range p.Entries {
		w, h = maxInt(w, int(e.Width)), maxInt(h, int(e.Height))
	}
	imgs := make([]*image.NRGBA, len(p.Entries))
	for i, e := range p.Entries {
		imgs[i] = place(PackImage(e), w, h)
	}
	return newManifestPet(&m, imgs, w, h, role), nil
}

// PackImage expands one pack entry: r8 = r5<<3 | r5>>2, g8 = g6<<2 | g6>>4,
// b8 = b5<<3 | b5>>2, alpha 255 where the mask bit is set and 0 elsewhere.
func PackImage(e pack.Entry) *image.NRGBA {
	w, h := int(e.Width), int(e.Height)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	stride := (w + 7) / 8
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if e.Mask[y*stride+x/8]&(0x80>>(x%8)) == 0 {
				continue
			}
			v := uint16(e.Colour[2*(y*w+x)])<<8 | uint16(e.Colour[2*(y*w+x)+1])
			r5, g6, b5 := uint8(v>>11), uint8(v>>5&0x3f), uint8(v&0x1f)
			o := y*img.Stride + 4*x
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = r5<<3|r5>>2, g6<<2|g6>>4, b5<<3|b5>>2, 255
		}
	}
	return img
}

// FromRuntime returns the pet of the runtime copy rooted at root, read
// through assetset's desktop reader and its images decoded. When the set is
// refused, or an accepted image does not decode, it returns the fallback
// pet of manifest contract section 9 and the reason: the caller shows it and
// reports the reason, and the pet keeps running.
func FromRuntime(root, role string) (Pet, error) {
	out := assetset.Load(assetset.Dir(root))
	if out.Fallback != nil {
		return NewFallback(), out.Fallback
	}
	m := out.Set.Manifest
	imgs := make([]*image.NRGBA, len(m.Images))
	w, h := 0, 0
	for i, im := range m.Images {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(im.Path)))
		if err != nil {
			return NewFallback(), fmt.Errorf("%s: %w", im.Path, err)
		}
		img, err := DecodePNG(data)
		if err != nil {
			return NewFallback(), fmt.Errorf("%s: %w", im.Path, err)
		}
		imgs[i] = img
		w, h = maxInt(w, img.Rect.Dx()), maxInt(h, img.Rect.Dy())
	}
	for i := range imgs {
		imgs[i] = place(imgs[i], w, h)
	}
	return newManifestPet(m, imgs, w, h, role), nil
}

// DecodePNG decodes a PNG into non-premultiplied RGBA, the colour a shown
// pixel keeps.
func DecodePNG(data []byte) (*image.NRGBA, error) {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode PNG: %w", err)
	}
	if n, ok := src.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n, nil
	}
	b := src.Bounds()
	img := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			img.Set(x, y, src.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return img, nil
}

// place puts img on a w by h canvas, anchored at the bottom centre, so
// sprites of different sizes stand on the same ground.
func place(img *image.NRGBA, w, h int) *image.NRGBA {
	iw, ih := img.Rect.Dx(), img.Rect.Dy()
	if iw == w && ih == h {
		return img
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	x0, y0 := (w-iw)/2, h-ih
	for y := 0; y < ih; y++ {
		copy(out.Pix[(y0+y)*out.Stride+4*x0:], img.Pix[y*img.Stride:y*img.Stride+4*iw])
	}
	return out
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func newManifestPet(m *manifest.Manifest, imgs []*image.NRGBA, w, h int, role string) *manifestPet {
	return &manifestPet{m: m, images: imgs, w: w, h: h, role: m.RoleIndex(role)}
}

func (p *manifestPet) Size() (int, int) { return p.w, p.h }

func (p *manifestPet) sel(t int64) presentation.Selection {
	if p.reduce {
		// Reduce Motion holds the animation's first frame.
		return presentation.SelectIndex(p.m, p.role, 0)
	}
	return presentation.SelectIndex(p.m, p.role, uint64(t-p.since))
}

func (p *manifestPet) Show(t int64) View {
	return View{Key: p.m.Images[p.sel(t).Image].ID, Scale: 1}
}

// Next reports no change for a held animation (every frame one image),
// whatever presentation's UntilNextMS says of its frame boundaries.
func (p *manifestPet) Next(t int64) (int64, bool) {
	s := p.sel(t)
	if p.reduce || Held(p.m, s.Animation) {
		return 0, false
	}
	// Skip boundaries where the next frame shows the same image.
	next := t + int64(s.UntilNextMS)
	for i := 0; i < len(p.m.AnimationFrames(s.Animation)); i++ {
		n := p.sel(next)
		if n.Image != s.Image {
			break
		}
		next += int64(n.UntilNextMS)
	}
	return next, true
}

// Held reports whether every frame of animation a shows one image.
func Held(m *manifest.Manifest, a int) bool {
	fs := m.AnimationFrames(a)
	for _, f := range fs[1:] {
		if f.Image != fs[0].Image {
			return false
		}
	}
	return true
}

func (p *manifestPet) Image(key string) (*image.NRGBA, error) {
	for i, im := range p.m.Images {
		if im.ID == key {
			return p.images[i], nil
		}
	}
	return nil, fmt.Errorf("no image %q", key)
}

func (p *manifestPet) Command(t int64, c Command) error {
	switch {
	case c.Event != "":
		role, err := control.RoleForEvent(c.Event)
		if err != nil {
			return err
		}
		p.setRole(t, role)
	case c.Role != "":
		p.setRole(t, c.Role)
	case c.ReduceMotion != nil:
		p.reduce = *c.ReduceMotion
	case c.Bubble != nil:
		return fmt.Errorf("bubble: only a .petpack pet shows a bubble")
	}
	return nil
}

// setRole selects a role; the role already selected does not restart.
func (p *manifestPet) setRole(t int64, name string) {
	if i := p.m.RoleIndex(name); i != p.role {
		p.role, p.since = i, t
	}
}

func (p *manifestPet) Pointer(int64, playback.Pointer) error { return nil }

// FallbackSize is the side of the square window of the built-in fallback
// presentation, in pixels before --scale.
const FallbackSize = 96

// fallbackPet is the built-in fallback presentation of manifest contract
// section 9: one calm colour, held.
type fallbackPet struct{ img *image.NRGBA }

// NewFallback returns the built-in fallback presentation: a FallbackSize
// square of assetset.BuiltinFallback's colour, held (one frame, no timer).
func NewFallback() Pet {
	c := assetset.BuiltinFallback.Colour
	img := image.NewNRGBA(image.Rect(0, 0, FallbackSize, FallbackSize))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return &fallbackPet{img: img}
}

func (f *fallbackPet) Size() (int, int)                      { return FallbackSize, FallbackSize }
func (f *fallbackPet) Show(int64) View                       { return View{Key: "fallback", Scale: 1} }
func (f *fallbackPet) Next(int64) (int64, bool)              { return 0, false }
func (f *fallbackPet) Image(string) (*image.NRGBA, error)    { return f.img, nil }
func (f *fallbackPet) Command(int64, Command) error          { return nil }
func (f *fallbackPet) Pointer(int64, playback.Pointer) error { return nil }
