package imagecheck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// Header is what a PNG's IHDR chunk says about the image it decodes to.
type Header struct {
	// Width and Height are the image's dimensions, both in 1 to 2^31-1.
	Width, Height uint32
	// BitDepth is the bits per sample.
	BitDepth uint8
	// ColorType is the PNG colour type (0, 2, 3, 4 or 6).
	ColorType uint8
}

// pixels is the decoded pixel count, which cannot overflow: both
// dimensions are below 2^31.
func (h Header) Pixels() uint64 { return uint64(h.Width) * uint64(h.Height) }

// decodedBytes is the RGBA the image costs once decoded: image/png gives
// 16-bit images 8 bytes a pixel, and the runtime holds the rest as 8-bit
// RGBA.
func (h Header) DecodedBytes() uint64 {
	if h.BitDepth == 16 {
		return h.Pixels() * 8
	}
	return h.Pixels() * 4
}

// Signature is the eight bytes every PNG starts with.
var Signature = []byte("\x89PNG\r\n\x1a\n")

// HeaderLen covers the signature and the complete IHDR chunk, which the
// PNG specification requires to come first.
const HeaderLen = 8 + 8 + 13 + 4

// ParseHeader reads the IHDR chunk from the first HeaderLen bytes,
// checking its CRC and field values, without decoding anything: the budget
// a decoder would spend is known from these 33 bytes.
func ParseHeader(b []byte) (Header, error) {
	var h Header
	if len(b) < HeaderLen {
		return h, errors.New("the file is shorter than a PNG signature and IHDR chunk")
	}
	if !bytes.Equal(b[:8], Signature) {
		return h, errors.New("the file does not start with the PNG signature")
	}
	if binary.BigEndian.Uint32(b[8:]) != 13 || string(b[12:16]) != "IHDR" {
		return h, errors.New("the first chunk is not a 13-byte IHDR")
	}
	if crc32.ChecksumIEEE(b[12:29]) != binary.BigEndian.Uint32(b[29:]) {
		return h, errors.New("the IHDR chunk's CRC does not match")
	}
	d := b[16:29]
	h.Width, h.Height = binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:])
	h.BitDepth, h.ColorType = d[8], d[9]
	if h.Width == 0 || h.Height == 0 || h.Width > 1<<31-1 || h.Height > 1<<31-1 {
		return h, fmt.Errorf("dimensions %dx%d are outside 1 to 2^31-1", h.Width, h.Height)
	}
	depths := map[uint8][]uint8{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
	ok := false
	for _, bd := range depths[h.ColorType] {
		ok = ok || bd == h.BitDepth
	}
	if !ok {
		return h, fmt.Errorf("colour type %d with bit depth %d is not a PNG format", h.ColorType, h.BitDepth)
	}
	if d[10] != 0 || d[11] != 0 || d[12] > 1 {
		return h, fmt.Errorf("compression %d, filter %d, interlace %d are not PNG methods", d[10], d[11], d[12])
	}
	return h, nil
}

// criticalChunks are the critical chunk types of the PNG specification.
// image/png skips any chunk it does not know, but a chunk whose type
// starts with an upper-case letter is critical: a decoder that does not
// know it must refuse the image (PNG specification, section 5.4), since
// the pixels may depend on it.
var criticalChunks = map[string]bool{"IHDR": true, "PLTE": true, "IDAT": true, "IEND": true}

// chunkGuard passes a PNG stream through while walking its chunk headers,
// and fails the read that reaches an unknown critical chunk's header.
type chunkGuard struct {
	r    io.Reader
	pos  int64   // bytes read so far
	next int64   // offset of the next chunk header
	head [8]byte // the header being read
	have int     // bytes of head read
	err  error   // the refusal, once made
}

// NewChunkGuard returns a reader of r's PNG stream that fails the read
// reaching an unknown critical chunk: image/png would skip it, but the
// pixels may depend on it (PNG specification, section 5.4).
func NewChunkGuard(r io.Reader) io.Reader {
	return &chunkGuard{r: r, next: int64(len(Signature))}
}

func (g *chunkGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i := 0; i < n; {
		off := g.pos + int64(i)
		if off < g.next {
			skip := g.next - off
			if skip > int64(n-i) {
				skip = int64(n - i)
			}
			i += int(skip)
			continue
		}
		g.head[g.have] = p[i]
		g.have++
		i++
		if g.have < len(g.head) {
			continue
		}
		length := int64(binary.BigEndian.Uint32(g.head[:4]))
		typ := string(g.head[4:8])
		g.have = 0
		g.next = g.pos + int64(i) + length + 4
		if typ[0] >= 'A' && typ[0] <= 'Z' && !criticalChunks[typ] {
			g.err = fmt.Errorf("unknown critical chunk %q: a decoder must refuse an image whose critical chunk it does not know", typ)
			g.pos += int64(i)
			return 0, g.err
		}
	}
	g.pos += int64(n)
	return n, err
}
