package petpack

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/testsupport/webpcraft"
	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
	"github.com/agentpet/rules_pet/tools/webpenc"
)

// ---- WebP crafting (the shapes internal/webp's own tests build) ----

// riffWebP wraps chunks, each a FourCC and payload, as a RIFF WEBP file,
// padding odd payloads.
func riffWebP(chunks ...[]byte) []byte {
	out := []byte("RIFF\x00\x00\x00\x00WEBP")
	for _, c := range chunks {
		out = append(out, c...)
	}
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out
}

func webpChunk(id string, payload []byte) []byte {
	out := append([]byte(id), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(payload)))
	out = append(out, payload...)
	if len(payload)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

func put24(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }

// animHeader is the VP8X (animation flag) and ANIM chunks of a w by h
// animated file.
func animHeader(w, h int) []byte {
	x := make([]byte, 10)
	x[0] = 0x02
	put24(x[4:], w-1)
	put24(x[7:], h-1)
	return append(webpChunk("VP8X", x), webpChunk("ANIM", make([]byte, 6))...)
}

// anmfVP8L is one ANMF frame at (x, y), w by h, holding a VP8L stream.
func anmfVP8L(x, y, w, h int, vp8l []byte) []byte {
	p := make([]byte, 16)
	put24(p[0:], x/2)
	put24(p[3:], y/2)
	put24(p[6:], w-1)
	put24(p[9:], h-1)
	put24(p[12:], 100)
	return webpChunk("ANMF", append(p, webpChunk("VP8L", vp8l)...))
}

// animatedBlank is an animated w by h preview of n blank frames.
func animatedBlank(w, h, n int) []byte {
	chunks := [][]byte{animHeader(w, h)}
	frame := anmfVP8L(0, 0, w, h, webpcraft.BlankVP8L(w, h))
	for i := 0; i < n; i++ {
		chunks = append(chunks, frame)
	}
	return riffWebP(chunks...)
}

// ---- images ----

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// drawn is a w by h image painted by f.
func drawn(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			im.SetNRGBA(x, y, f(x, y))
		}
	}
	return im
}

func inDisc(x, y, cx, cy, r int) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }

var orange = color.NRGBA{230, 120, 30, 255}

// checkerCover is a 384x416 cover with a checkerboard of cell s in tones
// a and b baked in behind a disc, and a transparent strip on the left, so
// that it breaks no coverage rule.
func checkerCover(s int, a, b color.NRGBA) []byte {
	return encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		switch {
		case x < 40:
			return color.NRGBA{}
		case inDisc(x, y, 200, 210, 90):
			return orange
		case (x/s+y/s)%2 == 0:
			return a
		}
		return b
	}))
}

// corruptIDAT flips a byte of the first IDAT chunk's data, which breaks its
// CRC, leaving the IHDR as stage 2 read it.
func corruptIDAT(b []byte) []byte {
	out := append([]byte(nil), b...)
	i := bytes.Index(out, []byte("IDAT"))
	out[i+10] ^= 0xff
	return out
}

// ordinary is p with source.json claiming external provenance, which the
// media gate only warns about.
func ordinary(p pkg, states []State) pkg {
	mt := metadataFor(states)
	mt.src.Provenance = "external"
	mt.src.VisualSource = "manual"
	mt.brf.Generation.Provenance = "external"
	return p.with("source/source.json", mt.source()).with(briefPath, mt.brief())
}

// frameName is the path of frame i of action a as packageDrawn names it.
func frameName(a Action, i int) string { return fmt.Sprintf("%s/%04d.png", a.FramesDir(), i) }

