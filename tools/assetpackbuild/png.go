package assetpackbuild

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
)

// Reason is the stable name of one way a PNG falls outside the accepted
// subset of section 12: bit depth 8, colour type 6 or 2, no interlacing.
type Reason string

// The PNG rejection reasons, in the order ConvertPNG checks them.
const (
	// ReasonNotPNG: the file does not begin with the PNG signature.
	ReasonNotPNG Reason = "png_not_png"
	// ReasonIHDR: the first chunk is not a complete 13-byte IHDR.
	ReasonIHDR Reason = "png_ihdr"
	// ReasonPalette: colour type 3.
	ReasonPalette Reason = "png_palette"
	// ReasonGrayscale: colour type 0 or 4.
	ReasonGrayscale Reason = "png_grayscale"
	// ReasonColourType: a colour type PNG does not define.
	ReasonColourType Reason = "png_colour_type"
	// ReasonBitDepth: a bit depth other than 8.
	ReasonBitDepth Reason = "png_bit_depth"
	// ReasonInterlaced: Adam7 or any other interlace method.
	ReasonInterlaced Reason = "png_interlaced"
	// ReasonDimensions: a width or height outside 1 to assetpackformat.MaxDimension.
	ReasonDimensions Reason = "png_dimensions"
	// ReasonTrailingData: bytes after the IEND chunk.
	ReasonTrailingData Reason = "png_trailing_data"
	// ReasonDecode: the chunks or the image data do not decode.
	ReasonDecode Reason = "png_decode"
)

// PNGError is a PNG the converter refuses, with the reason and what to do.
type PNGError struct {
	// Reason names the broken condition.
	Reason Reason
	// Msg explains it to the person who made the image.
	Msg string
}

// Error formats the rejection as `REASON: message`.
func (e *PNGError) Error() string { return string(e.Reason) + ": " + e.Msg }

