package petpackbuild

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// TestBuildDecodesEachImageOnce counts the media decodes of whole builds
// (the build's memo counts every decode of the build; publishing reads the
// file back without decoding):
// each authored frame is decoded once (to make the previews, and the
// validation takes what it needs from that decode), the cover the writer
// made once and the animated preview once, by the validation; publishing
// decodes nothing. The high tier's previews warn, so its report needs a
// second archive and a second validation: that one decodes nothing either.
func TestBuildDecodesEachImageOnce(t *testing.T) {
	for _, tc := range []struct {
		q          petpack.Quality
		warnings   int
		wantFrames int64
	}{
		{petpack.QualityLow, 0, 50},
		{petpack.QualityHigh, 2, 50},
	} {
		t.Run(string(tc.q), func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "pkg")
			writeTierPackage(t, src, tc.q)
			out := filepath.Join(t.TempDir(), "pet.petpack")
			res, err := Build(src, out, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Verdict.Warnings); got != tc.warnings {
				t.Fatalf("%d warnings, want %d: %v", got, tc.warnings, res.Verdict.Warnings)
			}
			got := res.decodes
			want := petpack.Decodes{PNG: tc.wantFrames + 1, WebP: 1}
			if got != want {
				t.Errorf("the build decoded %d PNGs and %d WebPs; want %d (each frame and the cover once) and %d", got.PNG, got.WebP, want.PNG, want.WebP)
			}
			// The archive on disk still validates in full, without a memo.
			if v := petpack.ValidatePath(out); !v.OK() {
				t.Errorf("the published archive does not validate: %v", v.Err())
			}
		})
	}
}

// TestPublishChecksBytes: Publish writes only the bytes Pack validated and
// proves the file on disk is them.
func TestPublishChecksBytes(t *testing.T) {
	res, _ := built(t, Options{})
	dir := t.TempDir()

	changed := *res
	changed.Archive = append([]byte(nil), res.Archive...)
	changed.Archive[len(changed.Archive)/2] ^= 0xff
	out := filepath.Join(dir, "changed.petpack")
	if err := Publish(&changed, out); !errors.Is(err, ErrInvalid) {
		t.Errorf("Publish of bytes changed after validation: %v, want ErrInvalid", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the changed archive was written: %v", err)
	}
	if err := Publish(&Result{Archive: res.Archive, Verdict: res.Verdict}, out); !errors.Is(err, ErrInvalid) {
		t.Errorf("Publish of a result Pack did not make: %v, want ErrInvalid", err)
	}

	good := filepath.Join(dir, "good.petpack")
	if err := Publish(res, good); err != nil {
		t.Fatal(err)
	}
	if err := checkWritten(good, res.validated); err != nil {
		t.Errorf("the published file: %v", err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"a flipped byte", changed.Archive},
		{"truncated", res.Archive[:len(res.Archive)-1]},
	} {
		p := filepath.Join(dir, "bad.petpack")
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := checkWritten(p, res.validated); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: checkWritten = %v, want ErrInvalid", tc.name, err)
		}
	}
}
