package motionqa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// InvalidSourceError is a SRC the validator rejected: QA and
// verify-production stop before they read a frame or write a file.
type InvalidSourceError struct {
	// Path is SRC as given.
	Path string
	// Verdict is the validator's verdict on it.
	Verdict *petpack.Verdict
}

func (e *InvalidSourceError) Error() string {
	lines := make([]string, len(e.Verdict.Errors))
	for i, f := range e.Verdict.Errors {
		lines[i] = fmt.Sprintf("%s: %s", e.Path, f)
	}
	return strings.Join(lines, "\n")
}

// Source is a validated package, archive or directory, opened for reading
// its frames. An archive is read through the validator's own
// petpack.Package, so no second ZIP reader sees its bytes.
type Source struct {
	// Path is SRC as given.
	Path string
	// Manifest is the decoded manifest.json.
	Manifest *petpack.Manifest
	// Verdict is the validator's verdict (no errors; its warnings).
	Verdict *petpack.Verdict
	// IsDir says SRC is an unpacked directory.
	IsDir bool

	pkg    *petpack.Package // an archive's; nil for a directory
	frames map[petpack.Action][]string
}

// Open validates a package and opens it. A directory is validated in
// place (petpack.ValidateDir, which follows no link); an archive is read
// into memory and opened through the validator (petpack.Open), so
// an archive named through a symbolic link, as a Bazel sandbox gives every
// input, is the file the link names. A rejected package is an
// *InvalidSourceError.
func Open(p string) (*Source, error) {
	fi, err := os.Stat(p)
	isFile := err == nil && fi.Mode().IsRegular()
	var pkg *petpack.Package
	var v *petpack.Verdict
	if isFile {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		pkg, v = petpack.Open(bytes.NewReader(data), int64(len(data)))
	} else {
		v = petpack.ValidatePath(p)
	}
	if !v.OK() || v.Manifest == nil {
		return nil, &InvalidSourceError{Path: p, Verdict: v}
	}
	s := &Source{Path: p, Manifest: v.Manifest, Verdict: v, frames: map[petpack.Action][]string{}, IsDir: !isFile, pkg: pkg}
	for _, st := range s.Manifest.States {
		names, err := s.listPNG(st.Name, st.FramesDir)
		if err != nil {
			return nil, err
		}
		s.frames[st.Name] = names
	}
	return s, nil
}

// Close releases the package (an archive's bytes are garbage collected).
func (s *Source) Close() error {
	s.pkg = nil
	return nil
}

// listPNG returns the base names of the .png files (any case) directly in
// dir, action a's frames directory, in the contract's natural order.
func (s *Source) listPNG(a petpack.Action, dir string) ([]string, error) {
	var names []string
	if s.IsDir {
		ents, err := os.ReadDir(filepath.Join(s.Path, filepath.FromSlash(dir)))
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if e.Type().IsRegular() && isPNGName(e.Name()) {
				names = append(names, e.Name())
			}
		}
		sort.Slice(names, func(i, j int) bool { return petpack.NaturalLess(names[i], names[j]) })
		return names, nil
	}
	// The validator listed the archive's frames, in the same order.
	for _, p := range s.pkg.Frames(a) {
		names = append(names, path.Base(p))
	}
	return names, nil
}

func isPNGName(n string) bool { return strings.HasSuffix(strings.ToLower(n), ".png") }

// FrameNames returns a state's frame file names in natural order.
func (s *Source) FrameNames(a petpack.Action) []string { return s.frames[a] }

// ReadFile returns the bytes of a package path.
func (s *Source) ReadFile(name string) ([]byte, error) {
	if s.IsDir {
		return os.ReadFile(filepath.Join(s.Path, filepath.FromSlash(name)))
	}
	data, err := fs.ReadFile(s.pkg.FS(), name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %s: no such entry", s.Path, name)
	}
	return data, err
}

// Frame decodes frame i of state a as 8-bit non-premultiplied RGBA.
func (s *Source) Frame(a petpack.Action, i int) (*image.NRGBA, error) {
	st := s.Manifest.State(a)
	names := s.frames[a]
	if st == nil || i < 0 || i >= len(names) {
		return nil, fmt.Errorf("%s: state %s has no frame %d", s.Path, a, i)
	}
	p := path.Join(st.FramesDir, names[i])
	data, err := s.ReadFile(p)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", s.Path, p, err)
	}
	return ToNRGBA(img), nil
}

// Frames decodes every frame of state a.
func (s *Source) Frames(a petpack.Action) ([]*image.NRGBA, error) {
	out := make([]*image.NRGBA, len(s.frames[a]))
	for i := range out {
		f, err := s.Frame(a, i)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// Provenance is source/source.json's provenance string in its V3 shape, or
// "" when it is absent or not a string. Only this field is decoded, so the
// rest of the metadata can change shape without touching QA.
func (s *Source) Provenance() string {
	data, err := s.ReadFile("source/source.json")
	if err != nil {
		return ""
	}
	var doc struct {
		Provenance json.RawMessage `json:"provenance"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return ""
	}
	var p string
	if json.Unmarshal(doc.Provenance, &p) != nil {
		return ""
	}
	return p
}

// ToNRGBA returns img as *image.NRGBA at origin (0,0), converting other
// models the way image/color does (16-bit channels keep their high byte).
func ToNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	if n, ok := img.(*image.NRGBA); ok && b.Min == (image.Point{}) && n.Stride == 4*b.Dx() {
		return n
	}
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			i := out.PixOffset(x, y)
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
	return out
}
