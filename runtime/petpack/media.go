package petpack

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"image"
	"io"
	"strconv"
	"sync/atomic"

	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
)

// media is what the header pre-pass learned about the package's images,
// for the media gate of stage 4.
type media struct {
	frames  map[Action][]*node
	headers map[*node]imagecheck.Header
	// preview holds animated_preview.webp once its header pre-pass has
	// passed, so the gate decodes exactly the bytes that were bounded, and
	// previewSize its canvas.
	preview     []byte
	previewSize image.Point
	// memo, when not nil, holds what an earlier step of the same build
	// learned from decoding images, by their digest.
	memo *MediaMemo
}

// checkFrameBudgets is the decoded-resource part of stage 2: frame counts
// from the layout, then each frame's and the cover's IHDR for the pixel
// budget, per action the RGBA its frames decode to, and the animated
// preview's WebP header pre-pass (frame count, canvas, frames inside it,
// decoded RGBA, and the VP8L bounds the x/image decoder does not enforce).
// Nothing is decoded.
func checkFrameBudgets(c *checker, fs *fileSet) *media {
	md := &media{frames: stateFrames(fs), headers: map[*node]imagecheck.Header{}}
	mark := c.count()
	total := 0
	for _, a := range Actions() {
		frames := md.frames[a]
		total += len(frames)
		if len(frames) > MaxFramesPerState {
			c.fail(RuleTooManyFramesInState, a.FramesDir(), "", "%d frames, over the budget of %d per state", len(frames), MaxFramesPerState)
		}
	}
	if total > MaxFramesPerPackage {
		c.fail(RuleTooManyFrames, "", "", "%d frames, over the budget of %d per package", total, MaxFramesPerPackage)
	}
	if c.errorsSince(mark) {
		return nil
	}
	images := []*node{}
	for _, a := range Actions() {
		images = append(images, md.frames[a]...)
	}
	if cover := fs.lookup(coverPath); cover != nil && !cover.dir {
		images = append(images, cover)
	}
	for _, n := range images {
		h, ce, err := readPNGHeader(fs, n)
		switch {
		case err != nil:
			c.fail(RulePackageUnreadable, n.path, "", "%v", err)
			return nil
		case ce != nil:
			c.fail(ce.rule, n.path, "", "%s", ce.msg)
			continue
		case h.Pixels() > MaxImagePixels:
			c.fail(RuleImageTooManyPixels, n.path, "", "the IHDR declares %dx%d, %d pixels, over the budget of %d", h.Width, h.Height, h.Pixels(), MaxImagePixels)
			continue
		}
		md.headers[n] = h
	}
	for _, a := range Actions() {
		var sum uint64
		for _, n := range md.frames[a] {
			if h, ok := md.headers[n]; ok {
				sum += h.DecodedBytes()
			}
		}
		if sum > MaxStateDecodedBytes {
			c.fail(RuleStateDecodedTooLarge, a.FramesDir(), "", "the frames decode to %d bytes of RGBA, over the budget of %d per state", sum, MaxStateDecodedBytes)
		}
	}
	md.preview, md.previewSize = checkPreviewHeader(c, fs)
	return md
}

