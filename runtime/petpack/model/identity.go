package model

import "strings"

// The archive's identity on a desktop (contract section 2). The player's
// server, the shared-mime-info package and the macOS type declaration
// (//dev/petpackmime) all take them from here.
const (
	// MediaType is the archive's MIME type.
	MediaType = "application/vnd.agentpet.petpack+zip"
	// UTI is its Uniform Type Identifier, which conforms to UTIConformsTo.
	UTI = "dev.agentpet.petpack"
	// UTIConformsTo is the type UTI conforms to.
	UTIConformsTo = "public.data"
	// Extension is the file name extension, matched case-insensitively.
	Extension = ".petpack"
)

// HasExtension reports whether name ends in Extension in any case, as
// section 2 checks it.
func HasExtension(name string) bool {
	return len(name) >= len(Extension) && strings.EqualFold(name[len(name)-len(Extension):], Extension)
}
