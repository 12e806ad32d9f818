package petpack

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/tools/webpenc"
)

// TestMediaMemoSameVerdict: a validation that takes the frames from a
// writer's DecodeFrame calls, and the cover and preview from an earlier
// validation, reaches the verdict a plain validation reaches, finding for
// finding, on packages that break or warn on every media rule a memo
// stands in for; and it decodes no frame, and nothing at all the second
// time.
func TestMediaMemoSameVerdict(t *testing.T) {
	states := DefaultStates()
	base := validPackage()
	warned := ordinary(base, states)
	blank := encodePNG(image.NewNRGBA(image.Rect(0, 0, 192, 208)))
	idle0 := base.get(frameName(ActionIdle, 0))
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
	tool2 := frameName(ActionTool, 2)
	gradient, err := webpenc.EncodeVP8L(drawn(6, 4, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 40), uint8(y * 60), 9, 255} }))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    pkg
	}{
		{"valid", base},
		{"a frame with a corrupt IDAT", base.with(tool2, corruptIDAT(base.get(tool2)))},
		{"a frame with an unknown critical chunk", base.with(tool2, withChunk(base.get(tool2), "CRIT", []byte("x")))},
		{"a frame re-encoded with its neighbour's pixels", base.with(frameName(ActionIdle, 1), reencoded)},
		{"a blank frame, warned", warned.with(frameName(ActionDone, 2), blank)},
		{"a repeated frame, warned", warned.with(frameName(ActionFailed, 4), warned.get(frameName(ActionFailed, 3)))},
		{"a loop ending on its first frame, warned", warned.with(frameName(ActionDragLeft, 5), warned.get(frameName(ActionDragLeft, 0)))},
		{"a blank frame in a full-source package", base.with(frameName(ActionDone, 2), blank)},
		{"a cover with a corrupt IDAT", base.with(coverPath, corruptIDAT(base.get(coverPath)))},
		{"a checkerboard cover", base.with(coverPath, checkerCover(8, color.NRGBA{255, 255, 255, 255}, color.NRGBA{204, 204, 204, 255}))},
		{"a transparent cover", base.with(coverPath, encodePNG(image.NewNRGBA(image.Rect(0, 0, 384, 416))))},
		{"a preview cut inside its pixels", base.with(previewPath, riffWebP(webpChunk("VP8L", gradient[:len(gradient)/2])))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			archive := rawZip(tc.p)
			want := describeVerdict(validateBytes(archive))
			memo := NewMediaMemo()
			for _, f := range tc.p {
				if strings.HasPrefix(f.name, "assets/frames/") {
					if _, err := memo.DecodeFrame(f.data, Size{Width: 192, Height: 208}); err != nil && errors.Is(err, ErrFrameNotDecoded) {
						t.Fatalf("%s: %v", f.name, err)
					}
				}
			}
			for pass, maxPNG := range []int64{1, 0} {
				before := memo.Decodes()
				v := memo.Validate(bytes.NewReader(archive), int64(len(archive)))
				after := memo.Decodes()
				if got := describeVerdict(v); got != want {
					t.Errorf("pass %d: the memo's verdict\n%s\nwant\n%s", pass, got, want)
				}
				png, webp := after.PNG-before.PNG, after.WebP-before.WebP
				if png > maxPNG || webp > maxPNG {
					t.Errorf("pass %d decoded %d PNGs and %d WebPs, want at most %d of each (the cover and the preview, once)", pass, png, webp, maxPNG)
				}
			}
		})
	}
}

// TestDecodeFrameRefuses: DecodeFrame decodes nothing the media gate
// would not decode: a header that is not a PNG's, over the pixel budget
// or not the size asked for.
func TestDecodeFrameRefuses(t *testing.T) {
	frame := testPNG(192, 208, 1)
	for _, tc := range []struct {
		name string
		data []byte
		size Size
	}{
		{"not a PNG", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00"), Size{Width: 192, Height: 208}},
		{"over the pixel budget", ihdrOnly(1<<15, 1<<15, 8), Size{Width: 1 << 15, Height: 1 << 15}},
		{"another size", frame, Size{Width: 384, Height: 416}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			memo := NewMediaMemo()
			img, err := memo.DecodeFrame(tc.data, tc.size)
			if !errors.Is(err, ErrFrameNotDecoded) || img != nil {
				t.Errorf("DecodeFrame = %v, %v; want ErrFrameNotDecoded", img, err)
			}
			if d := memo.Decodes(); d != (Decodes{}) {
				t.Errorf("%d PNGs decoded", d.PNG)
			}
		})
	}
	memo := NewMediaMemo()
	if _, err := memo.DecodeFrame(frame, Size{Width: 192, Height: 208}); err != nil {
		t.Errorf("a valid frame: %v", err)
	}
	if d := memo.Decodes(); d != (Decodes{PNG: 1}) {
		t.Errorf("a valid frame: the memo counts %+v, want one PNG", d)
	}
}
