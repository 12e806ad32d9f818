package petpack

import "strconv"

// media is what the header pre-pass learned about the package's images,
// for the media gate of stage 4.
type media struct {
	frames  map[Action][]*node
	headers map[*node]pngHeader
}

// checkFrameBudgets is the decoded-resource part of stage 2: frame counts
// from the layout, then each frame's and the cover's IHDR for the pixel
// budget, and per action the RGBA its frames decode to. Nothing is decoded.
// The preview's WebP header pre-pass (frame count, canvas, the VP8L bounds
// the x/image decoder does not enforce) belongs here too.
func checkFrameBudgets(c *checker, fs *fileSet) *media {
	md := &media{frames: stateFrames(fs), headers: map[*node]pngHeader{}}
	mark := c.count()
	total := 0
	for _, t := range actionTable {
		frames := md.frames[t.action]
		total += len(frames)
		if len(frames) > MaxFramesPerState {
			c.fail(RuleTooManyFramesInState, t.action.FramesDir(), "", "%d frames, over the budget of %d per state", len(frames), MaxFramesPerState)
		}
	}
	if total > MaxFramesPerPackage {
		c.fail(RuleTooManyFrames, "", "", "%d frames, over the budget of %d per package", total, MaxFramesPerPackage)
	}
	if c.errorsSince(mark) {
		return nil
	}
	images := []*node{}
	for _, t := range actionTable {
		images = append(images, md.frames[t.action]...)
	}
	if cover := fs.lookup("assets/preview/cover.png"); cover != nil && !cover.dir {
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
		case h.pixels() > MaxImagePixels:
			c.fail(RuleImageTooManyPixels, n.path, "", "the IHDR declares %dx%d, %d pixels, over the budget of %d", h.width, h.height, h.pixels(), MaxImagePixels)
			continue
		}
		md.headers[n] = h
	}
	for _, t := range actionTable {
		var sum uint64
		for _, n := range md.frames[t.action] {
			if h, ok := md.headers[n]; ok {
				sum += h.decodedBytes()
			}
		}
		if sum > MaxStateDecodedBytes {
			c.fail(RuleStateDecodedTooLarge, t.action.FramesDir(), "", "the frames decode to %d bytes of RGBA, over the budget of %d per state", sum, MaxStateDecodedBytes)
		}
	}
	return md
}

// checkMedia is the media gate of section 6, run after the manifest and
// layout. What the headers alone prove is checked here: one frame per
// duration and every frame at exactly render_size. Decoding each frame in
// natural order, the cover's alpha rules and the animated preview come
// next, within the bounds checkFrameBudgets established.
func checkMedia(c *checker, m *Manifest, md *media) {
	if m == nil || md == nil {
		return
	}
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
			if ok && (int(h.width) != m.RenderSize.Width || int(h.height) != m.RenderSize.Height) {
				c.fail(RuleFrameSizeMismatch, n.path, "", "the frame is %dx%d; the %s render_size is %dx%d", h.width, h.height, m.Quality, m.RenderSize.Width, m.RenderSize.Height)
			}
		}
	}
}