// TestMediaRules: each rule of the media gate, stage 2's WebP pre-pass
// and stage 4's decoding, broken alone.
func TestMediaRules(t *testing.T) {
	base := validPackage()
	preview := func(b []byte) pkg { return base.with(previewPath, b) }
	cover := func(b []byte) pkg { return base.with(coverPath, b) }
	still := webpenc.EncodeVP8L
	gradient, _ := still(drawn(6, 4, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 40), uint8(y * 60), 9, 255} }))
	blankFrame := encodePNG(image.NewNRGBA(image.Rect(0, 0, 192, 208)))
	idle0 := base.get(frameName(ActionIdle, 0))
	// The same pixels as idle/0000.png in a different PNG encoding.
	reencoded := func() []byte {
		img, err := png.Decode(bytes.NewReader(idle0))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}()
	paletted := func() []byte {
		im := image.NewPaletted(image.Rect(0, 0, 384, 416), color.Palette{color.NRGBA{}, orange})
		for y := 0; y < 416; y++ {
			for x := 0; x < 384; x++ {
				if inDisc(x, y, 192, 208, 100) {
					im.SetColorIndex(x, y, 1)
				}
			}
		}
		return encodePNG(im)
	}()
	states := DefaultStates()
	cases := []struct {
		name string
		p    pkg
		want []Rule
	}{
		// Stage 2: the preview's header pre-pass.
		{"a preview without chunks", preview([]byte("RIFF\x04\x00\x00\x00WEBP")), []Rule{RulePreviewHeaderInvalid}},
		{"a GIF preview", preview([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00")), []Rule{RulePreviewHeaderInvalid}},
		{"a preview of 121 frames", preview(animatedBlank(4, 4, 121)), []Rule{RulePreviewFrameCount}},
		{"a preview frame outside its canvas", preview(riffWebP(animHeader(12, 13), anmfVP8L(0, 0, 12, 13, webpcraft.BlankVP8L(12, 13)), anmfVP8L(4, 4, 12, 13, webpcraft.BlankVP8L(12, 13)))), []Rule{RulePreviewFrameOutsideCanvas}},
		{"a 4097x4096 preview canvas", preview(riffWebP(animHeader(4097, 4096), anmfVP8L(0, 0, 4, 4, webpcraft.BlankVP8L(4, 4)))), []Rule{RulePreviewTooManyPixels}},
		{"a VP8L stream of 65536 groups", preview(riffWebP(animHeader(192, 208), anmfVP8L(0, 0, 192, 208, webpcraft.HostileVP8L(192, 208)))), []Rule{RulePreviewDecoderMemory}},
		{"four 3000x3000 preview frames", preview(animatedBlank(3000, 3000, 4)), []Rule{RulePreviewDecodedTooLarge}},
		// Stage 4: the preview decodes.
		{"a preview cut inside its pixels", preview(riffWebP(webpChunk("VP8L", gradient[:len(gradient)/2]))), []Rule{RulePreviewDecodeFailed}},
		// The cover.
		{"a paletted cover with tRNS", cover(paletted), []Rule{RuleCoverNoAlpha}},
		{"a cover with a corrupt IDAT", cover(corruptIDAT(base.get(coverPath))), []Rule{RuleCoverDecodeFailed}},
		{"a transparent cover", cover(encodePNG(image.NewNRGBA(image.Rect(0, 0, 384, 416)))), []Rule{RuleCoverAlphaCoverage}},
		{"a cover with no transparent pixel (alpha 240 everywhere)", cover(encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
			return color.NRGBA{uint8(x), uint8(y), 90, 240}
		}))), []Rule{RuleCoverAlphaCoverage}},
		{"an opaque RGB cover", cover(encodePNG(drawn(384, 416, func(x, y int) color.NRGBA { return orange }))), []Rule{RuleCoverNoAlpha, RuleCoverAlphaCoverage}},
		{"a white and grey 8 px checkerboard", cover(checkerCover(8, color.NRGBA{255, 255, 255, 255}, color.NRGBA{204, 204, 204, 255})), []Rule{RuleCoverCheckerboard}},
		{"a white and light grey 16 px checkerboard", cover(checkerCover(16, color.NRGBA{255, 255, 255, 255}, color.NRGBA{238, 238, 238, 255})), []Rule{RuleCoverCheckerboard}},
		{"a dark-mode 32 px checkerboard", cover(checkerCover(32, color.NRGBA{102, 102, 102, 255}, color.NRGBA{153, 153, 153, 255})), []Rule{RuleCoverCheckerboard}},
		// Frames.
		{"a frame with a corrupt IDAT", base.with(frameName(ActionTool, 2), corruptIDAT(base.get(frameName(ActionTool, 2)))), []Rule{RuleFrameDecodeFailed}},
		{"a blank full-source frame", base.with(frameName(ActionWaiting, 3), blankFrame), []Rule{RuleFullSourceAlphaCoverage}},
		{"an opaque full-source frame", base.with(frameName(ActionWaiting, 3), encodePNG(drawn(192, 208, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x), uint8(y), 40, 255} }))), []Rule{RuleFullSourceAlphaCoverage}},
		{"a repeated full-source frame", base.with(frameName(ActionThinking, 1), base.get(frameName(ActionThinking, 0))), []Rule{RuleFullSourceFrameDuplicate}},
		{"a repeat in another encoding", base.with(frameName(ActionIdle, 1), reencoded), []Rule{RuleFullSourceFrameDuplicate}},
		{"a full-source loop ending on its first frame", base.with(frameName(ActionDragLeft, 5), base.get(frameName(ActionDragLeft, 0))), []Rule{RuleFullSourceLoopSeam}},
		{"a full-source claim that breaks a provenance rule", ordinary(base, states).with(frameName(ActionThinking, 1), blankFrame).
			with(sourcePath, func() []byte {
				mt := metadataFor(states)
				mt.src.PreviewOnly = boolPtr(true)
				return mt.source()
			}()), []Rule{RuleSchemaConst, RuleFullSourceAlphaCoverage}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(rawZip(tc.p)), tc.want...)
		})
	}
}