// checkMedia is the media gate of section 6, run only on a manifest that
// broke no rule, within the bounds checkFrameBudgets established. The
// headers prove one frame per duration and every frame at render_size;
// then the animated preview decodes frame by frame, the cover decodes
// with alpha, coverage and no baked checkerboard, and each state's frames
// decode in natural order, one at a time, for their alpha coverage and
// against their neighbour. A frame of the wrong size is not decoded: it
// is rejected already, and decoding it could cost the whole pixel budget.
// prov is source.json's provenance: skill-full-source turns the coverage
// and duplicate warnings into errors.
func checkMedia(c *checker, fs *fileSet, m *Manifest, md *media, prov string) {
	if m == nil || md == nil {
		return
	}
	sized := map[*node]bool{}
	for i, s := range m.States {
		frames, ok := md.frames[s.Name]
		if !ok {
			continue // required_missing reported the directory
		}
		if len(frames) != len(s.FrameDurationsMS) {
			c.fail(RuleFrameCountMismatch, s.FramesDir, "", "%d .png frames for the %d durations at %s/states/%s/frame_durations_ms",
				len(frames), len(s.FrameDurationsMS), manifestPath+"#", strconv.Itoa(i))
		}
		for _, n := range frames {
			h, ok := md.headers[n]
			switch {
			case !ok:
			case int(h.Width) != m.RenderSize.Width || int(h.Height) != m.RenderSize.Height:
				c.fail(RuleFrameSizeMismatch, n.path, "", "the frame is %dx%d; the %s render_size is %dx%d", h.Width, h.Height, m.Quality, m.RenderSize.Width, m.RenderSize.Height)
			default:
				sized[n] = true
			}
		}
	}
	decodePreview(c, md)
	checkCover(c, fs, md)
	seq := sequenceCheck{c: c, fs: fs, md: md, strict: prov == ProvenanceSkillFullSource}
	for _, s := range m.States {
		seq.state(s, sized)
	}
}

// The recommended size of both previews (section 6); another size is a
// warning.
var previewSize = image.Pt(384, 416)

// decodePreview decodes every frame of the animated preview, holding one
// at a time, and then lets go of the file.
func decodePreview(c *checker, md *media) {
	data := md.preview
	md.preview = nil
	if data == nil {
		return
	}
	if md.previewSize != previewSize {
		c.warn(RulePreviewSizeUnusual, previewPath, "", "the canvas is %dx%d; %dx%d is the recommended preview size", md.previewSize.X, md.previewSize.Y, previewSize.X, previewSize.Y)
	}
	var key memoKey
	if md.memo != nil {
		key = memoKey{memoPreview, sha256.Sum256(data)}
		if f, ok := md.memo.get(key); ok {
			if f.failure != "" {
				c.fail(RulePreviewDecodeFailed, previewPath, "", "%s", f.failure)
			}
			return
		}
	}
	if md.memo != nil {
		atomic.AddInt64(&md.memo.webp, 1)
	}
	var f mediaFacts
	if err := webp.DecodeEach(data, webp.DefaultBudget(), func(int, webp.Frame) error { return nil }); err != nil {
		f.failure = err.Error()
		c.fail(RulePreviewDecodeFailed, previewPath, "", "%v", err)
	}
	if md.memo != nil {
		md.memo.put(key, f)
	}
}

// checkCover applies section 6 to cover.png: it decodes completely, its
// colour type has an alpha channel, at least 1% of its pixels are visible
// and 1% transparent, and no checkerboard is baked into it.
func checkCover(c *checker, fs *fileSet, md *media) {
	n := fs.lookup(coverPath)
	if n == nil || n.dir {
		return
	}
	h, ok := md.headers[n]
	if !ok {
		return
	}
	if image.Pt(int(h.Width), int(h.Height)) != previewSize {
		c.warn(RulePreviewSizeUnusual, coverPath, "", "the cover is %dx%d; %dx%d is the recommended preview size", h.Width, h.Height, previewSize.X, previewSize.Y)
	}
	if h.ColorType != 4 && h.ColorType != 6 {
		c.fail(RuleCoverNoAlpha, coverPath, "", "PNG colour type %d has no alpha channel; the cover must be grey+alpha (4) or RGBA (6)", h.ColorType)
	}
	f, ok := pngFacts(c, fs, md, n, h, memoCover, RuleCoverDecodeFailed)
	if !ok {
		return
	}
	if msg, ok := f.count.Enough(); !ok {
		c.fail(RuleCoverAlphaCoverage, coverPath, "", "%s; the cover needs at least 1%% of each", msg)
	}
	if f.checkered {
		c.fail(RuleCoverCheckerboard, coverPath, "", "the %s corners alternate in two tones in cells of %d px like a transparency checkerboard baked into the pixels; the background must be real transparency", f.board, f.cell)
	}
}

