package petpackbuild

import (
	"archive/zip"
	"bytes"
	"image"
	"image/color"
	"io"
	"os"
	"strings"
	"testing"
)

// scaleReference is the per-pixel scaling scaleNRGBA replaced: each
// pixel converted by the NRGBA model and set k*k times.
func scaleReference(img image.Image, k int) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := out.ColorModel().Convert(img.At(b.Min.X+x, b.Min.Y+y))
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					out.Set(x*k+dx, y*k+dy, c)
				}
			}
		}
	}
	return out
}

// TestScaleNRGBAMatchesPerPixel: the Pix-row scaling gives the bytes of
// the per-pixel one, for NRGBA (also a sub-image with an offset origin),
// premultiplied RGBA with partial alpha and a grey image, at k 1 to 3.
func TestScaleNRGBAMatchesPerPixel(t *testing.T) {
	nrgba := image.NewNRGBA(image.Rect(0, 0, 7, 5))
	rgba := image.NewRGBA(image.Rect(0, 0, 7, 5))
	gray := image.NewGray(image.Rect(0, 0, 7, 5))
	for i := range nrgba.Pix {
		nrgba.Pix[i] = byte(i*37 + 11)
	}
	for y := 0; y < 5; y++ {
		for x := 0; x < 7; x++ {
			a := byte(x * y * 12)
			rgba.SetRGBA(x, y, color.RGBA{a / 2, a / 3, a, a})
			gray.SetGray(x, y, color.Gray{byte(x*30 + y)})
		}
	}
	images := map[string]image.Image{
		"nrgba":     nrgba,
		"sub nrgba": nrgba.SubImage(image.Rect(2, 1, 6, 5)),
		"rgba":      rgba,
		"gray":      gray,
	}
	for name, img := range images {
		for k := 1; k <= 3; k++ {
			got, want := scaleNRGBA(img, k), scaleReference(img, k)
			if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s at %d: differs from per-pixel scaling", name, k)
			}
		}
	}
}

// TestRepackGolden: the checked-in sample archive, stripped of what the
// writer makes (cover, animated preview, validation report) and packed
// again, is the same bytes: scaling and the report reproduce it exactly.
func TestRepackGolden(t *testing.T) {
	golden, err := os.ReadFile("../../assets/petpack/pet_tabby.petpack.golden")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(golden), int64(len(golden)))
	if err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, f := range zr.File {
		if f.Name == CoverPath || f.Name == PreviewPath || f.Name == validationPath {
			continue
		}
		if strings.HasSuffix(f.Name, "/") {
			files = append(files, File{Path: f.Name})
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Path: f.Name, Data: data})
	}
	res, err := Pack(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Archive, golden) {
		t.Fatalf("repacking the golden's authored files gives %d bytes that differ from its %d", len(res.Archive), len(golden))
	}
}
