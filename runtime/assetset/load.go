package assetset

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// PNGSignature is the eight bytes every PNG file begins with. It is the only
// part of an image the layer checks; decoding belongs to the frontend.
const PNGSignature = "\x89PNG\r\n\x1a\n"

// Set is an accepted asset set: its manifest parsed and every image it names
// reachable and beginning with the PNG signature.
type Set struct {
	// Manifest is the parsed manifest; its image paths are relative to the
	// root of the Reader the set was loaded from.
	Manifest *manifest.Manifest
}

// Kind is the stable identifier of why an asset set was not accepted. The
// identifiers are part of the tools' and tests' interface and never change
// meaning.
type Kind string

// Reasons an asset set falls back to the built-in presentation (manifest
// contract section 9).
const (
	// KindManifestMissing: the reader has no manifest.
	KindManifestMissing Kind = "manifest_missing"
	// KindManifestUnreadable: the manifest exists but could not be read,
	// including a directory where the manifest should be.
	KindManifestUnreadable Kind = "manifest_unreadable"
	// KindManifestInvalid: the manifest breaks the contract (`Err` is the
	// parser's `*manifest.Error`, with the manifest rule).
	KindManifestInvalid Kind = "manifest_invalid"
	// KindImageMissing: an image the manifest names does not exist.
	KindImageMissing Kind = "image_missing"
	// KindImageUnreadable: an image exists but could not be read.
	KindImageUnreadable Kind = "image_unreadable"
	// KindImageIsDirectory: an image path names a directory.
	KindImageIsDirectory Kind = "image_is_directory"
	// KindImageEmpty: an image file holds no bytes.
	KindImageEmpty Kind = "image_empty"
	// KindImageNotPNG: an image file does not begin with the PNG
	// signature, including one shorter than the signature.
	KindImageNotPNG Kind = "image_not_png"
)

// FallbackRequired reports that an asset set was rejected and the frontend
// must show BuiltinFallback. It is an error.
type FallbackRequired struct {
	// Kind says what failed.
	Kind Kind
	// Path is the manifest-relative path of the file that failed:
	// ManifestName for the manifest kinds, the image's path otherwise.
	Path string
	// ImageID is the identifier of the failing image; empty for the
	// manifest kinds.
	ImageID string
	// Err is the underlying error, if any: the Reader's error, or the
	// *manifest.Error for KindManifestInvalid.
	Err error
}

// Error describes the failure as `KIND: detail`. For KindManifestInvalid the
// detail is the tools' `manifest.petasset:LINE: RULE: message`.
func (f *FallbackRequired) Error() string {
	var detail string
	switch {
	case f.Kind == KindManifestInvalid && f.Err != nil:
		detail = fmt.Sprintf("%s:%v", f.Path, f.Err)
	case f.ImageID == "" && f.Err != nil:
		detail = f.Err.Error()
	case f.ImageID == "":
		detail = f.Path
	case f.Err != nil:
		detail = fmt.Sprintf("image %s: %v", f.ImageID, f.Err)
	default:
		detail = fmt.Sprintf("image %s (%s): %s", f.ImageID, f.Path, imageProblem[f.Kind])
	}
	return fmt.Sprintf("%s: %s", f.Kind, detail)
}

// Unwrap returns Err, so errors.As finds the *manifest.Error of an invalid
// manifest and errors.Is finds fs.ErrNotExist of a missing file.
func (f *FallbackRequired) Unwrap() error { return f.Err }

var imageProblem = map[Kind]string{
	KindImageEmpty:  "the file is empty",
	KindImageNotPNG: "the file does not begin with the PNG signature",
}

// Outcome is the result of Load: exactly one of Set and Fallback is non-nil.
// On fallback no records are offered, because the fallback chain of section 9
// is only trustworthy when every link of it is.
type Outcome struct {
	// Set is the accepted asset set, or nil.
	Set *Set
	// Fallback is why the built-in fallback is required, or nil.
	Fallback *FallbackRequired
}

// Load reads, parses and checks the asset set behind r and accepts it whole
// or not at all. Images are checked in declaration order and the first
// failure is reported.
func Load(r Reader) Outcome {
	m, fr := loadManifest(r)
	if fr != nil {
		return Outcome{Fallback: fr}
	}
	for _, img := range m.Images {
		if fr := checkImage(r, img); fr != nil {
			return Outcome{Fallback: fr}
		}
	}
	return Outcome{Set: &Set{Manifest: m}}
}

func loadManifest(r Reader) (*manifest.Manifest, *FallbackRequired) {
	data, err := r.ReadManifest()
	if err != nil {
		kind := KindManifestUnreadable
		if errors.Is(err, fs.ErrNotExist) {
			kind = KindManifestMissing
		}
		return nil, &FallbackRequired{Kind: kind, Path: ManifestName, Err: err}
	}
	// Clip here too, so what is parsed and reported does not depend on
	// whether a Reader honoured the bound.
	if len(data) > MaxManifestRead {
		data = data[:MaxManifestRead]
	}
	m, err := manifest.Parse(data)
	if err != nil {
		return nil, &FallbackRequired{Kind: KindManifestInvalid, Path: ManifestName, Err: err}
	}
	return m, nil
}

func checkImage(r Reader, img manifest.Image) *FallbackRequired {
	fr := &FallbackRequired{Path: img.Path, ImageID: img.ID}
	head, err := r.ReadLeading(img.Path, SignatureLen)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fr.Kind, fr.Err = KindImageMissing, err
	case errors.Is(err, ErrIsDirectory):
		fr.Kind, fr.Err = KindImageIsDirectory, err
	case err != nil:
		fr.Kind, fr.Err = KindImageUnreadable, err
	case len(head) == 0:
		fr.Kind = KindImageEmpty
	case !bytes.HasPrefix(head, []byte(PNGSignature)):
		fr.Kind = KindImageNotPNG
	default:
		return nil
	}
	return fr
}
