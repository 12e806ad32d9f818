// Package petpackzip opens a .petpack archive's container: internal/strictzip
// under the budgets that must hold before the reader spends anything on what
// the archive declares. The validator's stage 1 (runtime/petpack), the
// library's import of a staged copy (runtime/library) and the archive diff
// (tools/petpackbuild, which must read archives the validator rejects) all
// open through it, so the three read one container with one set of limits.
package petpackzip

import (
	"io"

	"github.com/agentpet/rules_pet/internal/strictzip"
)

// The container budgets. runtime/petpack re-declares them as its public
// MaxArchiveBytes, MaxEntries and MaxPathBytes.
const (
	// MaxArchiveBytes bounds the archive file (contract section 11).
	MaxArchiveBytes = 1 << 30
	// MaxEntries bounds the archive's entries (contract section 11).
	MaxEntries = 5000
	// MaxPathBytes bounds one entry name, a bound section 11 does not
	// name: 5000 names of 65535 bytes would be 320 MiB of names before any
	// rule could reject them, so no name is held past the length
	// entry_path_too_long rejects.
	MaxPathBytes = 1024
)

// Limits are the budgets Open applies.
var Limits = strictzip.Limits{
	MaxArchiveBytes: MaxArchiveBytes,
	MaxEntries:      MaxEntries,
	MaxNameBytes:    MaxPathBytes,
}

// Open reads the container of the size-byte archive r under Limits. Its
// errors are internal/strictzip's: a *strictzip.Error lists every problem
// with its reason.
func Open(r io.ReaderAt, size int64) (*strictzip.Archive, error) {
	return strictzip.Open(r, size, Limits)
}