// TestMediaMessages: a preview finding names the webp rule, and a
// duplicate names the frame it repeats.
func TestMediaMessages(t *testing.T) {
	base := validPackage()
	cases := []struct {
		name string
		p    pkg
		rule Rule
		path string
		msg  string
	}{
		{"121 frames", base.with(previewPath, animatedBlank(4, 4, 121)), RulePreviewFrameCount, previewPath, string(webp.RuleFrameCount) + ": "},
		{"65536 groups", base.with(previewPath, riffWebP(animHeader(192, 208), anmfVP8L(0, 0, 192, 208, webpcraft.HostileVP8L(192, 208)))), RulePreviewDecoderMemory, previewPath, string(webp.RuleHuffmanGroups) + ": "},
		{"no chunk", base.with(previewPath, []byte("RIFF\x04\x00\x00\x00WEBP")), RulePreviewHeaderInvalid, previewPath, string(webp.RuleTruncated) + ": "},
		{"duplicate", base.with(frameName(ActionTool, 3), base.get(frameName(ActionTool, 2))), RuleFullSourceFrameDuplicate, frameName(ActionTool, 3), "as 0002.png, the frame before it"},
		{"seam", base.with(frameName(ActionDragRight, 5), base.get(frameName(ActionDragRight, 0))), RuleFullSourceLoopSeam, frameName(ActionDragRight, 5), "its first, 0000.png"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(tc.p))
			if len(v.Errors) != 1 {
				t.Fatalf("want one error:\n%s", describeVerdict(v))
			}
			f := v.Errors[0]
			if f.Rule != tc.rule || f.Path != tc.path || !strings.Contains(f.Msg, tc.msg) {
				t.Fatalf("got %v; want %s at %s saying %q", f, tc.rule, tc.path, tc.msg)
			}
		})
	}
}

// TestMediaWarnings: an ordinary package (not skill-full-source) with poor
// alpha coverage or repeated frames, or a cover of another size, is valid
// and warns.
func TestMediaWarnings(t *testing.T) {
	states := DefaultStates()
	base := ordinary(validPackage(), states)
	blank := encodePNG(image.NewNRGBA(image.Rect(0, 0, 192, 208)))
	cases := []struct {
		name string
		p    pkg
		rule Rule
	}{
		{"a blank frame", base.with(frameName(ActionDone, 2), blank), RuleFrameAlphaCoverageLow},
		{"a repeated frame", base.with(frameName(ActionFailed, 4), base.get(frameName(ActionFailed, 3))), RuleFrameDuplicateAdjacent},
		{"a loop ending on its first frame", base.with(frameName(ActionDragLeft, 5), base.get(frameName(ActionDragLeft, 0))), RuleFrameDuplicateAdjacent},
		{"a 192x208 cover", validPackage().with(coverPath, testPNG(192, 208, 3)), RulePreviewSizeUnusual},
		{"a 12x13 animated preview", validPackage().with(previewPath, animatedBlank(12, 13, 2)), RulePreviewSizeUnusual},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectWarning(t, validateBytes(rawZip(tc.p)), tc.rule)
		})
	}
}

