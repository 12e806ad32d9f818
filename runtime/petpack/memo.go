package petpack

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"sync"
	"sync/atomic"

	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
)

// MediaMemo carries what the media gate learned from decoding images, by
// the SHA-256 of their bytes, from one step of a build to the next: a
// writer that decodes the frames to make its previews records them here,
// and a validation given the memo takes each frame, cover and preview it
// has already seen from it instead of decoding the same bytes again. A
// memo is only as trustworthy as the process holding it, so it is never
// stored; the rules applied to what it remembers are the validator's own.
// A MediaMemo is safe for concurrent use.
type MediaMemo struct {
	mu    sync.Mutex
	facts map[memoKey]mediaFacts
	// png and webp count the decodes made through the memo (atomic).
	png, webp int64
}

// NewMediaMemo returns an empty memo.
func NewMediaMemo() *MediaMemo { return &MediaMemo{facts: map[memoKey]mediaFacts{}} }

type memoKind uint8

const (
	memoFrame memoKind = iota + 1
	memoCover
	memoPreview
)

type memoKey struct {
	kind memoKind
	sum  [sha256.Size]byte
}

// mediaFacts is what the media gate keeps of one decoded image: enough
// to apply every rule of section 6 without its pixels.
type mediaFacts struct {
	header imagecheck.Header // PNG only
	// failure is the decoder's complaint ("" when it decoded), reported
	// under the rule of the image's role.
	failure string
	count   imagecheck.AlphaCount
	// digest is the SHA-256 of a frame's canonical pixels: two frames
	// show the same picture exactly when their digests are equal.
	digest [sha256.Size]byte
	// board, cell and checkered are the cover's checkerboard result.
	board     string
	cell      int
	checkered bool
}

func (m *MediaMemo) get(k memoKey) (mediaFacts, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.facts[k]
	return f, ok
}

func (m *MediaMemo) put(k memoKey, f mediaFacts) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.facts[k] = f
}

// ErrFrameNotDecoded is returned (wrapped) by DecodeFrame for a frame the
// media gate would not decode either: its header is invalid, over the
// pixel budget, or not the size asked for. The validator names the
// problem; the caller only leaves the frame out of what it makes.
var ErrFrameNotDecoded = errors.New("frame not decoded")

// DecodeFrame decodes a frame's PNG bytes exactly as the media gate does
// (the IHDR and pixel budget first, then image/png behind the critical
// chunk guard), records what the gate learns from it under the bytes'
// digest, and returns the image for the caller's own use, such as a
// preview made from the frame. A frame whose IHDR is not size, or breaks
// a rule, is not decoded: ErrFrameNotDecoded.
func (m *MediaMemo) DecodeFrame(data []byte, size Size) (image.Image, error) {
	h, err := imagecheck.ParseHeader(data)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrFrameNotDecoded, err)
	case h.Pixels() > MaxImagePixels:
		return nil, fmt.Errorf("%w: the IHDR declares %d pixels, over the budget of %d", ErrFrameNotDecoded, h.Pixels(), MaxImagePixels)
	case int(h.Width) != size.Width || int(h.Height) != size.Height:
		return nil, fmt.Errorf("%w: the frame is %dx%d, not %dx%d", ErrFrameNotDecoded, h.Width, h.Height, size.Width, size.Height)
	}
	img, err := decodePNGBytes(m, bytes.NewReader(data))
	f := mediaFacts{header: h}
	if err != nil {
		f.failure = "image/png: " + err.Error()
	} else {
		f.count, f.digest = frameFacts(img)
	}
	m.put(memoKey{memoFrame, sha256.Sum256(data)}, f)
	if err != nil {
		return nil, err
	}
	return img, nil
}

// Decodes counts the images decoded through one MediaMemo (by DecodeFrame
// and by validations given the memo): each is one full decode of a PNG or
// of an animated WebP (all its frames). Tests and benchmarks read it to
// prove a build decodes each image once; a per-memo count, unlike a
// process-wide one, is not disturbed by tests running in parallel.
type Decodes struct{ PNG, WebP int64 }

// Decodes returns how many images have been decoded through m so far.
func (m *MediaMemo) Decodes() Decodes {
	return Decodes{PNG: atomic.LoadInt64(&m.png), WebP: atomic.LoadInt64(&m.webp)}
}

