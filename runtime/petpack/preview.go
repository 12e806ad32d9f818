package petpack

import (
	"errors"
	"image"
	"io"

	"github.com/agentpet/rules_pet/internal/webp"
)

// The previews of section 3, which the media gate decodes.
const (
	coverPath   = "assets/preview/cover.png"
	previewPath = "assets/preview/animated_preview.webp"
)

// previewBudgetRules maps the webp rules that are section 11 budgets to a
// petpack rule each, so a verdict says which budget the preview broke;
// every other webp rule is a malformed file, preview_header_invalid. The
// finding's message starts with the webp rule either way.
var previewBudgetRules = map[webp.Rule]Rule{
	webp.RuleFrameCount:         RulePreviewFrameCount,
	webp.RuleCanvasTooLarge:     RulePreviewTooManyPixels,
	webp.RuleFrameOutsideCanvas: RulePreviewFrameOutsideCanvas,
	webp.RuleHuffmanGroups:      RulePreviewDecoderMemory,
	webp.RuleDecoderMemory:      RulePreviewDecoderMemory,
	webp.RuleDecodedBytes:       RulePreviewDecodedTooLarge,
}

// checkPreviewHeader is the animated preview's part of stage 2: the WebP
// container, every bitstream header and the VP8L allocation pre-pass of
// internal/webp, under the section 11 preview budgets, before anything is
// decoded. It returns the preview's bytes for the media gate to decode
// (nil when the preview is absent, which the layout reports, or rejected)
// and its canvas size.
func checkPreviewHeader(c *checker, fs *fileSet) ([]byte, image.Point) {
	n := fs.lookup(previewPath)
	if n == nil || n.dir {
		return nil, image.Point{}
	}
	data, err := readEntry(fs, n.e)
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		c.fail(ce.rule, previewPath, "", "%s", ce.msg)
		return nil, image.Point{}
	case err != nil:
		c.fail(RulePackageUnreadable, previewPath, "", "%v", err)
		return nil, image.Point{}
	}
	f, err := webp.Parse(data, webp.DefaultBudget())
	if err != nil {
		rule := RulePreviewHeaderInvalid
		var we *webp.Error
		if errors.As(err, &we) {
			if r, ok := previewBudgetRules[we.Rule]; ok {
				rule = r
			}
		}
		c.fail(rule, previewPath, "", "%v", err)
		return nil, image.Point{}
	}
	return data, image.Pt(f.Width, f.Height)
}

// readEntry reads a whole entry into one buffer of its declared size,
// which stage 2 has held to MaxEntryBytes, through the source's bounded
// reader: a directory file that grew since it was listed fails rather
// than yield more.
func readEntry(fs *fileSet, e *entry) ([]byte, error) {
	rc, err := fs.src.open(e)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data := make([]byte, e.size)
	if _, err := io.ReadFull(rc, data); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = errors.New(e.name + " is shorter than its declared size")
		}
		return nil, err
	}
	var one [1]byte
	switch k, err := io.ReadFull(rc, one[:]); {
	case k > 0:
		return nil, errors.New(e.name + " is longer than its declared size")
	case err != io.EOF:
		return nil, err
	}
	return data, nil
}
