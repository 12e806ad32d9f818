package petpackbuild

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/webp"
	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/google/go-cmp/cmp"
)

// built is the archive of a package directory from writePackage, with its
// files by path.
func built(t *testing.T, opt Options) (*Result, map[string][]byte) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "pkg")
	writePackage(t, src)
	files, err := ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Pack(files, opt)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range res.Files {
		byPath[f.Path] = f.Data
	}
	return res, byPath
}

func decodeNRGBA(t *testing.T, data []byte) *image.NRGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return scaleNRGBA(img, 1)
}

// TestPackValidationReport shows build/validation.json is the writer's own
// verdict on the archive that holds it.
func TestPackValidationReport(t *testing.T) {
	res, files := built(t, Options{})
	var report petpack.ValidationReport
	if err := json.Unmarshal(files[validationPath], &report); err != nil {
		t.Fatal(err)
	}
	if !report.OK || report.Validator != DefaultValidator || report.ManifestID != "pet_build01" || report.FrameCount != 50 {
		t.Fatalf("report %+v", report)
	}
	if report.StateFrameCounts.Of(petpack.ActionWaiting) != 8 || report.StateFrameCounts.Of(petpack.ActionIdle) != 6 {
		t.Errorf("frame counts %+v", report.StateFrameCounts)
	}
	var lines []string
	for _, f := range res.Verdict.Warnings {
		lines = append(lines, WarningLine(f))
	}
	if diff := cmp.Diff(lines, append(append([]string(nil), report.TimingWarnings...), report.Warnings...)); diff != "" {
		t.Errorf("reported warnings differ from the verdict (-verdict +report):\n%s", diff)
	}
	// The low tier's previews are exactly twice the frames: no warning
	// about the preview size may be among them.
	for _, r := range report.Warnings {
		if strings.Contains(r, "preview_size_unusual") {
			t.Errorf("the writer's own previews warn: %v", report.Warnings)
		}
	}
	other, _ := built(t, Options{Validator: "other", ValidatorVersion: "2"})
	if bytes.Equal(other.Archive, res.Archive) {
		t.Error("the validator named in the report does not reach the archive")
	}
}

