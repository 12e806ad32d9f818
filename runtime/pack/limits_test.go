package pack_test

import (
	"testing"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/runtime/manifest"
)

// TestIdentifierLimit holds the pack layout's identifier limit to the
// manifest grammar's: assetpackformat restates it so that internal/ imports
// nothing from runtime/, and a pack field must hold every identifier the
// grammar accepts and nothing longer.
func TestIdentifierLimit(t *testing.T) {
	if assetpackformat.MaxIdentifierBytes != manifest.MaxIdentifierBytes {
		t.Fatalf("assetpackformat.MaxIdentifierBytes = %d, manifest.MaxIdentifierBytes = %d: change both together",
			assetpackformat.MaxIdentifierBytes, manifest.MaxIdentifierBytes)
	}
	if assetpackformat.IdentifierLength != manifest.MaxIdentifierBytes+1 {
		t.Fatalf("assetpackformat.IdentifierLength = %d, want manifest.MaxIdentifierBytes+1 = %d",
			assetpackformat.IdentifierLength, manifest.MaxIdentifierBytes+1)
	}
}
