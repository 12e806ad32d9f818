package webp

import (
	"encoding/binary"
)

// VP8X flag bits (container spec, "Extended File Format").
const (
	flagAnimation = 1 << 1
	flagXMP       = 1 << 2
	flagEXIF      = 1 << 3
	flagAlpha     = 1 << 4
	flagICC       = 1 << 5
	flagReserved  = 0xc1
)

// File is the validated structure of a WebP file. Byte slices alias the
// input.
type File struct {
	// Width and Height are the canvas size.
	Width, Height int
	// Extended reports a VP8X file; false means a simple VP8 or VP8L file.
	Extended bool
	// Flags is the VP8X flags byte (0 for a simple file).
	Flags byte
	// Animated reports the VP8X animation flag.
	Animated bool
	// Background is the ANIM background colour, read as a little-endian
	// uint32 (bytes B, G, R, A), so 0xAARRGGBB.
	Background uint32
	// LoopCount is the ANIM loop count; 0 means forever.
	LoopCount int
	// Frames holds one entry per ANMF frame, or the single image of a
	// still file at offset 0 with duration 0.
	Frames []FrameInfo
}

// FrameInfo is one validated frame, not yet decoded.
type FrameInfo struct {
	// X, Y, Width and Height place the frame on the canvas.
	X, Y, Width, Height int
	// Duration is the ANMF duration in milliseconds.
	Duration int
	// NoBlend is the ANMF blending bit: set means overwrite, not alpha-blend.
	NoBlend bool
	// DisposeBackground is the ANMF disposal bit.
	DisposeBackground bool
	// Lossless reports a VP8L bitstream; false means VP8 (lossy).
	Lossless bool
	// Alpha is the ALPH payload for a lossy frame, or nil.
	Alpha []byte
	// Bitstream is the VP8L or VP8 payload.
	Bitstream []byte
	// HuffmanGroups is the prefix-code group count the pre-pass found in
	// the VP8L bitstream (0 for VP8).
	HuffmanGroups int
}

// chunk is one RIFF chunk: its FourCC, payload and offset of its header.
type chunk struct {
	id      string
	payload []byte
	offset  int
}

// walkChunks splits b into chunks. Every chunk must fit, odd sizes must be
// followed by a zero pad byte, and nothing may trail the last chunk: any
// slack is room for data a different reader would interpret differently.
func walkChunks(b []byte, base int) ([]chunk, *Error) {
	var out []chunk
	for off := 0; off < len(b); {
		if len(b)-off < 8 {
			return nil, reject(RuleTruncated, "chunk header at offset %d has %d of 8 bytes", base+off, len(b)-off)
		}
		id := string(b[off : off+4])
		size := binary.LittleEndian.Uint32(b[off+4:])
		start := off + 8
		if uint64(size) > uint64(len(b)-start) {
			return nil, reject(RuleChunkOverrun, "chunk %q at offset %d declares %d bytes, %d remain", id, base+off, size, len(b)-start)
		}
		end := start + int(size)
		next := end
		if size%2 == 1 {
			if end >= len(b) {
				return nil, reject(RuleChunkPadding, "chunk %q at offset %d has odd size %d and no pad byte", id, base+off, size)
			}
			if b[end] != 0 {
				return nil, reject(RuleChunkPadding, "chunk %q at offset %d has nonzero pad byte", id, base+off)
			}
			next++
		}
		out = append(out, chunk{id: id, payload: b[start:end], offset: base + off})
		off = next
	}
	return out, nil
}

func u24(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }

// Parse validates the container structure of data and every bitstream
// header, and runs the VP8L pre-pass that bounds what the decoder would
// allocate. It decodes no pixels. Zero fields of budget take the defaults.
func Parse(data []byte, budget Budget) (*File, error) {
	f, err := parse(data, budget.withDefaults())
	if err != nil {
		return nil, err
	}
	return f, nil
}