// TestPackReplacesValidation: a source's own report, here a false one, is
// not carried over.
func TestPackReplacesValidation(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pkg")
	writePackage(t, src)
	stale := []byte(`{"schema_version":"apc.pet-validation.v1","ok":false}`)
	if err := os.MkdirAll(filepath.Join(src, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "build", "validation.json"), stale, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Pack(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Path == validationPath && bytes.Equal(f.Data, stale) {
			t.Fatal("the source's report was archived")
		}
	}
}

// TestPackPreviews: the cover is the idle reduced-motion frame and the
// animated preview every frame at its authored duration, both enlarged by
// pixel replication to the recommended 384x416, decoding to exactly those
// pixels.
func TestPackPreviews(t *testing.T) {
	_, files := built(t, Options{})
	states := petpack.DefaultStates()
	frame := func(a petpack.Action, i int) *image.NRGBA {
		return scaleNRGBA(decodeNRGBA(t, files[a.FramesDir()+"/"+fourDigits(i)+".png"]), 2)
	}
	idle := states[0]
	cover := files[CoverPath]
	cfg, err := png.DecodeConfig(bytes.NewReader(cover))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 384 || cfg.Height != 416 {
		t.Fatalf("cover %dx%d", cfg.Width, cfg.Height)
	}
	if ct := cover[25]; ct != 6 {
		t.Errorf("cover colour type %d, want 6 (RGBA)", ct)
	}
	if !bytes.Equal(decodeNRGBA(t, cover).Pix, frame(idle.Name, idle.ReducedMotionFrameIndex).Pix) {
		t.Error("the cover is not the idle reduced-motion frame")
	}
	decoded, err := webp.DecodeFrames(files[PreviewPath], webp.DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, s := range states {
		for i, d := range s.FrameDurationsMS {
			if k >= len(decoded) {
				t.Fatalf("the preview has %d frames; %s %d is missing", len(decoded), s.Name, i)
			}
			got := decoded[k]
			if got.Duration != d {
				t.Errorf("preview frame %d (%s %d) lasts %d ms, authored %d", k, s.Name, i, got.Duration, d)
			}
			if !bytes.Equal(scaleNRGBA(got.Image, 1).Pix, frame(s.Name, i).Pix) {
				t.Errorf("preview frame %d is not %s frame %d", k, s.Name, i)
			}
			k++
		}
	}
	if k != len(decoded) {
		t.Errorf("the preview has %d frames, the actions %d", len(decoded), k)
	}
}

// TestPackCoverFrame: a named frame becomes the cover; an unknown name is
// an error, not a silent default.
func TestPackCoverFrame(t *testing.T) {
	name := petpack.ActionDone.FramesDir() + "/0003.png"
	_, files := built(t, Options{CoverFrame: name})
	if !bytes.Equal(decodeNRGBA(t, files[CoverPath]).Pix, scaleNRGBA(decodeNRGBA(t, files[name]), 2).Pix) {
		t.Error("the cover is not the named frame")
	}
	src := filepath.Join(t.TempDir(), "pkg")
	writePackage(t, src)
	list, err := ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pack(list, Options{CoverFrame: "assets/frames/idle/9999.png"}); err == nil {
		t.Error("an unknown cover frame was accepted")
	}
}

// TestPackTiers: at every tier the writer's package validates; the
// previews are the recommended 384x416 where replication reaches it, and
// the high tier's stay at its own size, which warns and is recorded.
func TestPackTiers(t *testing.T) {
	for _, tc := range []struct {
		q    petpack.Quality
		size image.Point
		warn []petpack.Rule
	}{
		{petpack.QualityLow, image.Pt(384, 416), []petpack.Rule{}},
		{petpack.QualityStandard, image.Pt(384, 416), []petpack.Rule{}},
		{petpack.QualityHigh, image.Pt(576, 624), []petpack.Rule{petpack.RulePreviewSizeUnusual, petpack.RulePreviewSizeUnusual}},
	} {
		t.Run(string(tc.q), func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "pkg")
			writeTierPackage(t, src, tc.q)
			files, err := ReadDir(src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Pack(files, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var report petpack.ValidationReport
			for _, f := range res.Files {
				switch f.Path {
				case CoverPath:
					cfg, err := png.DecodeConfig(bytes.NewReader(f.Data))
					if err != nil || image.Pt(cfg.Width, cfg.Height) != tc.size {
						t.Errorf("cover %dx%d (%v), want %v", cfg.Width, cfg.Height, err, tc.size)
					}
				case PreviewPath:
					p, err := webp.Parse(f.Data, webp.DefaultBudget())
					if err != nil || image.Pt(p.Width, p.Height) != tc.size {
						t.Errorf("preview %+v (%v), want %v", p, err, tc.size)
					}
				case validationPath:
					if err := json.Unmarshal(f.Data, &report); err != nil {
						t.Fatal(err)
					}
				}
			}
			var verdict, reported []petpack.Rule
			for _, f := range res.Verdict.Warnings {
				verdict = append(verdict, f.Rule)
			}
			for _, line := range report.Warnings {
				reported = append(reported, petpack.Rule(strings.SplitN(line, ": ", 3)[1]))
			}
			if fmt.Sprint(reported) != fmt.Sprint(tc.warn) || fmt.Sprint(verdict) != fmt.Sprint(tc.warn) {
				t.Errorf("validation.json warns %v, the verdict %v; want %v", report.Warnings, verdict, tc.warn)
			}
		})
	}
}

func TestPreviewScale(t *testing.T) {
	for _, tc := range []struct {
		q    petpack.Quality
		want int
	}{{petpack.QualityLow, 2}, {petpack.QualityStandard, 1}, {petpack.QualityHigh, 1}} {
		size, _ := tc.q.RenderSize()
		if got := previewScale(size); got != tc.want {
			t.Errorf("%s: scale %d, want %d", tc.q, got, tc.want)
		}
	}
}

func fourDigits(i int) string {
	return string([]byte{byte('0' + i/1000%10), byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)})
}

// TestPackBrokenFrame: a frame the validator rejects keeps its action out
// of the generated preview (and, being the cover's frame, the cover out),
// so the verdict names the frame itself rather than the preview encoder
// complaining about mixed sizes.
func TestPackBrokenFrame(t *testing.T) {
	encode := func(w, h int) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		img.Pix[3] = 0xff
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	small, truncated := encode(64, 64), encode(192, 208)[:60]
	for _, tc := range []struct {
		name, frame string
		data        []byte
		want        []petpack.Rule
	}{
		{"64x64 tool frame", "assets/frames/tool/0001.png", small, []petpack.Rule{petpack.RuleFrameSizeMismatch}},
		{"truncated tool frame", "assets/frames/tool/0001.png", truncated, []petpack.Rule{petpack.RuleFrameDecodeFailed}},
		{"64x64 cover frame", "assets/frames/idle/0002.png", small, []petpack.Rule{petpack.RuleRequiredMissing, petpack.RuleFrameSizeMismatch}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "pkg")
			writePackage(t, src)
			if err := os.WriteFile(filepath.Join(src, filepath.FromSlash(tc.frame)), tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := ReadDir(src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Pack(files, Options{})
			if !errors.Is(err, ErrInvalid) || res == nil {
				t.Fatalf("Pack: %v, want a verdict wrapping ErrInvalid", err)
			}
			var got []petpack.Rule
			named := false
			for _, f := range res.Verdict.Errors {
				got = append(got, f.Rule)
				named = named || f.Path == tc.frame && f.Rule == tc.want[len(tc.want)-1]
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || !named {
				t.Errorf("errors %v (%v), want %v naming %s", got, res.Verdict.Err(), tc.want, tc.frame)
			}
		})
	}
}
