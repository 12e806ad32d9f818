package petpack

import (
	"testing"

	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
)

// TestValidPackages: the creation defaults pass however the archive is
// written, and so do the minimal timing and the things section 3 permits.
func TestValidPackages(t *testing.T) {
	base := validPackage()
	// Every shape of archive the ZIP reader accepts (archive/zip's, stored,
	// data descriptors, long extra fields, a comment, Unix modes, Zip64),
	// then what section 3 permits.
	cases := append(ziptest.Accepted(zipBase()),
		ziptest.Case{Name: "minimal timing", Archive: rawZip(packageOf(minimalStates()))},
		ziptest.Case{Name: "the fuzz seeds' tiny frames", Archive: rawZip(packageDrawn(minimalStates(), tinyPNG))},
		ziptest.Case{Name: "unknown root data file", Archive: rawZip(base.with("LICENSE.txt", []byte("MIT\n")))},
		ziptest.Case{Name: "extension data", Archive: rawZip(base.with("extensions/com.example.tool/data/info.bin", []byte{1, 2, 3}))},
		ziptest.Case{Name: "explicit directories", Archive: rawZip(append(pkg{{"assets/", nil}, {"assets/frames/", nil}, {"assets/frames/idle/", nil}}, base...))},
	)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			v := validateBytes(tc.Archive)
			if !v.OK() {
				t.Fatalf("rejected:\n%s", describeVerdict(v))
			}
			if v.Manifest == nil || v.Manifest.ID != "pet_test01" {
				t.Fatalf("manifest %+v", v.Manifest)
			}
		})
	}
}
