package petpack

import (
	"testing"
)

// TestValidPackages: the creation defaults and the minimal timing pass
// however the archive is written, and so do the things section 3 permits.
func TestValidPackages(t *testing.T) {
	base := validPackage()
	cases := []struct {
		name    string
		archive []byte
	}{
		{"archive/zip with data descriptors", zipStd(t, base)},
		{"raw deflate", rawZip(base)},
		{"raw stored", buildZip(zspec{entries: entriesOf(base, true)})},
		{"raw with descriptors", buildZip(zspec{entries: func() []zent {
			es := entriesOf(base, false)
			for i := range es {
				es[i].descriptor = true
			}
			return es
		}()})},
		{"descriptors without signature", buildZip(zspec{entries: func() []zent {
			es := entriesOf(base, false)
			es[3].descriptor = true
			es[3].desc = func(d []byte) []byte { return d[4:] }
			return es
		}()})},
		{"minimal timing", rawZip(packageOf(minimalStates()))},
		{"the fuzz seeds' tiny frames", rawZip(packageDrawn(minimalStates(), tinyPNG))},
		{"unknown root data file", rawZip(base.with("LICENSE.txt", []byte("MIT\n")))},
		{"extension data", rawZip(base.with("extensions/com.example.tool/data/info.bin", []byte{1, 2, 3}))},
		{"explicit directories", rawZip(append(pkg{{"assets/", nil}, {"assets/frames/", nil}, {"assets/frames/idle/", nil}}, base...))},
		{"long extra fields", buildZip(zspec{entries: editEntry(base, "brief.json", func(e *zent) {
			x := append([]byte{0xfe, 0xca, 0x2c, 0x01}, make([]byte, 300)...) // tag 0xcafe, 300 bytes
			e.extra, e.localExtra = x, x
		})})},
		{"archive comment", buildZip(zspec{entries: entriesOf(base, false), comment: []byte("made by a test")})},
		{"unix modes", buildZip(zspec{entries: func() []zent {
			es := entriesOf(base, false)
			for i := range es {
				es[i].madeBy = creatorUnix<<8 | 20
				es[i].ext = 0x81a4 << 16
				if es[i].name[len(es[i].name)-1] == '/' {
					es[i].ext = 0x41ed<<16 | dosDirectory
				}
			}
			return es
		}()})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(tc.archive)
			if !v.OK() {
				t.Fatalf("rejected:\n%s", describeVerdict(v))
			}
			if v.Manifest == nil || v.Manifest.ID != "pet_test01" {
				t.Fatalf("manifest %+v", v.Manifest)
			}
		})
	}
}