func parse(data []byte, budget Budget) (*File, *Error) {
	if len(data) < 12 {
		return nil, reject(RuleTruncated, "file has %d bytes, fewer than the 12-byte RIFF header", len(data))
	}
	if string(data[0:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return nil, reject(RuleBadMagic, "file does not start with RIFF....WEBP")
	}
	riffSize := binary.LittleEndian.Uint32(data[4:8])
	if uint64(riffSize)+8 != uint64(len(data)) {
		return nil, reject(RuleRIFFSizeMismatch, "RIFF size %d does not match the %d bytes after the RIFF header", riffSize, len(data)-8)
	}
	chunks, e := walkChunks(data[12:], 12)
	if e != nil {
		return nil, e
	}
	if len(chunks) == 0 {
		return nil, reject(RuleTruncated, "RIFF WEBP holds no chunk")
	}
	f := &File{}
	switch chunks[0].id {
	case "VP8 ", "VP8L":
		if len(chunks) != 1 {
			return nil, reject(RuleChunkOrder, "simple file has %d chunks after its %q chunk; extra chunks need VP8X", len(chunks)-1, chunks[0].id)
		}
		fr, e := imageFrame(nil, chunks[0], budget)
		if e != nil {
			return nil, e
		}
		f.Width, f.Height = fr.Width, fr.Height
		f.Frames = []FrameInfo{fr}
		return f, checkTotals(f, budget)
	case "VP8X":
	default:
		if !knownChunk(chunks[0].id) {
			return nil, reject(RuleUnknownChunk, "unknown chunk %q at offset %d", chunks[0].id, chunks[0].offset)
		}
		return nil, reject(RuleChunkOrder, "first chunk is %q, want VP8X, VP8 or VP8L", chunks[0].id)
	}
	x := chunks[0]
	if len(x.payload) != 10 {
		return nil, reject(RuleChunkSize, "VP8X payload is %d bytes, want 10", len(x.payload))
	}
	f.Extended = true
	f.Flags = x.payload[0]
	if f.Flags&flagReserved != 0 || x.payload[1] != 0 || x.payload[2] != 0 || x.payload[3] != 0 {
		return nil, reject(RuleVP8XFlags, "VP8X reserved bits are set (flags %#02x)", f.Flags)
	}
	f.Animated = f.Flags&flagAnimation != 0
	f.Width = u24(x.payload[4:]) + 1
	f.Height = u24(x.payload[7:]) + 1
	if int64(f.Width)*int64(f.Height) > int64(budget.MaxPixels) {
		return nil, reject(RuleCanvasTooLarge, "canvas %dx%d exceeds %d pixels", f.Width, f.Height, budget.MaxPixels)
	}

	// Chunk order per the container spec: VP8X, ICCP?, ANIM?, image data,
	// EXIF?, XMP?. Anything else is a structure some reader would
	// interpret differently, so it is refused.
	const (
		stICC = iota
		stImage
		stMeta
	)
	state := stICC
	seen := map[string]bool{}
	var pendingAlpha *chunk
	haveImage := false
	for i := 1; i < len(chunks); i++ {
		c := chunks[i]
		if !knownChunk(c.id) {
			return nil, reject(RuleUnknownChunk, "unknown chunk %q at offset %d", c.id, c.offset)
		}
		once := func() *Error {
			if seen[c.id] {
				return reject(RuleChunkOrder, "second %q chunk at offset %d", c.id, c.offset)
			}
			seen[c.id] = true
			return nil
		}
		switch c.id {
		case "VP8X":
			return nil, reject(RuleChunkOrder, "second VP8X chunk at offset %d", c.offset)
		case "ICCP":
			if e := once(); e != nil {
				return nil, e
			}
			if state != stICC || i != 1 {
				return nil, reject(RuleChunkOrder, "ICCP at offset %d must follow VP8X directly", c.offset)
			}
			if f.Flags&flagICC == 0 {
				return nil, reject(RuleVP8XFlags, "ICCP chunk present but the VP8X ICC flag is clear")
			}
		case "ANIM":
			if e := once(); e != nil {
				return nil, e
			}
			if !f.Animated {
				return nil, reject(RuleVP8XFlags, "ANIM chunk in a file without the VP8X animation flag")
			}
			if state != stICC {
				return nil, reject(RuleChunkOrder, "ANIM at offset %d after image data", c.offset)
			}
			if len(c.payload) != 6 {
				return nil, reject(RuleChunkSize, "ANIM payload is %d bytes, want 6", len(c.payload))
			}
			f.Background = binary.LittleEndian.Uint32(c.payload)
			f.LoopCount = int(binary.LittleEndian.Uint16(c.payload[4:]))
			state = stImage
		case "ANMF":
			if !f.Animated {
				return nil, reject(RuleVP8XFlags, "ANMF chunk in a file without the VP8X animation flag")
			}
			if !seen["ANIM"] || state != stImage {
				return nil, reject(RuleChunkOrder, "ANMF at offset %d not preceded by ANIM or after metadata", c.offset)
			}
			if len(f.Frames) >= budget.MaxFrames {
				return nil, reject(RuleFrameCount, "more than %d frames", budget.MaxFrames)
			}
			fr, e := animFrame(f, c, budget)
			if e != nil {
				return nil, e
			}
			f.Frames = append(f.Frames, fr)
			haveImage = true
		case "ALPH", "VP8 ", "VP8L":
			if f.Animated {
				return nil, reject(RuleChunkOrder, "%q at offset %d outside ANMF in an animated file", c.id, c.offset)
			}
			if haveImage || state == stMeta {
				return nil, reject(RuleChunkOrder, "second image chunk %q at offset %d", c.id, c.offset)
			}
			if c.id == "ALPH" {
				if pendingAlpha != nil {
					return nil, reject(RuleChunkOrder, "second ALPH chunk at offset %d", c.offset)
				}
				cc := c
				pendingAlpha = &cc
				state = stImage
				continue
			}
			fr, e := imageFrame(pendingAlpha, c, budget)
			if e != nil {
				return nil, e
			}
			if fr.Width != f.Width || fr.Height != f.Height {
				return nil, reject(RuleBitstreamSize, "image is %dx%d, canvas is %dx%d", fr.Width, fr.Height, f.Width, f.Height)
			}
			f.Frames = []FrameInfo{fr}
			haveImage = true
			state = stImage
		case "EXIF", "XMP ":
			if e := once(); e != nil {
				return nil, e
			}
			if !haveImage {
				return nil, reject(RuleChunkOrder, "%q at offset %d before image data", c.id, c.offset)
			}
			flag := byte(flagEXIF)
			if c.id == "XMP " {
				flag = flagXMP
			} else if seen["XMP "] {
				return nil, reject(RuleChunkOrder, "EXIF at offset %d after XMP", c.offset)
			}
			if f.Flags&flag == 0 {
				return nil, reject(RuleVP8XFlags, "%q chunk present but its VP8X flag is clear", c.id)
			}
			state = stMeta
		}
	}
	if pendingAlpha != nil && !haveImage {
		return nil, reject(RuleChunkOrder, "ALPH chunk without a following VP8 chunk")
	}
	if f.Animated && !seen["ANIM"] {
		return nil, reject(RuleVP8XFlags, "VP8X animation flag set but no ANIM chunk")
	}
	for flag, id := range map[byte]string{flagICC: "ICCP", flagEXIF: "EXIF", flagXMP: "XMP "} {
		if f.Flags&flag != 0 && !seen[id] {
			return nil, reject(RuleVP8XFlags, "VP8X flag for %q set but the chunk is missing", id)
		}
	}
	if len(f.Frames) == 0 {
		return nil, reject(RuleFrameCount, "file holds no image")
	}
	return f, checkTotals(f, budget)
}

func checkTotals(f *File, budget Budget) *Error {
	var total int64
	for _, fr := range f.Frames {
		total += 4 * int64(fr.Width) * int64(fr.Height)
	}
	if total > budget.MaxDecodedBytes {
		return reject(RuleDecodedBytes, "%d frames decode to %d RGBA bytes, budget %d", len(f.Frames), total, budget.MaxDecodedBytes)
	}
	return nil
}

func knownChunk(id string) bool {
	switch id {
	case "VP8X", "ICCP", "ANIM", "ANMF", "ALPH", "VP8 ", "VP8L", "EXIF", "XMP ":
		return true
	}
	return false
}

// animFrame validates one ANMF chunk: its 16-byte header, its placement on
// the canvas and exactly one image (ALPH? VP8 | VP8L) inside it.
func animFrame(f *File, c chunk, budget Budget) (FrameInfo, *Error) {
	p := c.payload
	if len(p) < 16 {
		return FrameInfo{}, reject(RuleChunkSize, "ANMF at offset %d has %d bytes, fewer than its 16-byte header", c.offset, len(p))
	}
	n := len(f.Frames)
	fr := FrameInfo{
		X:        2 * u24(p[0:]),
		Y:        2 * u24(p[3:]),
		Width:    u24(p[6:]) + 1,
		Height:   u24(p[9:]) + 1,
		Duration: u24(p[12:]),
	}
	flags := p[15]
	if flags&^3 != 0 {
		return FrameInfo{}, reject(RuleFrameData, "frame %d has reserved ANMF flag bits set (%#02x)", n, flags)
	}
	fr.NoBlend = flags&2 != 0
	fr.DisposeBackground = flags&1 != 0
	if fr.X+fr.Width > f.Width || fr.Y+fr.Height > f.Height {
		return FrameInfo{}, reject(RuleFrameOutsideCanvas, "frame %d at (%d,%d) size %dx%d leaves the %dx%d canvas", n, fr.X, fr.Y, fr.Width, fr.Height, f.Width, f.Height)
	}
	subs, e := walkChunks(p[16:], c.offset+8+16)
	if e != nil {
		return FrameInfo{}, e
	}
	var alpha *chunk
	var img *chunk
	for i := range subs {
		s := subs[i]
		switch s.id {
		case "ALPH":
			if alpha != nil || img != nil {
				return FrameInfo{}, reject(RuleFrameData, "frame %d: ALPH at offset %d out of place", n, s.offset)
			}
			alpha = &subs[i]
		case "VP8 ", "VP8L":
			if img != nil {
				return FrameInfo{}, reject(RuleFrameData, "frame %d: second image chunk at offset %d", n, s.offset)
			}
			img = &subs[i]
		default:
			// The spec lets unknown chunks ride inside ANMF; we do not,
			// since nothing of ours reads them.
			return FrameInfo{}, reject(RuleFrameData, "frame %d: chunk %q at offset %d is not ALPH, VP8 or VP8L", n, s.id, s.offset)
		}
	}
	if img == nil {
		return FrameInfo{}, reject(RuleFrameData, "frame %d has no VP8 or VP8L chunk", n)
	}
	im, e := imageFrame(alpha, *img, budget)
	if e != nil {
		e.Msg = "frame " + itoa(n) + ": " + e.Msg
		return FrameInfo{}, e
	}
	if im.Width != fr.Width || im.Height != fr.Height {
		return FrameInfo{}, reject(RuleBitstreamSize, "frame %d: bitstream is %dx%d, ANMF says %dx%d", n, im.Width, im.Height, fr.Width, fr.Height)
	}
	fr.Lossless, fr.Alpha, fr.Bitstream, fr.HuffmanGroups = im.Lossless, im.Alpha, im.Bitstream, im.HuffmanGroups
	return fr, nil
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// imageFrame validates one bitstream chunk (and its ALPH, for VP8) and
// returns its size. The VP8L pre-pass runs here so that Parse alone tells
// whether the decoder may be called.
func imageFrame(alpha *chunk, c chunk, budget Budget) (FrameInfo, *Error) {
	fr := FrameInfo{Bitstream: c.payload}
	switch c.id {
	case "VP8L":
		if alpha != nil {
			return FrameInfo{}, reject(RuleFrameData, "ALPH chunk before a VP8L chunk; VP8L carries its own alpha")
		}
		info, e := checkVP8L(c.payload, 0, 0, budget)
		if e != nil {
			return FrameInfo{}, e
		}
		fr.Lossless = true
		fr.Width, fr.Height, fr.HuffmanGroups = info.width, info.height, info.groups
	case "VP8 ":
		w, h, e := vp8Size(c.payload)
		if e != nil {
			return FrameInfo{}, e
		}
		if int64(w)*int64(h) > int64(budget.MaxPixels) {
			return FrameInfo{}, reject(RuleCanvasTooLarge, "VP8 image %dx%d exceeds %d pixels", w, h, budget.MaxPixels)
		}
		fr.Width, fr.Height = w, h
		if alpha != nil {
			if e := checkALPH(alpha.payload, w, h, budget); e != nil {
				return FrameInfo{}, e
			}
			fr.Alpha = alpha.payload
		}
	}
	return fr, nil
}

// vp8Size reads the VP8 key-frame header (RFC 6386 section 9.1): a 3-byte
// frame tag, the start code 9d 01 2a and two 14-bit sizes with scale bits.
func vp8Size(b []byte) (int, int, *Error) {
	if len(b) < 10 {
		return 0, 0, reject(RuleBitstreamHeader, "VP8 payload has %d bytes, fewer than its 10-byte header", len(b))
	}
	if b[0]&1 != 0 {
		return 0, 0, reject(RuleBitstreamHeader, "VP8 frame is not a key frame")
	}
	if b[3] != 0x9d || b[4] != 0x01 || b[5] != 0x2a {
		return 0, 0, reject(RuleBitstreamHeader, "VP8 start code missing")
	}
	partLen := int(b[0])>>5 | int(b[1])<<3 | int(b[2])<<11
	if partLen > len(b)-10 {
		return 0, 0, reject(RuleBitstreamHeader, "VP8 first partition of %d bytes overruns the %d-byte payload", partLen, len(b))
	}
	w := int(binary.LittleEndian.Uint16(b[6:]) & 0x3fff)
	h := int(binary.LittleEndian.Uint16(b[8:]) & 0x3fff)
	if w == 0 || h == 0 {
		return 0, 0, reject(RuleBitstreamHeader, "VP8 image is %dx%d", w, h)
	}
	return w, h, nil
}

// checkALPH validates the ALPH header byte and, for VP8L-compressed alpha,
// runs the same pre-pass as for a VP8L image, since x/image feeds it to the
// same decoder.
func checkALPH(b []byte, w, h int, budget Budget) *Error {
	if len(b) < 1 {
		return reject(RuleFrameData, "ALPH chunk is empty")
	}
	hdr := b[0]
	if hdr>>6 != 0 {
		return reject(RuleFrameData, "ALPH reserved bits set (%#02x)", hdr)
	}
	switch hdr & 3 {
	case 0:
		if len(b)-1 < w*h {
			return reject(RuleFrameData, "uncompressed ALPH has %d bytes, want %d", len(b)-1, w*h)
		}
	case 1:
		if _, e := checkVP8L(b[1:], w, h, budget); e != nil {
			e.Msg = "ALPH: " + e.Msg
			return e
		}
	default:
		return reject(RuleFrameData, "ALPH compression %d unknown", hdr&3)
	}
	return nil
}