func pngErr(r Reason, format string, args ...interface{}) *PNGError {
	return &PNGError{Reason: r, Msg: fmt.Sprintf(format, args...)}
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// ihdr holds the IHDR fields the subset is decided on.
type ihdr struct {
	width, height uint32
	depth, colour byte
	interlace     byte
}

// readIHDR reads the header from the raw bytes, so an image outside the
// subset, or one too large to be worth decoding, is refused before the
// decoder allocates anything for it.
func readIHDR(data []byte) (ihdr, error) {
	if len(data) < len(pngSignature) || string(data[:len(pngSignature)]) != pngSignature {
		return ihdr{}, pngErr(ReasonNotPNG, "the file does not begin with the PNG signature")
	}
	c := data[len(pngSignature):]
	if len(c) < 8+13+4 || binary.BigEndian.Uint32(c) != 13 || string(c[4:8]) != "IHDR" {
		return ihdr{}, pngErr(ReasonIHDR, "the first chunk is not a 13-byte IHDR")
	}
	h := ihdr{
		width:     binary.BigEndian.Uint32(c[8:]),
		height:    binary.BigEndian.Uint32(c[12:]),
		depth:     c[16],
		colour:    c[17],
		interlace: c[20],
	}
	switch h.colour {
	case 2, 6:
	case 3:
		return h, pngErr(ReasonPalette, "palette images are not accepted; save as 8-bit RGBA")
	case 0, 4:
		return h, pngErr(ReasonGrayscale, "grayscale images are not accepted; save as 8-bit RGBA")
	default:
		return h, pngErr(ReasonColourType, "colour type %d is not a PNG colour type; save as 8-bit RGBA", h.colour)
	}
	if h.depth != 8 {
		return h, pngErr(ReasonBitDepth, "bit depth %d is not accepted; save with 8 bits a channel", h.depth)
	}
	if h.interlace != 0 {
		return h, pngErr(ReasonInterlaced, "interlace method %d is not accepted; save without interlacing", h.interlace)
	}
	if h.width < assetpackformat.MinDimension || h.width > assetpackformat.MaxDimension || h.height < assetpackformat.MinDimension || h.height > assetpackformat.MaxDimension {
		return h, pngErr(ReasonDimensions, "%dx%d is outside %d to %d pixels a side", h.width, h.height, assetpackformat.MinDimension, assetpackformat.MaxDimension)
	}
	return h, nil
}

// checkChunks walks the chunk sequence to its IEND. image/png stops reading
// there, so without this walk bytes appended to a sprite would be silently
// carried in the source tree yet absent from the pack.
func checkChunks(data []byte) error {
	for off := len(pngSignature); ; {
		if len(data)-off < 12 {
			return pngErr(ReasonDecode, "the chunk at byte %d is truncated before an IEND chunk", off)
		}
		n := uint64(binary.BigEndian.Uint32(data[off:]))
		typ := string(data[off+4 : off+8])
		end := uint64(off) + 12 + n
		if end > uint64(len(data)) {
			return pngErr(ReasonDecode, "chunk %q at byte %d claims %d bytes, past the end of the file", typ, off, n)
		}
		off = int(end)
		if typ == "IEND" {
			if off != len(data) {
				return pngErr(ReasonTrailingData, "%d bytes follow the IEND chunk", len(data)-off)
			}
			return nil
		}
	}
}

// ConvertPNG checks that data is a PNG inside the accepted subset, decodes
// it, and reduces it to the pack's pixel encoding: each channel shifted down
// to RGB565 (no rounding or dithering), alpha 128 or more opaque, every
// transparent pixel given colour zero. A colour type 2 image is opaque
// throughout, even with a tRNS chunk, because section 12 says it has no
// alpha channel. A rejection is a *PNGError.
func ConvertPNG(data []byte) (Image, error) {
	h, err := readIHDR(data)
	if err != nil {
		return Image{}, err
	}
	w, hgt := int(h.width), int(h.height)
	img := Image{Width: w, Height: hgt, Colour: make([]byte, assetpackformat.ColourLength(w, hgt)), Mask: make([]byte, assetpackformat.MaskLength(w, hgt))}
	if err := convertInto(data, &img, new(fastDecoder)); err != nil {
		return Image{}, err
	}
	return img, nil
}

// convertInto is ConvertPNG reducing into dst, whose size the caller
// has set: the build reduces straight into the pack. An image whose
// header disagrees with dst's size (a file rewritten since its header was
// read) is refused. fast, when not nil, is tried before image/png; either
// way the result is image/png's (see fastDecoder).
func convertInto(data []byte, dst *Image, fast *fastDecoder) error {
	h, err := checkPNG(data, dst)
	if err != nil {
		return err
	}
	if fast != nil && fast.decode(data, h, dst) {
		return nil
	}
	return decodeStd(data, h, dst)
}

// checkPNG is what every conversion checks before decoding: the header,
// its agreement with dst's size, and the chunk sequence to its IEND.
func checkPNG(data []byte, dst *Image) (ihdr, error) {
	h, err := readIHDR(data)
	if err != nil {
		return h, err
	}
	if int(h.width) != dst.Width || int(h.height) != dst.Height {
		return h, pngErr(ReasonDecode, "the header says %dx%d, but %dx%d when it was first read: the file changed during the build", h.width, h.height, dst.Width, dst.Height)
	}
	return h, checkChunks(data)
}

// decodeStd decodes data, which checkPNG accepted, with image/png and
// reduces it into dst.
func decodeStd(data []byte, h ihdr, dst *Image) (err error) {
	// The header checks bound the work; a decoder bug must still end as a
	// rejection of this image, not a crash of the build.
	defer func() {
		if r := recover(); r != nil {
			err = pngErr(ReasonDecode, "the decoder failed: %v", r)
		}
	}()
	decoded, derr := png.Decode(bytes.NewReader(data))
	if derr != nil {
		return pngErr(ReasonDecode, "%v", derr)
	}
	w, hgt := dst.Width, dst.Height
	if b := decoded.Bounds(); b != image.Rect(0, 0, w, hgt) {
		return pngErr(ReasonDecode, "decoded bounds %v do not match the %dx%d header", b, w, hgt)
	}
	var pix []byte
	var stride int
	switch d := decoded.(type) {
	case *image.NRGBA:
		// Colour type 6, or type 2 with tRNS. NRGBA holds straight
		// (non-premultiplied) values, so reading Pix directly keeps the
		// colour of a half-transparent pixel exact; color.RGBA would not.
		pix, stride = d.Pix, d.Stride
	case *image.RGBA:
		// Colour type 2 without tRNS: alpha is 0xff, so premultiplied and
		// straight values are the same.
		pix, stride = d.Pix, d.Stride
	default:
		return pngErr(ReasonDecode, "decoded to %T, not 8-bit RGB or RGBA", decoded)
	}
	reduce(pix, stride, dst, h.colour == 2)
	return nil
}

// reduce turns 8-bit RGBA rows into RGB565 high byte first and a mask in
// im. Every byte of im's buffers is written, so they need not be zero.
func reduce(pix []byte, stride int, im *Image, opaque bool) {
	w, h := im.Width, im.Height
	cl, ml := 2*w, (w+7)/8
	for y := 0; y < h; y++ {
		colour, mask := im.Colour[y*cl:y*cl+cl], im.Mask[y*ml:y*ml+ml]
		row := pix[y*stride : y*stride+4*w]
		if opaque {
			reduceOpaqueRow(row, 4, colour, mask)
		} else {
			reduceAlphaRow(row, colour, mask)
		}
	}
}

// reduceAlphaRow reduces one row of 8-bit RGBA pixels. It works eight
// pixels (one mask byte) at a time, two pixels to a 64-bit word
// (reducePair), and without a branch on alpha: a pixel below the
// threshold gets colour zero from a mask of its alpha's top bit.
func reduceAlphaRow(row, colour, mask []byte) {
	w := len(colour) / 2
	full := w / 8
	for m := 0; m < full; m++ {
		px := row[32*m : 32*m+32 : 32*m+32]
		c01, b01 := reducePair(binary.LittleEndian.Uint64(px[0:]))
		c23, b23 := reducePair(binary.LittleEndian.Uint64(px[8:]))
		c45, b45 := reducePair(binary.LittleEndian.Uint64(px[16:]))
		c67, b67 := reducePair(binary.LittleEndian.Uint64(px[24:]))
		c := colour[16*m : 16*m+16 : 16*m+16]
		binary.LittleEndian.PutUint64(c[0:], uint64(c01)|uint64(c23)<<32)
		binary.LittleEndian.PutUint64(c[8:], uint64(c45)|uint64(c67)<<32)
		mask[m] = byte(b01<<6 | b23<<4 | b45<<2 | b67)
	}
	if r := w - 8*full; r > 0 {
		px, c := row[32*full:], colour[16*full:]
		var bits uint32
		for k := 0; k < r; k++ {
			bits |= reducePixel(binary.LittleEndian.Uint32(px[4*k:]), c[2*k:]) << (7 - uint(k))
		}
		mask[full] = byte(bits)
	}
}

// reducePair reduces two RGBA pixels read as one little-endian word
// (the first pixel's red in the low byte): it returns their RGB565
// values as the four bytes they take in the pack (each high byte first)
// read little endian, and their mask bits, the first pixel's high.
func reducePair(q uint64) (colour uint32, bits uint32) {
	const lo5, lo6 = 0x0000001f_0000001f, 0x0000003f_0000003f
	on := q >> 31 & 0x00000001_00000001 // each pixel's alpha >= 128
	v := (q>>3&lo5)<<11 | (q>>10&lo6)<<5 | q>>19&lo5
	v &= on * 0xffff
	// Each 16-bit value's bytes swapped, in its half of the word.
	v = v>>8&0x000000ff_000000ff | v&0x000000ff_000000ff<<8
	return uint32(v) | uint32(v>>32)<<16, uint32(on<<1|on>>32) & 3
}

// reducePixel writes the RGB565 value of p, an RGBA pixel read little
// endian (red in the low byte), into c, zero when its alpha is below 128,
// and returns its mask bit.
func reducePixel(p uint32, c []byte) uint32 {
	on := p >> 31
	v := ((p>>3)&0x1f<<11 | (p>>10)&0x3f<<5 | (p>>19)&0x1f) & -on
	binary.BigEndian.PutUint16(c, uint16(v))
	return on
}

// reduceOpaqueRow reduces one row of pixels of bpp bytes (3 for RGB, 4
// for RGBA whose alpha is ignored), every one opaque.
func reduceOpaqueRow(row []byte, bpp int, colour, mask []byte) {
	w := len(colour) / 2
	for x := 0; x < w; x++ {
		p := row[bpp*x : bpp*x+3]
		binary.BigEndian.PutUint16(colour[2*x:], uint16(p[0]>>3)<<11|uint16(p[1]>>2)<<5|uint16(p[2]>>3))
	}
	for m := range mask {
		mask[m] = 0xff
	}
	if r := w % 8; r != 0 {
		mask[len(mask)-1] = 0xff << (8 - uint(r))
	}
}