// sequenceCheck decodes each state's frames in order, keeping of each
// only its alpha coverage and the digest of its canonical pixels (see
// imagecheck.EachRow): a state's first frame and the one before the current are
// compared by digest, so no frame's pixels outlive its decode.
type sequenceCheck struct {
	c      *checker
	fs     *fileSet
	md     *media
	strict bool
}

// state decodes one state's frames. Adjacent frames are compared only
// when both decoded; a loop's seam only when all did and there are more
// than two (with two, the seam is the adjacent pair again).
func (q *sequenceCheck) state(s State, sized map[*node]bool) {
	frames := q.md.frames[s.Name]
	var first, prev *[sha256.Size]byte
	var prevNode *node
	whole := true
	for i, n := range frames {
		var f mediaFacts
		ok := false
		if sized[n] {
			f, ok = pngFacts(q.c, q.fs, q.md, n, q.md.headers[n], memoFrame, RuleFrameDecodeFailed)
		}
		if !ok {
			whole = false
			prev, prevNode = nil, nil
			continue
		}
		cur := f.digest
		if msg, ok := f.count.Enough(); !ok {
			q.report(RuleFullSourceAlphaCoverage, RuleFrameAlphaCoverageLow, n.path, "%s; a frame needs at least 1%% of each", msg)
		}
		if prev != nil && *prev == cur {
			q.report(RuleFullSourceFrameDuplicate, RuleFrameDuplicateAdjacent, n.path, "decodes to the same pixels as %s, the frame before it", prevNode.name)
		}
		if i == 0 {
			first = &cur
		}
		prev, prevNode = &cur, n
	}
	if s.Playback.Mode == ModeLoop && whole && len(frames) > 2 && *prev == *first {
		q.report(RuleFullSourceLoopSeam, RuleFrameDuplicateAdjacent, prevNode.path,
			"the loop's last frame decodes to the same pixels as its first, %s, which follows it when the loop repeats", frames[0].name)
	}
}

// report records an error for a skill-full-source package and a warning
// otherwise: section 6 bounds ordinary packages' visual quality with
// warnings and fails trusted full-source packages on the same condition.
func (q *sequenceCheck) report(strict, ordinary Rule, path, format string, args ...interface{}) {
	if q.strict {
		q.c.fail(strict, path, "", format, args...)
	} else {
		q.c.warn(ordinary, path, "", format, args...)
	}
}

// decodePNG decodes a frame or the cover, whose IHDR stage 2 held to the
// pixel budget, with image/png. The IHDR is read again from the stream
// and must be the one stage 2 saw: a directory file replaced since then
// must not reach the decoder with a larger size.
func decodePNG(c *checker, fs *fileSet, n *node, want imagecheck.Header, rule Rule) image.Image {
	rc, err := fs.src.open(n.e)
	if err != nil {
		c.fail(RulePackageUnreadable, n.path, "", "%v", err)
		return nil
	}
	defer rc.Close()
	src := &sourceReader{r: rc}
	var head [imagecheck.HeaderLen]byte
	k, _ := io.ReadFull(src, head[:])
	var img image.Image
	if h, herr := imagecheck.ParseHeader(head[:k]); src.err == nil {
		if herr != nil || h != want {
			c.fail(RulePackageUnreadable, n.path, "", "the file changed while the package was validated")
			return nil
		}
		img, err = decodePNGBytes(nil, io.MultiReader(bytes.NewReader(head[:k]), src))
	}
	var ce *contentError
	switch {
	case src.err != nil && errors.As(src.err, &ce):
		c.fail(ce.rule, n.path, "", "%s", ce.msg)
	case src.err != nil:
		c.fail(RulePackageUnreadable, n.path, "", "%v", src.err)
	case err != nil:
		c.fail(rule, n.path, "", "image/png: %v", err)
	default:
		return img
	}
	return nil
}

// sourceReader remembers the source's own failure (a CRC mismatch, an I/O
// error), so it is not reported as the PNG's.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}