// TestNoMediaFindings: what the media rules must leave alone. The seam
// rule is for loop states only (a burst's repeat is not called a loop),
// and a two-frame loop's seam is the adjacent pair, reported once; covers
// of ordinary art on a transparent background are not checkerboards.
func TestNoMediaFindings(t *testing.T) {
	base := validPackage()
	greyBlob := encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		if !inDisc(x, y, 192, 208, 150) {
			return color.NRGBA{}
		}
		v := uint8(250 - ((x-192)*(x-192)+(y-208)*(y-208))/100) // shaded white fur
		return color.NRGBA{v, v, v, 255}
	}))
	twoGreys := encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		switch {
		case !inDisc(x, y, 192, 208, 170):
			return color.NRGBA{}
		case y > 208 && x > 192:
			return color.NRGBA{230, 230, 230, 255}
		case y > 208 || x > 192:
			return color.NRGBA{150, 150, 150, 255}
		}
		return color.NRGBA{230, 230, 230, 255}
	}))
	stripes := encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		switch {
		case x < 40:
			return color.NRGBA{}
		case (y/8)%2 == 0:
			return color.NRGBA{255, 255, 255, 255}
		}
		return color.NRGBA{204, 204, 204, 255}
	}))
	dither := encodePNG(drawn(384, 416, func(x, y int) color.NRGBA {
		if x < 40 {
			return color.NRGBA{}
		}
		h := uint32(x)*0x9e3779b1 ^ uint32(y)*0x85ebca77
		h ^= h >> 15
		h *= 0x2c1b3c6d
		h ^= h >> 12
		if h%5 < 2 { // a random 40% of the pixels
			return color.NRGBA{255, 255, 255, 255}
		}
		return color.NRGBA{190, 190, 190, 255}
	}))
	cases := []struct {
		name string
		p    pkg
	}{
		{"a burst ending on its first frame", base.with(frameName(ActionThinking, 3), base.get(frameName(ActionThinking, 0)))},
		{"a shaded grey subject", base.with(coverPath, greyBlob)},
		{"four grey quadrants", base.with(coverPath, twoGreys)},
		{"grey stripes", base.with(coverPath, stripes)},
		{"grey dither", base.with(coverPath, dither)},
		{"a 16-bit cover", base.with(coverPath, func() []byte {
			src, _ := png.Decode(bytes.NewReader(base.get(coverPath)))
			im := image.NewNRGBA64(src.Bounds())
			for y := 0; y < 416; y++ {
				for x := 0; x < 384; x++ {
					im.Set(x, y, src.At(x, y))
				}
			}
			return encodePNG(im)
		}())},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(tc.p))
			if !v.OK() || len(v.Warnings) != 0 {
				t.Fatalf("findings:\n%s", describeVerdict(v))
			}
		})
	}
	t.Run("two-frame loop", func(t *testing.T) {
		p := packageOf(minimalStates())
		p = p.with(frameName(ActionDragLeft, 1), p.get(frameName(ActionDragLeft, 0)))
		v := validateBytes(rawZip(p))
		if len(v.Errors) != 1 || v.Errors[0].Rule != RuleFullSourceFrameDuplicate {
			t.Fatalf("want one adjacent duplicate:\n%s", describeVerdict(v))
		}
	})
}

// TestFramesInNaturalOrder: frames are decoded and compared in the ASCII
// natural order of section 6, so 9.png and 10.png are neighbours (in byte
// order 10.png would follow 1.png).
func TestFramesInNaturalOrder(t *testing.T) {
	states := DefaultStates()
	for i := range states {
		if states[i].Name == ActionThinking {
			states[i].FrameDurationsMS = []int{100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100}
		}
	}
	p := packageOf(states).without(ActionThinking.FramesDir() + "/")
	for i := 0; i <= 10; i++ {
		seed := 900 + i
		if i == 10 {
			seed = 909
		}
		p = append(p, pkgFile{fmt.Sprintf("%s/%d.png", ActionThinking.FramesDir(), i), testPNG(192, 208, seed)})
	}
	v := validateBytes(rawZip(p))
	if len(v.Errors) != 1 || v.Errors[0].Rule != RuleFullSourceFrameDuplicate || v.Errors[0].Path != ActionThinking.FramesDir()+"/10.png" ||
		!strings.Contains(v.Errors[0].Msg, "9.png") {
		t.Fatalf("want 10.png repeating 9.png:\n%s", describeVerdict(v))
	}
}

// TestPreviewBudgetsAreTheContract: stage 2 runs internal/webp's default
// budget, which must be section 11's preview limits as budgets.go states
// them.
func TestPreviewBudgetsAreTheContract(t *testing.T) {
	b := webp.DefaultBudget()
	if b.MaxFrames != MaxPreviewFrames || b.MaxPixels != MaxImagePixels || b.MaxDecodedBytes != MaxPreviewDecodedBytes {
		t.Fatalf("webp.DefaultBudget() %+v differs from the petpack budgets", b)
	}
}