// decodePNGBytes is the one place a PNG is decoded for the media gate:
// image/png behind the critical chunk guard, counted in memo when there is
// one.
func decodePNGBytes(memo *MediaMemo, r io.Reader) (image.Image, error) {
	if memo != nil {
		atomic.AddInt64(&memo.png, 1)
	}
	return png.Decode(imagecheck.NewChunkGuard(r))
}

// frameFacts is a decoded frame's alpha coverage and the digest of its
// canonical pixels.
func frameFacts(img image.Image) (imagecheck.AlphaCount, [sha256.Size]byte) {
	h := sha256.New()
	var count imagecheck.AlphaCount
	imagecheck.EachRow(img, func(_ int, row []byte) {
		h.Write(row)
		count.Add(row)
	})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return count, sum
}

// readWhole reads an entry's content to the end through its source, which
// checks its size and CRC, reporting a failure as decodePNG does.
func readWhole(c *checker, fs *fileSet, n *node) ([]byte, bool) {
	rc, err := fs.src.open(n.e)
	if err != nil {
		c.fail(RulePackageUnreadable, n.path, "", "%v", err)
		return nil, false
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, n.e.size+1))
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		c.fail(ce.rule, n.path, "", "%s", ce.msg)
		return nil, false
	case err != nil:
		c.fail(RulePackageUnreadable, n.path, "", "%v", err)
		return nil, false
	}
	return data, true
}

// pngFacts is the media gate's decode of a frame or the cover: through
// the memo when the validation has one (the bytes read whole and looked
// up by digest, decoded and recorded on a miss), otherwise streamed from
// the source. ok is false when a failure has been reported.
func pngFacts(c *checker, fs *fileSet, md *media, n *node, want imagecheck.Header, kind memoKind, rule Rule) (mediaFacts, bool) {
	facts := func(img image.Image) mediaFacts {
		f := mediaFacts{header: want}
		if kind == memoCover {
			var corners imagecheck.CoverCorners
			f.count, corners = imagecheck.CoverPixels(img)
			f.board, f.cell, f.checkered = corners.Checkerboard()
		} else {
			f.count, f.digest = frameFacts(img)
		}
		return f
	}
	if md.memo == nil {
		img := decodePNG(c, fs, n, want, rule)
		if img == nil {
			return mediaFacts{}, false
		}
		return facts(img), true
	}
	data, ok := readWhole(c, fs, n)
	if !ok {
		return mediaFacts{}, false
	}
	key := memoKey{kind, sha256.Sum256(data)}
	f, hit := md.memo.get(key)
	if !hit {
		if h, herr := imagecheck.ParseHeader(data); herr != nil || h != want {
			c.fail(RulePackageUnreadable, n.path, "", "the file changed while the package was validated")
			return mediaFacts{}, false
		}
		img, err := decodePNGBytes(md.memo, bytes.NewReader(data))
		if err != nil {
			f = mediaFacts{header: want, failure: "image/png: " + err.Error()}
		} else {
			f = facts(img)
		}
		md.memo.put(key, f)
	}
	if f.header != want {
		c.fail(RulePackageUnreadable, n.path, "", "the file changed while the package was validated")
		return mediaFacts{}, false
	}
	if f.failure != "" {
		c.fail(rule, n.path, "", "%s", f.failure)
		return mediaFacts{}, false
	}
	return f, true
}

// Validate validates the .petpack archive of size bytes that r reads, as
// the package function Validate does, taking from the memo what it
// already knows of the archive's images and recording what it decodes.
func (m *MediaMemo) Validate(r io.ReaderAt, size int64) *Verdict {
	c := newChecker()
	a := readArchive(c, r, size)
	if a == nil {
		return c.verdict(nil)
	}
	return c.verdict(checkPackageMemo(c, a.fileSet(), m))
}

// VerifyArchive checks only what a writer must prove again of an archive
// it wrote after validating its bytes: stage 1 (the ZIP structure and its
// budgets) and every entry's declared size and CRC, read once. Nothing is
// decoded; the writer compares the bytes with the ones it validated.
func VerifyArchive(r io.ReaderAt, size int64) *Verdict {
	c := newChecker()
	if a := readArchive(c, r, size); a != nil {
		verifyContent(c, a.fileSet())
	}
	return c.verdict(nil)
}
