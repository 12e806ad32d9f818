package petpack

import "github.com/agentpet/rules_pet/internal/petpackzip"

// The security budgets of contract section 11. They are checked before the
// bytes they bound are inflated or decoded: archive size and entry count
// from the end-of-central-directory record, entry and total sizes from the
// central directory (and again against the bytes actually inflated), frame
// counts from the layout, pixels from each PNG's IHDR chunk.
const (
	// MaxArchiveBytes bounds the archive file.
	MaxArchiveBytes = petpackzip.MaxArchiveBytes
	// MaxEntries bounds the archive's entries (a directory's files and
	// subdirectories).
	MaxEntries = petpackzip.MaxEntries
	// MaxEntryBytes bounds one entry's expanded size.
	MaxEntryBytes = 256 << 20
	// MaxExpandedBytes bounds the sum of every entry's expanded size.
	MaxExpandedBytes = 4 << 30
	// MaxFramesPerState bounds the frames of one action.
	MaxFramesPerState = 40
	// MaxFramesPerPackage bounds the frames of all nine actions.
	MaxFramesPerPackage = 360
	// MaxImagePixels bounds the pixels of one decoded image.
	MaxImagePixels = 16777216
	// MaxStateDecodedBytes bounds the decoded RGBA of one action's frames,
	// at 8 bytes a pixel for 16-bit PNGs and 4 otherwise.
	MaxStateDecodedBytes = 420 << 20
	// MaxPreviewFrames bounds the frames of animated_preview.webp (checked
	// by the media gate, which decodes the preview).
	MaxPreviewFrames = 120
	// MaxPreviewDecodedBytes bounds the decoded RGBA of all preview frames.
	MaxPreviewDecodedBytes = 128 << 20
)

// Bounds this package adds where section 11 names none but a hostile
// package could otherwise make the validator hold unbounded data.
const (
	// MaxPathBytes bounds one entry name: 5000 names of 65535 bytes would
	// be 320 MiB of names before any rule could reject them.
	MaxPathBytes = petpackzip.MaxPathBytes
	// MaxManifestBytes bounds manifest.json, which is decoded into memory;
	// a largest legal manifest (nine states of 40 durations) is about 4 KiB.
	MaxManifestBytes = 1 << 20
)
