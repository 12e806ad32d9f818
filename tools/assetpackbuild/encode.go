// Package assetpackbuild is the converter of pack contract section 12: it turns a
// parsed `manifest pet 1` and its PNG images into a PETP v1 pack, the form
// runtime/pack reads. The output depends only on the manifest and the pixel
// values, never on paths, times or the machine, so equal inputs give equal
// bytes. It uses nothing outside the standard library and this module's
// runtime packages.
package assetpackbuild

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/pack"
)

// Image is one image already reduced to the pack's pixel encoding.
type Image struct {
	// Width is 1 to assetpackformat.MaxDimension pixels.
	Width int
	// Height is 1 to assetpackformat.MaxDimension pixels.
	Height int
	// Colour is RGB565, high byte first, assetpackformat.ColourLength(Width, Height)
	// bytes, with zero for every transparent pixel.
	Colour []byte
	// Mask is one bit a pixel, most significant bit leftmost, rows
	// byte-aligned, assetpackformat.MaskLength(Width, Height) bytes.
	Mask []byte
}

// Encode lays out m and its reduced images as a pack. images[i] carries the
// pixels of m.Images[i]. Encode does not re-check the manifest grammar (the
// parser did); it checks what the pack format itself bounds, so that it
// never returns bytes runtime/pack would reject.
func Encode(m *manifest.Manifest, images []Image) ([]byte, error) {
	if err := checkEncodable(m, images); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	l := newLayout(m)
	for i, im := range images {
		if err := l.add(m, i, im.Width, im.Height); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
	}
	out := make([]byte, assetpackformat.PackLength(l.cursor)) // zeroed, so every padding byte is already right
	for i, im := range images {
		copy(out[l.places[i].ColourOffset:], im.Colour)
		copy(out[l.places[i].MaskOffset:], im.Mask)
	}
	return seal(m, images, l, out)
}

// seal writes the header, the tables and the check around payloads
// already in place in out, which l laid out and which is otherwise zero,
// and reads the result back.
func seal(m *manifest.Manifest, images []Image, l *layout, out []byte) ([]byte, error) {
	c := countsOf(m)
	t := assetpackformat.Layout(c)
	places := l.places
	n := len(out)
	le := binary.LittleEndian

	copy(out[0:4], assetpackformat.Magic)
	le.PutUint16(out[4:], assetpackformat.Version)
	le.PutUint16(out[6:], assetpackformat.HeaderLength)
	le.PutUint32(out[8:], uint32(n))
	out[12] = assetpackformat.PixelEncodingRGB565
	out[13] = assetpackformat.TransparencyMask
	le.PutUint16(out[14:], uint16(c.Images))
	le.PutUint16(out[16:], uint16(c.Animations))
	le.PutUint16(out[18:], uint16(c.Frames))
	le.PutUint16(out[20:], uint16(c.Roles))
	le.PutUint16(out[22:], uint16(m.Fallback))
	le.PutUint32(out[24:], uint32(t.Payload))

	for i, im := range m.Images {
		copy(out[t.Images+i*assetpackformat.ImageRecordLength:], im.ID)
	}
	for i, a := range m.Animations {
		r := out[t.Animations+i*assetpackformat.AnimationRecordLength:]
		copy(r, a.ID)
		le.PutUint16(r[32:], uint16(a.FirstFrame))
		le.PutUint16(r[34:], uint16(a.FrameCount))
	}
	for i, f := range m.Frames {
		r := out[t.Frames+i*assetpackformat.FrameRecordLength:]
		le.PutUint16(r, uint16(f.Image))
		le.PutUint16(r[2:], uint16(f.DurationMS))
	}
	for i, ro := range m.Roles {
		r := out[t.Roles+i*assetpackformat.RoleRecordLength:]
		copy(r, ro.ID)
		le.PutUint16(r[32:], uint16(ro.Animation))
	}
	for i, im := range images {
		r := out[t.Entries+i*assetpackformat.EntryRecordLength:]
		p := places[i]
		le.PutUint16(r, uint16(im.Width))
		le.PutUint16(r[2:], uint16(im.Height))
		le.PutUint32(r[4:], uint32(p.ColourOffset))
		le.PutUint32(r[8:], uint32(len(im.Colour)))
		le.PutUint32(r[12:], uint32(p.MaskOffset))
		le.PutUint32(r[16:], uint32(len(im.Mask)))
	}
	le.PutUint32(out[n-assetpackformat.CheckLength:], crc32.ChecksumIEEE(out[:n-assetpackformat.CheckLength]))

	// The checks above are meant to cover every acceptance rule; reading the
	// result back proves it for this pack rather than trusting that.
	if err := pack.Verify(out); err != nil {
		return nil, fmt.Errorf("encode: internal error: the written pack is rejected: %w", err)
	}
	return out, nil
}

func countsOf(m *manifest.Manifest) assetpackformat.Counts {
	return assetpackformat.Counts{Images: len(m.Images), Animations: len(m.Animations), Frames: len(m.Frames), Roles: len(m.Roles)}
}

