package pack

import (
	"bytes"
	pf "github.com/agentpet/rules_pet/internal/assetpackformat"
	"hash/crc32"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// Pack is an accepted pack: its header, its decoded tables, and per image an
// entry whose payload slices point into the bytes it was read from.
type Pack struct {
	// Header holds the header fields as stored.
	Header Header
	// Images is the image table, in image index order.
	Images []Image
	// Animations is the animation table.
	Animations []Animation
	// Frames is the frame table, the pool every animation names a run of.
	Frames []Frame
	// Roles is the role table.
	Roles []Role
	// Entries is the entry table; Entries[i] carries the pixels of Images[i].
	Entries []Entry
	// Check is the stored CRC-32, which equals the computed one.
	Check uint32
}

// Header is the fixed header of section 4, minus the magic, which an
// accepted pack always has.
type Header struct {
	// Version is the format version, always Version.
	Version uint16 `json:"version"`
	// HeaderLength is always HeaderLength.
	HeaderLength uint16 `json:"header_length"`
	// PackLength is the total pack length including header and check.
	PackLength uint32 `json:"pack_length"`
	// PixelEncoding is always PixelEncodingRGB565.
	PixelEncoding uint8 `json:"pixel_encoding"`
	// Transparency is always TransparencyMask.
	Transparency uint8 `json:"transparency"`
	// ImageCount is the number of image and entry records.
	ImageCount uint16 `json:"image_count"`
	// AnimationCount is the number of animation records.
	AnimationCount uint16 `json:"animation_count"`
	// FrameCount is the number of frame records.
	FrameCount uint16 `json:"frame_count"`
	// RoleCount is the number of role records.
	RoleCount uint16 `json:"role_count"`
	// FallbackRole is the index in the role table of the fallback role.
	FallbackRole uint16 `json:"fallback_role"`
	// PayloadOffset is the offset of the first payload byte.
	PayloadOffset uint32 `json:"payload_offset"`
}

// Image is one image table record.
type Image struct {
	// ID is the image identifier, without its terminator and padding.
	ID string
}

// Animation is one animation table record: a run of the frame table.
type Animation struct {
	// ID is the animation identifier.
	ID string
	// FirstFrame is the index of the run's first frame record.
	FirstFrame uint16
	// FrameCount is the run's length, 1 to manifest.MaxFramesPerAnimation.
	FrameCount uint16
}

// Frame is one frame table record.
type Frame struct {
	// Image is the index in the image table.
	Image uint16
	// DurationMS is 1 to 60000 milliseconds.
	DurationMS uint16
}

// Role is one role table record; its padding is always zero.
type Role struct {
	// ID is the role identifier.
	ID string
	// Animation is the index in the animation table.
	Animation uint16
}

// Entry is one entry table record with its payloads.
type Entry struct {
	// Width is 1 to MaxDimension pixels.
	Width uint16
	// Height is 1 to MaxDimension pixels.
	Height uint16
	// ColourOffset is the declared offset of the colour payload.
	ColourOffset uint32
	// ColourLength is the declared colour length, ColourLength(Width, Height).
	ColourLength uint32
	// MaskOffset is the declared offset of the mask payload.
	MaskOffset uint32
	// MaskLength is the declared mask length, MaskLength(Width, Height).
	MaskLength uint32
	// Colour is the RGB565 payload, high byte first. It aliases the bytes
	// the pack was read from and its capacity ends with the payload, so
	// neither reslicing nor append reaches the padding or the next payload.
	Colour []byte
	// Mask is the one-bit mask payload, aliasing the pack like Colour.
	Mask []byte
}

// Read validates data against every acceptance rule and decodes it. On
// rejection it returns nil and an *Error naming the first rule broken.
func Read(data []byte) (*Pack, error) {
	var p Pack
	if err := ReadInto(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// ReadInto validates data and decodes it into dst. The whole pack is
// validated before dst is touched, so a rejection leaves dst as the zero
// Pack, never partly filled.
func ReadInto(data []byte, dst *Pack) error {
	if err := verify(data); err != nil {
		*dst = Pack{}
		return err
	}
	*dst = decode(data)
	return nil
}

// Verify applies every acceptance rule to data without decoding anything.
// It returns nil or the *Error of the first rule broken.
func Verify(data []byte) error {
	if err := verify(data); err != nil {
		return err
	}
	return nil
}

// verify returns *Error rather than error so the rule is typed; its callers
// convert only a non-nil one, because a nil *Error in an error interface is
// not nil.
func verify(data []byte) *Error {
	// Each step makes the next safe: nothing past the header is read until
	// the length agrees, and no table is read until its offsets are known to
	// lie inside the pack.
	if len(data) < pf.HeaderLength {
		return reject(RuleTruncatedHeader, "pack is %d bytes, shorter than the %d-byte header", len(data), pf.HeaderLength)
	}
	if string(data[pf.OffMagic:pf.OffMagic+4]) != pf.Magic {
		return reject(RuleBadMagic, "magic is %q, want %q", data[pf.OffMagic:pf.OffMagic+4], pf.Magic)
	}
	if v := pf.U16(data, pf.OffVersion); v != pf.Version {
		return reject(RuleUnsupportedVersion, "format version %d; this reader accepts only version %d", v, pf.Version)
	}
	if h := pf.U16(data, pf.OffHeaderLength); h != pf.HeaderLength {
		return reject(RuleBadHeaderLength, "header length %d, want %d", h, pf.HeaderLength)
	}
	declared := pf.U32(data, pf.OffPackLength)
	// Compared in uint64: a supplied slice may be longer than any uint32.
	if uint64(declared) != uint64(len(data)) {
		return reject(RulePackLengthMismatch, "header declares %d bytes, %d supplied", declared, len(data))
	}
	if declared%pf.Alignment != 0 {
		return reject(RulePackLengthUnaligned, "pack length %d is not a multiple of %d", declared, pf.Alignment)
	}
	if declared < pf.MinPackLength || declared > pf.MaxPackLength {
		return reject(RulePackLengthOutOfRange, "pack length %d is outside %d to %d", declared, pf.MinPackLength, pf.MaxPackLength)
	}
	n := len(data)
	checkOff := n - pf.CheckLength
	if got, want := crc32.ChecksumIEEE(data[:checkOff]), pf.U32(data, checkOff); got != want {
		return reject(RuleCheckMismatch, "CRC-32 of the first %d bytes is 0x%08x, the stored check is 0x%08x", checkOff, got, want)
	}
	if pe, tr := data[pf.OffPixelEncoding], data[pf.OffTransparency]; pe != pf.PixelEncodingRGB565 || tr != pf.TransparencyMask {
		return reject(RuleUnsupportedEncoding, "pixel encoding %d and transparency %d; this reader accepts only %d and %d", pe, tr, pf.PixelEncodingRGB565, pf.TransparencyMask)
	}
	c := pf.HeaderCounts(data)
	for _, l := range [...]struct {
		what       string
		count, max int
	}{
		{"image", c.Images, manifest.MaxImages},
		{"animation", c.Animations, manifest.MaxAnimations},
		{"frame", c.Frames, manifest.MaxFrames},
		{"role", c.Roles, manifest.MaxRoles},
	} {
		if l.count > l.max {
			return reject(RuleCountOutOfRange, "%d %s records, more than the limit of %d", l.count, l.what, l.max)
		}
	}
	t := pf.Layout(c)
	if po := pf.U32(data, pf.OffPayload); uint64(po) != uint64(t.Payload) {
		return reject(RulePayloadOffsetMismatch, "header declares payload offset %d, the counts put it at %d", po, t.Payload)
	}
	if t.Payload > checkOff {
		return reject(RulePayloadOffsetOutOfRange, "tables end at %d, past the check at %d", t.Payload, checkOff)
	}
	if fb := pf.U16(data, pf.OffFallback); fb >= c.Roles {
		return reject(RuleFallbackOutOfRange, "fallback role %d, the role table has %d records", fb, c.Roles)
	}
	if err := verifyTables(data, c, t); err != nil {
		return err
	}
	return verifyEntries(data, c, t)
}

func verifyTables(data []byte, c pf.Counts, t pf.Tables) *Error {
	for i := 0; i < c.Animations; i++ {
		r := t.Animations + i*pf.AnimationRecordLength
		first, count := pf.U16(data, r+32), pf.U16(data, r+34)
		switch {
		case count == 0:
			return reject(RuleAnimationRunOutOfRange, "animation %d holds no frames", i)
		case count > manifest.MaxFramesPerAnimation:
			return reject(RuleAnimationRunOutOfRange, "animation %d holds %d frames, more than %d", i, count, manifest.MaxFramesPerAnimation)
		case first+count > c.Frames:
			return reject(RuleAnimationRunOutOfRange, "animation %d names frames %d to %d, the frame table has %d records", i, first, first+count-1, c.Frames)
		}
	}
	for i := 0; i < c.Frames; i++ {
		if img := pf.U16(data, t.Frames+i*pf.FrameRecordLength); img >= c.Images {
			return reject(RuleFrameImageOutOfRange, "frame %d names image %d, the image table has %d records", i, img, c.Images)
		}
	}
	for i := 0; i < c.Frames; i++ {
		if d := pf.U16(data, t.Frames+i*pf.FrameRecordLength+2); d < manifest.MinDurationMS || d > manifest.MaxDurationMS {
			return reject(RuleFrameDurationOutOfRange, "frame %d lasts %d ms, outside %d to %d", i, d, manifest.MinDurationMS, manifest.MaxDurationMS)
		}
	}
	for i := 0; i < c.Roles; i++ {
		if a := pf.U16(data, t.Roles+i*pf.RoleRecordLength+32); a >= c.Animations {
			return reject(RuleRoleAnimationOutOfRange, "role %d names animation %d, the animation table has %d records", i, a, c.Animations)
		}
	}
	for i := 0; i < c.Roles; i++ {
		if pad := pf.U16(data, t.Roles+i*pf.RoleRecordLength+34); pad != 0 {
			return reject(RuleRolePaddingNonzero, "role %d padding is 0x%04x, want zero", i, pad)
		}
	}
	var buf [manifest.MaxImages + manifest.MaxAnimations + manifest.MaxRoles]idField
	ids := identifierFields(buf[:0], c, t)
	for _, f := range ids {
		if bytes.IndexByte(data[f.off:f.off+pf.IdentifierLength], 0) < 0 {
			return reject(RuleIdentifierUnterminated, "%s %d identifier has no zero terminator in its %d bytes", f.table, f.index, pf.IdentifierLength)
		}
	}
	for _, f := range ids {
		field := data[f.off : f.off+pf.IdentifierLength]
		end := bytes.IndexByte(field, 0)
		for j := end + 1; j < len(field); j++ {
			if field[j] != 0 {
				return reject(RuleIdentifierPaddingNonzero, "%s %d identifier has byte 0x%02x at %d, after its terminator at %d", f.table, f.index, field[j], j, end)
			}
		}
	}
	return nil
}

type idField struct {
	table string
	index int
	off   int
}

// identifierFields appends every identifier field in table order, so the
// identifier rules report the first offending field in the pack.
func identifierFields(ids []idField, c pf.Counts, t pf.Tables) []idField {
	for i := 0; i < c.Images; i++ {
		ids = append(ids, idField{"image", i, t.Images + i*pf.ImageRecordLength})
	}
	for i := 0; i < c.Animations; i++ {
		ids = append(ids, idField{"animation", i, t.Animations + i*pf.AnimationRecordLength})
	}
	for i := 0; i < c.Roles; i++ {
		ids = append(ids, idField{"role", i, t.Roles + i*pf.RoleRecordLength})
	}
	return ids
}

func verifyEntries(data []byte, c pf.Counts, t pf.Tables) *Error {
	// Counts are bounded by now, so fixed arrays keep validation off the
	// heap, as the C reader must be.
	var entryBuf [manifest.MaxImages]pf.RawEntry
	var placeBuf [manifest.MaxImages]pf.Placement
	entries, places := entryBuf[:c.Images], placeBuf[:c.Images]
	for i := range entries {
		entries[i] = pf.EntryAt(data, t, i)
	}
	for i, e := range entries {
		if e.Width < pf.MinDimension || e.Width > pf.MaxDimension || e.Height < pf.MinDimension || e.Height > pf.MaxDimension {
			return reject(RuleEntryDimensionOutOfRange, "entry %d is %dx%d, outside %d to %d", i, e.Width, e.Height, pf.MinDimension, pf.MaxDimension)
		}
	}
	for i, e := range entries {
		if want := uint64(pf.ColourLength(e.Width, e.Height)); e.ColourLen != want {
			return reject(RuleEntryLengthMismatch, "entry %d colour length %d, a %dx%d image needs %d", i, e.ColourLen, e.Width, e.Height, want)
		}
		if want := uint64(pf.MaskLength(e.Width, e.Height)); e.MaskLen != want {
			return reject(RuleEntryLengthMismatch, "entry %d mask length %d, a %dx%d image needs %d", i, e.MaskLen, e.Width, e.Height, want)
		}
	}
	for i, e := range entries {
		if e.ColourOff%pf.Alignment != 0 {
			return reject(RulePayloadMisaligned, "entry %d colour offset %d is not a multiple of %d", i, e.ColourOff, pf.Alignment)
		}
		if e.MaskOff%pf.Alignment != 0 {
			return reject(RulePayloadMisaligned, "entry %d mask offset %d is not a multiple of %d", i, e.MaskOff, pf.Alignment)
		}
	}
	lo, hi := uint64(t.Payload), uint64(len(data)-pf.CheckLength)
	for i, e := range entries {
		if e.ColourOff < lo || e.ColourOff+e.ColourLen > hi {
			return reject(RulePayloadOutOfRegion, "entry %d colour payload [%d, %d) is outside the payload region [%d, %d)", i, e.ColourOff, e.ColourOff+e.ColourLen, lo, hi)
		}
		if e.MaskOff < lo || e.MaskOff+e.MaskLen > hi {
			return reject(RulePayloadOutOfRegion, "entry %d mask payload [%d, %d) is outside the payload region [%d, %d)", i, e.MaskOff, e.MaskOff+e.MaskLen, lo, hi)
		}
	}
	// Section 7 fixes the layout completely, so the reader recomputes it
	// rather than only ruling out overlaps: a pack is accepted only in the
	// one form the converter writes, which also makes the padding checkable.
	cursor := t.Payload
	for i, e := range entries {
		p := pf.Place(cursor, e.Width, e.Height)
		if e.ColourOff != uint64(p.ColourOffset) {
			return reject(RulePayloadLayoutMismatch, "entry %d colour payload at %d, section 7 places it at %d", i, e.ColourOff, p.ColourOffset)
		}
		if e.MaskOff != uint64(p.MaskOffset) {
			return reject(RulePayloadLayoutMismatch, "entry %d mask payload at %d, section 7 places it at %d", i, e.MaskOff, p.MaskOffset)
		}
		places[i] = p
		cursor = p.End
	}
	if want := pf.PackLength(cursor); want != len(data) {
		return reject(RulePayloadLayoutMismatch, "the last payload ends at %d, so the pack is %d bytes, not %d", cursor, want, len(data))
	}
	prevEnd := t.Payload
	for i, p := range places {
		if err := zeroPadding(data, prevEnd, p.ColourOffset, i, "before its colour payload"); err != nil {
			return err
		}
		if err := zeroPadding(data, p.ColourOffset+int(entries[i].ColourLen), p.MaskOffset, i, "between its colour and mask payloads"); err != nil {
			return err
		}
		prevEnd = p.End
	}
	return zeroPadding(data, prevEnd, len(data)-pf.CheckLength, len(places)-1, "after its mask payload")
}

func zeroPadding(data []byte, from, to, entry int, where string) *Error {
	for j := from; j < to; j++ {
		if data[j] != 0 {
			return reject(RulePayloadPaddingNonzero, "entry %d padding %s holds 0x%02x at %d", entry, where, data[j], j)
		}
	}
	return nil
}

// decode builds the Pack of data, which verify accepted.
func decode(data []byte) Pack {
	c := pf.HeaderCounts(data)
	t := pf.Layout(c)
	p := Pack{
		Header: Header{
			Version:        uint16(pf.U16(data, pf.OffVersion)),
			HeaderLength:   uint16(pf.U16(data, pf.OffHeaderLength)),
			PackLength:     pf.U32(data, pf.OffPackLength),
			PixelEncoding:  data[pf.OffPixelEncoding],
			Transparency:   data[pf.OffTransparency],
			ImageCount:     uint16(c.Images),
			AnimationCount: uint16(c.Animations),
			FrameCount:     uint16(c.Frames),
			RoleCount:      uint16(c.Roles),
			FallbackRole:   uint16(pf.U16(data, pf.OffFallback)),
			PayloadOffset:  pf.U32(data, pf.OffPayload),
		},
		Images:     make([]Image, c.Images),
		Animations: make([]Animation, c.Animations),
		Frames:     make([]Frame, c.Frames),
		Roles:      make([]Role, c.Roles),
		Entries:    make([]Entry, c.Images),
		Check:      pf.U32(data, len(data)-pf.CheckLength),
	}
	for i := range p.Images {
		p.Images[i].ID = identifier(data, t.Images+i*pf.ImageRecordLength)
	}
	for i := range p.Animations {
		r := t.Animations + i*pf.AnimationRecordLength
		p.Animations[i] = Animation{ID: identifier(data, r), FirstFrame: uint16(pf.U16(data, r+32)), FrameCount: uint16(pf.U16(data, r+34))}
	}
	for i := range p.Frames {
		r := t.Frames + i*pf.FrameRecordLength
		p.Frames[i] = Frame{Image: uint16(pf.U16(data, r)), DurationMS: uint16(pf.U16(data, r+2))}
	}
	for i := range p.Roles {
		r := t.Roles + i*pf.RoleRecordLength
		p.Roles[i] = Role{ID: identifier(data, r), Animation: uint16(pf.U16(data, r+32))}
	}
	for i := range p.Entries {
		e := pf.EntryAt(data, t, i)
		co, cl, mo, ml := int(e.ColourOff), int(e.ColourLen), int(e.MaskOff), int(e.MaskLen)
		p.Entries[i] = Entry{
			Width:        uint16(e.Width),
			Height:       uint16(e.Height),
			ColourOffset: uint32(co),
			ColourLength: uint32(cl),
			MaskOffset:   uint32(mo),
			MaskLength:   uint32(ml),
			Colour:       data[co : co+cl : co+cl],
			Mask:         data[mo : mo+ml : mo+ml],
		}
	}
	return p
}

func identifier(data []byte, off int) string {
	f := data[off : off+pf.IdentifierLength]
	return string(f[:bytes.IndexByte(f, 0)])
}

// Manifest materialises the pack as the manifest it was compiled from. It
// equals, field for field, a desktop parse of that manifest apart from
// Image.Path, which a pack does not carry and is left empty.
func (p *Pack) Manifest() manifest.Manifest {
	m := manifest.Manifest{
		Images:     make([]manifest.Image, len(p.Images)),
		Animations: make([]manifest.Animation, len(p.Animations)),
		Frames:     make([]manifest.Frame, len(p.Frames)),
		Roles:      make([]manifest.Role, len(p.Roles)),
		Fallback:   int(p.Header.FallbackRole),
	}
	for i, im := range p.Images {
		m.Images[i] = manifest.Image{ID: im.ID}
	}
	for i, a := range p.Animations {
		m.Animations[i] = manifest.Animation{ID: a.ID, FirstFrame: int(a.FirstFrame), FrameCount: int(a.FrameCount)}
	}
	for i, f := range p.Frames {
		m.Frames[i] = manifest.Frame{Image: int(f.Image), DurationMS: uint32(f.DurationMS)}
	}
	for i, r := range p.Roles {
		m.Roles[i] = manifest.Role{ID: r.ID, Animation: int(r.Animation)}
	}
	return m
}
