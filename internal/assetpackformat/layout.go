// Package assetpackformat is the byte layout of PETP v1 packs (the pack
// contract's sections 3 to 9): the constants, where each table and payload
// goes, and a pack's named regions. The reader (runtime/pack) and the
// writers (tools/assetpackbuild, tests/vectors, petasset's inspect and diff) all
// take the layout from here; runtime/pack's own API stays the reader's.
package assetpackformat

import (
	"encoding/binary"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// Layout facts of PETP v1 (pack contract sections 3 to 9). The reader and the
// converter both take them from here, so a writer and a reader that disagree
// about an offset can only do so by disagreeing with this file.
const (
	// Magic is the four bytes every pack opens with.
	Magic = "PETP"
	// Version is the only format version this reader accepts (section 11).
	Version = 1
	// HeaderLength is the length of the fixed header (section 4).
	HeaderLength = 28
	// IdentifierLength is the size of every zero-padded identifier field,
	// which holds at most manifest.MaxIdentifierBytes bytes and a terminator.
	IdentifierLength = manifest.MaxIdentifierBytes + 1
	// ImageRecordLength is the size of one image table record (section 5.1).
	ImageRecordLength = 32
	// AnimationRecordLength is the size of one animation table record (5.2).
	AnimationRecordLength = 36
	// FrameRecordLength is the size of one frame table record (5.3).
	FrameRecordLength = 4
	// RoleRecordLength is the size of one role table record (5.4).
	RoleRecordLength = 36
	// EntryRecordLength is the size of one entry table record (section 6).
	EntryRecordLength = 20
	// CheckLength is the size of the trailing CRC-32 (section 8).
	CheckLength = 4
	// MinPackLength is the shortest pack whose check does not overlap its
	// header. No accepted pack is this short, but below it the check and
	// the header would share bytes.
	MinPackLength = HeaderLength + CheckLength
	// MaxPackLength is the pack length limit of section 9, 16 MiB.
	MaxPackLength = 16 << 20
	// MinDimension and MaxDimension bound an entry's width and height.
	MinDimension = 1
	// MaxDimension is the format bound of section 6.
	MaxDimension = 1024
	// PixelEncodingRGB565 is the pixel encoding field value for RGB565, high
	// byte first (section 7.1).
	PixelEncodingRGB565 = 1
	// TransparencyMask is the transparency field value for a one-bit mask
	// (section 7.2).
	TransparencyMask = 1
	// Alignment is the boundary every record, payload and the pack length
	// fall on.
	Alignment = 4
)

// Header field offsets (section 4), from the start of the pack.
const (
	OffMagic         = 0
	OffVersion       = 4
	OffHeaderLength  = 6
	OffPackLength    = 8
	OffPixelEncoding = 12
	OffTransparency  = 13
	OffImageCount    = 14
	OffAnimCount     = 16
	OffFrameCount    = 18
	OffRoleCount     = 20
	OffFallback      = 22
	OffPayload       = 24
)

// Counts are the four table counts of a header.
type Counts struct {
	// Images is the number of image table and entry table records.
	Images int
	// Animations is the number of animation table records.
	Animations int
	// Frames is the number of frame table records (the shared pool).
	Frames int
	// Roles is the number of role table records.
	Roles int
}

// Tables are the offsets, from the start of the pack, at which each table
// begins, and the payload offset that follows the last one.
type Tables struct {
	// Images is the offset of the image table (always HeaderLength).
	Images int
	// Animations is the offset of the animation table.
	Animations int
	// Frames is the offset of the frame table.
	Frames int
	// Roles is the offset of the role table.
	Roles int
	// Entries is the offset of the entry table.
	Entries int
	// Payload is the offset of the first payload byte.
	Payload int
}

// Layout computes where each table starts for c. The tables follow the header
// with no padding between them; every record length is a multiple of four, so
// every offset stays aligned. Counts come from 16-bit fields, so the sum
// stays below 2^24 and cannot overflow an int.
func Layout(c Counts) Tables {
	var t Tables
	t.Images = HeaderLength
	t.Animations = t.Images + c.Images*ImageRecordLength
	t.Frames = t.Animations + c.Animations*AnimationRecordLength
	t.Roles = t.Frames + c.Frames*FrameRecordLength
	t.Entries = t.Roles + c.Roles*RoleRecordLength
	t.Payload = t.Entries + c.Images*EntryRecordLength
	return t
}

// ColourLength is the colour payload length of a width by height image: two
// bytes a pixel, no row padding (section 7.1). Callers bound the dimensions
// to MaxDimension first, which keeps the product far inside an int.
func ColourLength(width, height int) int { return width * height * 2 }

// MaskLength is the mask payload length: one bit a pixel, each row starting
// on a byte boundary (section 7.2).
func MaskLength(width, height int) int { return (width + 7) / 8 * height }

// Align4 rounds n up to the next multiple of four.
func Align4(n int) int { return (n + Alignment - 1) &^ (Alignment - 1) }

// Placement is where section 7 puts one image's payloads.
type Placement struct {
	// ColourOffset is the offset of the colour payload.
	ColourOffset int
	// MaskOffset is the offset of the mask payload.
	MaskOffset int
	// End is the offset just past the mask payload, before any padding.
	End int
}

// Place returns where an image of width by height goes when the previous
// payload ended at cursor: its colour payload on the next four-byte
// boundary, then its mask payload on the one after. The first image's
// cursor is the payload offset.
func Place(cursor, width, height int) Placement {
	var p Placement
	p.ColourOffset = Align4(cursor)
	p.MaskOffset = Align4(p.ColourOffset + ColourLength(width, height))
	p.End = p.MaskOffset + MaskLength(width, height)
	return p
}

// PackLength is the total length of a pack whose last payload ends at end:
// padding to the next boundary, then the check.
func PackLength(end int) int { return Align4(end) + CheckLength }

// U16 reads the little-endian 16-bit field at off.
func U16(b []byte, off int) int { return int(binary.LittleEndian.Uint16(b[off:])) }

// U32 reads the little-endian 32-bit field at off.
func U32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }

// HeaderCounts reads the four table counts of a header of at least
// HeaderLength bytes.
func HeaderCounts(data []byte) Counts {
	return Counts{
		Images:     U16(data, OffImageCount),
		Animations: U16(data, OffAnimCount),
		Frames:     U16(data, OffFrameCount),
		Roles:      U16(data, OffRoleCount),
	}
}

// RawEntry is an entry record's fields widened so that offset plus length
// cannot overflow.
type RawEntry struct {
	// Width and Height are the image's declared dimensions.
	Width, Height int
	// ColourOff and ColourLen place the colour payload.
	ColourOff, ColourLen uint64
	// MaskOff and MaskLen place the mask payload.
	MaskOff, MaskLen uint64
}

// EntryAt reads entry record i of the entry table at t.Entries.
func EntryAt(data []byte, t Tables, i int) RawEntry {
	r := t.Entries + i*EntryRecordLength
	return RawEntry{
		Width:     U16(data, r),
		Height:    U16(data, r+2),
		ColourOff: uint64(U32(data, r+4)),
		ColourLen: uint64(U32(data, r+8)),
		MaskOff:   uint64(U32(data, r+12)),
		MaskLen:   uint64(U32(data, r+16)),
	}
}