// withChunk inserts a chunk of type typ right after a PNG's IHDR.
func withChunk(png []byte, typ string, data []byte) []byte {
	var c bytes.Buffer
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	c.Write(n[:])
	c.WriteString(typ)
	c.Write(data)
	binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(append([]byte(typ), data...)))
	c.Write(n[:])
	out := append([]byte(nil), png[:imagecheck.HeaderLen]...)
	out = append(out, c.Bytes()...)
	return append(out, png[imagecheck.HeaderLen:]...)
}

// TestPNGCriticalChunks: a PNG decoder must refuse an unknown critical
// chunk (upper-case first letter), in a frame or the cover; an unknown
// ancillary chunk (lower-case) is skipped as the specification says.
func TestPNGCriticalChunks(t *testing.T) {
	base := validPackage()
	frame := frameName(ActionTool, 1)
	for _, tc := range []struct {
		name string
		p    pkg
		want []Rule
	}{
		{"critical chunk in a frame", base.with(frame, withChunk(base.get(frame), "CRIT", []byte("x"))), []Rule{RuleFrameDecodeFailed}},
		{"critical chunk in the cover", base.with(coverPath, withChunk(base.get(coverPath), "ZZZZ", nil)), []Rule{RuleCoverDecodeFailed}},
		{"ancillary chunk in a frame", base.with(frame, withChunk(base.get(frame), "teSt", []byte("note"))), nil},
		{"ancillary chunk in the cover", base.with(coverPath, withChunk(base.get(coverPath), "zzZz", nil)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(tc.p))
			if tc.want == nil {
				if !v.OK() {
					t.Fatalf("rejected:\n%s", describeVerdict(v))
				}
				return
			}
			expectRules(t, v, tc.want...)
			if !strings.Contains(v.Errors[0].Msg, "unknown critical chunk") {
				t.Errorf("the message does not say why: %s", v.Errors[0])
			}
		})
	}
}

// TestLargestPreviewAllowed: a single-frame 4096x4096 animated preview is
// within every budget of section 11 (16,777,216 pixels, 128 MiB of preview
// RGBA), so its only finding is the size warning; the decoder bound is
// derived from those budgets, not set below them.
func TestLargestPreviewAllowed(t *testing.T) {
	p := validPackage().with(previewPath, animatedBlank(4096, 4096, 1))
	v := validateBytes(rawZip(p))
	for _, f := range v.Errors {
		if f.Rule == RulePreviewDecoderMemory || f.Path == previewPath {
			t.Fatalf("the preview is refused:\n%s", describeVerdict(v))
		}
	}
	expectWarning(t, v, RulePreviewSizeUnusual)
}

// TestAlphaThresholds: visible means alpha 16 or more and transparent alpha
// 239 or less, as the contract's authors measure; pixels under 16 are
// zeroed before frames are compared.
func TestAlphaThresholds(t *testing.T) {
	base := validPackage()
	faint := encodePNG(drawn(192, 208, func(x, y int) color.NRGBA {
		if x > 40 && x < 150 && y > 40 && y < 170 {
			return color.NRGBA{200, 120, 40, 15}
		}
		return color.NRGBA{}
	}))
	prev := base.get(frameName(ActionThinking, 0))
	img, err := png.Decode(bytes.NewReader(prev))
	if err != nil {
		t.Fatal(err)
	}
	hidden := image.NewNRGBA(img.Bounds())
	draw := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
	for y := 0; y < 208; y++ {
		for x := 0; x < 192; x++ {
			c := draw(x, y)
			if c.A < 16 {
				c = color.NRGBA{uint8(x), uint8(y), 7, uint8(x % 16)}
			}
			hidden.SetNRGBA(x, y, c)
		}
	}
	for _, tc := range []struct {
		name string
		p    pkg
		want Rule
	}{
		{"a frame visible only at alpha 15 is blank", base.with(frameName(ActionTool, 1), faint), RuleFullSourceAlphaCoverage},
		{"frames differing only under alpha 16 are duplicates", base.with(frameName(ActionThinking, 1), encodePNG(hidden)), RuleFullSourceFrameDuplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(rawZip(tc.p)), tc.want)
		})
	}
}