// layout places the payloads one after another behind the tables. Both
// the header pass and Encode use it, so the limit is refused with the same
// words at the same image whether the sizes come from headers or pixels.
type layout struct {
	places []assetpackformat.Placement
	dims   [][2]int // width and height of each placed image
	cursor int
}

func newLayout(m *manifest.Manifest) *layout {
	return &layout{places: make([]assetpackformat.Placement, 0, len(m.Images)), dims: make([][2]int, 0, len(m.Images)), cursor: assetpackformat.Layout(countsOf(m)).Payload}
}

// add places image i of w by h pixels. The limit is checked as the pack
// grows, so the sum stays small whatever the count.
func (l *layout) add(m *manifest.Manifest, i, w, h int) error {
	p := assetpackformat.Place(l.cursor, w, h)
	l.places = append(l.places, p)
	l.dims = append(l.dims, [2]int{w, h})
	l.cursor = p.End
	if assetpackformat.PackLength(l.cursor) > assetpackformat.MaxPackLength {
		return fmt.Errorf("image %d (%s) takes the pack past the %d-byte limit", i, m.Images[i].ID, assetpackformat.MaxPackLength)
	}
	return nil
}

// checkEncodable rejects what the pack format cannot represent or the
// reader would reject, with the manifest's own names in the message.
func checkEncodable(m *manifest.Manifest, images []Image) error {
	if len(images) != len(m.Images) {
		return fmt.Errorf("%d images for a manifest of %d", len(images), len(m.Images))
	}
	for _, l := range [...]struct {
		what       string
		count, max int
	}{
		{"images", len(m.Images), manifest.MaxImages},
		{"animations", len(m.Animations), manifest.MaxAnimations},
		{"frames", len(m.Frames), manifest.MaxFrames},
		{"roles", len(m.Roles), manifest.MaxRoles},
	} {
		if l.count > l.max {
			return fmt.Errorf("%d %s, more than the limit of %d", l.count, l.what, l.max)
		}
	}
	if m.Fallback < 0 || m.Fallback >= len(m.Roles) {
		return fmt.Errorf("fallback role %d, the manifest has %d roles", m.Fallback, len(m.Roles))
	}
	for i, im := range m.Images {
		if err := checkID(im.ID); err != nil {
			return fmt.Errorf("image %d: %w", i, err)
		}
	}
	for i, a := range m.Animations {
		if err := checkID(a.ID); err != nil {
			return fmt.Errorf("animation %d: %w", i, err)
		}
		if a.FrameCount < 1 || a.FrameCount > manifest.MaxFramesPerAnimation || a.FirstFrame < 0 || a.FirstFrame+a.FrameCount > len(m.Frames) {
			return fmt.Errorf("animation %s: frames %d+%d do not form a run of 1 to %d inside the %d-frame pool", a.ID, a.FirstFrame, a.FrameCount, manifest.MaxFramesPerAnimation, len(m.Frames))
		}
	}
	for i, f := range m.Frames {
		if f.Image < 0 || f.Image >= len(m.Images) {
			return fmt.Errorf("frame %d: image %d, the manifest has %d images", i, f.Image, len(m.Images))
		}
		if f.DurationMS < manifest.MinDurationMS || f.DurationMS > manifest.MaxDurationMS {
			return fmt.Errorf("frame %d: duration %d ms is outside %d to %d", i, f.DurationMS, manifest.MinDurationMS, manifest.MaxDurationMS)
		}
	}
	for i, r := range m.Roles {
		if err := checkID(r.ID); err != nil {
			return fmt.Errorf("role %d: %w", i, err)
		}
		if r.Animation < 0 || r.Animation >= len(m.Animations) {
			return fmt.Errorf("role %s: animation %d, the manifest has %d animations", r.ID, r.Animation, len(m.Animations))
		}
	}
	for i, im := range images {
		id := m.Images[i].ID
		if im.Width < assetpackformat.MinDimension || im.Width > assetpackformat.MaxDimension || im.Height < assetpackformat.MinDimension || im.Height > assetpackformat.MaxDimension {
			return fmt.Errorf("image %s: %dx%d is outside %d to %d pixels", id, im.Width, im.Height, assetpackformat.MinDimension, assetpackformat.MaxDimension)
		}
		if want := assetpackformat.ColourLength(im.Width, im.Height); len(im.Colour) != want {
			return fmt.Errorf("image %s: colour payload is %d bytes, a %dx%d image needs %d", id, len(im.Colour), im.Width, im.Height, want)
		}
		if want := assetpackformat.MaskLength(im.Width, im.Height); len(im.Mask) != want {
			return fmt.Errorf("image %s: mask payload is %d bytes, a %dx%d image needs %d", id, len(im.Mask), im.Width, im.Height, want)
		}
	}
	return nil
}

// checkID bounds an identifier to what its 32-byte field can hold: the
// grammar's 31 bytes and no zero byte, which would end it early.
func checkID(id string) error {
	if len(id) > manifest.MaxIdentifierBytes {
		return fmt.Errorf("identifier %.40q is %d bytes, more than %d", id, len(id), manifest.MaxIdentifierBytes)
	}
	if strings.IndexByte(id, 0) >= 0 {
		return fmt.Errorf("identifier %q holds a zero byte", id)
	}
	return nil
}
