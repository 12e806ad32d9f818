// Package petpackmemo is how the .petpack writer (tools/petpackbuild)
// reaches the validator's writer hooks without their being runtime/petpack's
// public API: the media memo a build shares between its preview step and
// its validation, and the re-check of an archive written after its bytes
// were validated. runtime/petpack installs the functions when it is
// initialised; being internal, only this module can call them.
//
// The package imports nothing of the module (it is in the internal tier),
// so it cannot name petpack's Verdict: the functions that return one give
// it as an interface value the caller asserts (*petpack.Verdict).
package petpackmemo

import (
	"errors"
	"image"
	"io"
)

// Memo is what the media gate learned from decoding images, by the
// SHA-256 of their bytes: a writer that decodes the frames to make its
// previews records them here, and a validation given the memo takes each
// image it has seen from it instead of decoding the same bytes again. It
// is safe for concurrent use and never stored.
type Memo interface {
	// DecodeFrame decodes a frame's PNG bytes exactly as the media gate
	// does, records what the gate learns under the bytes' digest, and
	// returns the image. A frame whose IHDR is not width x height, or
	// breaks a rule, is not decoded: ErrFrameNotDecoded (wrapped).
	DecodeFrame(data []byte, width, height int) (image.Image, error)
	// Decodes returns how many images have been decoded through the memo.
	Decodes() Decodes
}

// Decodes counts the images decoded through one Memo (by DecodeFrame and
// by validations given the memo): each is one full decode of a PNG or of
// an animated WebP (all its frames). A per-memo count, unlike a
// process-wide one, is not disturbed by tests running in parallel.
type Decodes struct{ PNG, WebP int64 }

// ErrFrameNotDecoded is returned (wrapped) by DecodeFrame for a frame the
// media gate would not decode either: its header is invalid, over the
// pixel budget, or not the size asked for. The validator names the
// problem; the caller only leaves the frame out of what it makes.
var ErrFrameNotDecoded = errors.New("frame not decoded")

// The hooks runtime/petpack installs in its init.
var (
	// New returns an empty memo.
	New func() Memo
	// Validate validates the .petpack archive of size bytes that r reads,
	// as petpack.Validate does, taking from m what it already knows of the
	// archive's images and recording what it decodes; the result is a
	// *petpack.Verdict.
	Validate func(m Memo, r io.ReaderAt, size int64) interface{}
	// VerifyArchive checks only what a writer must prove again of an
	// archive it wrote after validating its bytes: stage 1 and every
	// entry's declared size and CRC, read once, nothing decoded; the
	// result is a *petpack.Verdict.
	VerifyArchive func(r io.ReaderAt, size int64) interface{}
)
