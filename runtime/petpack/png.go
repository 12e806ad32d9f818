package petpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// pngHeader is what a PNG's IHDR chunk says about the image it decodes to.
type pngHeader struct {
	width, height uint32
	bitDepth      uint8
	colorType     uint8
}

// pixels is the decoded pixel count, which cannot overflow: both
// dimensions are below 2^31.
func (h pngHeader) pixels() uint64 { return uint64(h.width) * uint64(h.height) }

// decodedBytes is the RGBA the image costs once decoded: image/png gives
// 16-bit images 8 bytes a pixel, and the runtime holds the rest as 8-bit
// RGBA.
func (h pngHeader) decodedBytes() uint64 {
	if h.bitDepth == 16 {
		return h.pixels() * 8
	}
	return h.pixels() * 4
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// pngHeaderLen covers the signature and the complete IHDR chunk, which the
// PNG specification requires to come first.
const pngHeaderLen = 8 + 8 + 13 + 4

// parsePNGHeader reads the IHDR chunk from the first pngHeaderLen bytes,
// checking its CRC and field values, without decoding anything: the budget
// a decoder would spend is known from these 33 bytes.
func parsePNGHeader(b []byte) (pngHeader, error) {
	var h pngHeader
	if len(b) < pngHeaderLen {
		return h, errors.New("the file is shorter than a PNG signature and IHDR chunk")
	}
	if !bytes.Equal(b[:8], pngSignature) {
		return h, errors.New("the file does not start with the PNG signature")
	}
	if binary.BigEndian.Uint32(b[8:]) != 13 || string(b[12:16]) != "IHDR" {
		return h, errors.New("the first chunk is not a 13-byte IHDR")
	}
	if crc32.ChecksumIEEE(b[12:29]) != binary.BigEndian.Uint32(b[29:]) {
		return h, errors.New("the IHDR chunk's CRC does not match")
	}
	d := b[16:29]
	h.width, h.height = binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:])
	h.bitDepth, h.colorType = d[8], d[9]
	if h.width == 0 || h.height == 0 || h.width > 1<<31-1 || h.height > 1<<31-1 {
		return h, fmt.Errorf("dimensions %dx%d are outside 1 to 2^31-1", h.width, h.height)
	}
	depths := map[uint8][]uint8{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
	ok := false
	for _, bd := range depths[h.colorType] {
		ok = ok || bd == h.bitDepth
	}
	if !ok {
		return h, fmt.Errorf("colour type %d with bit depth %d is not a PNG format", h.colorType, h.bitDepth)
	}
	if d[10] != 0 || d[11] != 0 || d[12] > 1 {
		return h, fmt.Errorf("compression %d, filter %d, interlace %d are not PNG methods", d[10], d[11], d[12])
	}
	return h, nil
}

// readPNGHeader opens a file-set node and parses its IHDR; a failure that
// breaks no rule of its own (an I/O error) is returned as such.
func readPNGHeader(fs *fileSet, n *node) (pngHeader, *contentError, error) {
	if n.e.head != nil {
		return parseHeader(n.e.head)
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		return pngHeader{}, nil, err
	}
	defer rc.Close()
	var b [pngHeaderLen]byte
	k, err := io.ReadFull(rc, b[:])
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		return pngHeader{}, ce, nil
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		// short: parsePNGHeader says so
	case err != nil:
		return pngHeader{}, nil, err
	}
	return parseHeader(b[:k])
}

func parseHeader(b []byte) (pngHeader, *contentError, error) {
	h, err := parsePNGHeader(b)
	if err != nil {
		return h, &contentError{RulePNGHeaderInvalid, err.Error()}, nil
	}
	return h, nil, nil
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

func newChunkGuard(r io.Reader) *chunkGuard {
	return &chunkGuard{r: r, next: int64(len(pngSignature))}
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
