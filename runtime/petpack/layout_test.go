package petpack

import (
	"fmt"
	"testing"
)

// framesFor returns p with action a's frames replaced by n copies of data.
func framesFor(p pkg, a Action, n int, data func(i int) []byte) pkg {
	p = p.without(a.FramesDir() + "/")
	for i := 0; i < n; i++ {
		p = append(p, pkgFile{fmt.Sprintf("%s/%04d.png", a.FramesDir(), i), data(i)})
	}
	return p
}

// TestPackageRules: the rules that need a whole package, from the frame
// budgets of stage 2 to the layout and media of stage 4, each broken alone.
func TestPackageRules(t *testing.T) {
	base := validPackage()
	frame := func(i int) []byte { return testPNG(192, 208, i) }
	cases := []struct {
		name string
		p    pkg
		want []Rule
	}{
		{"41 idle frames", framesFor(base, ActionIdle, 41, frame), []Rule{RuleTooManyFramesInState}},
		{"41 frames in every state", func() pkg {
			p := base
			for _, a := range Actions() {
				p = framesFor(p, a, 41, frame)
			}
			return p
		}(), []Rule{RuleTooManyFramesInState, RuleTooManyFrames}},
		{"a GIF frame", base.with("assets/frames/idle/0003.png", []byte("GIF89a\x01\x00\x01\x00")), []Rule{RulePNGHeaderInvalid}},
		{"a truncated PNG", base.with("assets/frames/tool/0001.png", testPNG(192, 208, 1)[:20]), []Rule{RulePNGHeaderInvalid}},
		{"IHDR CRC", base.with("assets/frames/tool/0001.png", func() []byte {
			b := append([]byte(nil), testPNG(192, 208, 1)...)
			b[20]++
			return b
		}()), []Rule{RulePNGHeaderInvalid}},
		{"a 20000x20000 frame", base.with("assets/frames/idle/0000.png", ihdrOnly(20000, 20000, 8)), []Rule{RuleImageTooManyPixels}},
		{"a 20000x20000 cover", base.with("assets/preview/cover.png", ihdrOnly(20000, 20000, 8)), []Rule{RuleImageTooManyPixels}},
		{"16-bit 4096x4096 idle", framesFor(base, ActionIdle, 6, func(int) []byte { return ihdrOnly(4096, 4096, 16) }), []Rule{RuleStateDecodedTooLarge}},
		// The same frames at 8 bits fit the state budget, so only their size
		// is wrong: the budget follows the colour model.
		{"8-bit 4096x4096 idle", framesFor(base, ActionIdle, 6, func(int) []byte { return ihdrOnly(4096, 4096, 8) }), []Rule{RuleFrameSizeMismatch}},
		{"no manifest", base.without("manifest.json"), []Rule{RuleManifestMissing}},
		{"manifest a directory", append(base.without("manifest.json"), pkgFile{"manifest.json/", nil}), []Rule{RuleManifestMissing}},
		{"V2 package", base.withManifest(func(m jmap) { m["schema_version"] = "apc.petpack.v2"; m["fps"] = 12 }).without("assets/frames/drag"), []Rule{RuleSchemaVersionLegacy}},
		{"no brief", base.without("brief.json"), []Rule{RuleRequiredMissing}},
		{"no animated preview", base.without("assets/preview/animated_preview.webp"), []Rule{RuleRequiredMissing}},
		{"no references directory", base.without("source/references/"), []Rule{RuleRequiredMissing}},
		{"no idle frames", base.without("assets/frames/idle/"), []Rule{RuleRequiredMissing}},
		{"brief a directory", append(base.without("brief.json"), pkgFile{"brief.json/x", []byte("x")}), []Rule{RuleRequiredWrongType}},
		{"references a file", append(base.without("source/references/"), pkgFile{"source/references", []byte("x")}), []Rule{RuleRequiredWrongType}},
		{"pet.json", base.with("pet.json", []byte("{}")), []Rule{RuleCompatibilityName}},
		{"codex-pet.json", base.with("codex-pet.json", []byte("{}")), []Rule{RuleCompatibilityName}},
		{"codex_pet.json", base.with("codex_pet.json", []byte("{}")), []Rule{RuleCompatibilityName}},
		{"hooks", base.with("hooks/post-install.sh", []byte("rm -rf ~")), []Rule{RuleCompatibilityName}},
		{"Skills", base.with("Skills/x.md", []byte("x")), []Rule{RuleCompatibilityName}},
		{".codex-plugin", base.with(".codex-plugin/plugin.json", []byte("{}")), []Rule{RuleCompatibilityName}},
		{"unknown root directory", base.with("data/x.bin", []byte("x")), []Rule{RuleUnexpectedEntry}},
		{"unknown file in assets", base.with("assets/readme.txt", []byte("x")), []Rule{RuleUnexpectedEntry}},
		{"unknown file in preview", base.with("assets/preview/cover@2x.png", testPNG(8, 8, 0)), []Rule{RuleUnexpectedEntry}},
		{"unknown file in build", base.with("build/log.txt", []byte("x")), []Rule{RuleUnexpectedEntry}},
		{"removed start frames", base.with("assets/frames/start/0000.png", testPNG(192, 208, 0)), []Rule{RuleUnexpectedEntry}},
		{"extensions a file", base.with("extensions", []byte("x")), []Rule{RuleExtensionNameInvalid}},
		{"file directly in extensions", base.with("extensions/README", []byte("x")), []Rule{RuleExtensionNameInvalid}},
		{"extension without a dot", base.with("extensions/example/x", []byte("x")), []Rule{RuleExtensionNameInvalid}},
		{"extension in upper case", base.with("extensions/Com.Example/x", []byte("x")), []Rule{RuleExtensionNameInvalid}},
		{"extension label with a leading hyphen", base.with("extensions/com.-x/x", []byte("x")), []Rule{RuleExtensionNameInvalid}},
		{"nested frames", base.with("assets/frames/idle/alt/0000.png", testPNG(192, 208, 0)), []Rule{RuleStateDirectoryNotFlat}},
		{"five idle frames for six durations", base.without("assets/frames/idle/0005.png"), []Rule{RuleFrameCountMismatch}},
		{"upper-case suffix counts as a frame", base.with("assets/frames/idle/0006.PNG", testPNG(192, 208, 9)), []Rule{RuleFrameCountMismatch}},
		{"a standard frame in a low package", base.with("assets/frames/done/0002.png", testPNG(384, 416, 2)), []Rule{RuleFrameSizeMismatch}},
		{"a manifest fault in a package", base.withManifest(func(m jmap) { m["quality"] = "ultra" }), []Rule{RuleQualityUnknown}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectRules(t, validateBytes(rawZip(tc.p)), tc.want...)
		})
	}
	t.Run("ignored file in a state directory", func(t *testing.T) {
		expectWarning(t, validateBytes(rawZip(base.with("assets/frames/idle/notes.txt", []byte("x")))), RuleFrameDirIgnoredFile)
	})
	t.Run("timing warning in a package", func(t *testing.T) {
		p := packageOf(minimalStates())
		v := validateBytes(rawZip(p))
		expectWarning(t, v, RuleFrameCountUnusual)
	})
}

// TestFindingOrder: faults of several stages are all reported, stage by
// stage in the order of section 8, whatever order the entries come in. The
// media gate needs a valid manifest, so the missing frame is found once
// the style is fixed.
func TestFindingOrder(t *testing.T) {
	p := validPackage().
		with("hooks/x", []byte("x")).                     // stage 4, layout
		withManifest(func(m jmap) { m["style"] = " " }).  // stage 4, manifest
		without("assets/frames/idle/0005.png").           // stage 4, media
		with("assets/frames/idle/notes.txt", []byte("x")) // stage 4 warning
	p = append(pkg{{"a\\b", []byte("x")}}, p...) // stage 2, path
	v := validateBytes(rawZip(p))
	var got []Rule
	for _, f := range v.Errors {
		got = append(got, f.Rule)
	}
	want := []Rule{RulePathBackslash, RuleStyleBlank, RuleCompatibilityName}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("errors %v, want %v", got, want)
	}
	if len(v.Warnings) != 1 || v.Warnings[0].Rule != RuleFrameDirIgnoredFile {
		t.Fatalf("warnings %v", v.Warnings)
	}
	if v.Manifest != nil {
		t.Fatal("a manifest with an error is returned")
	}
	if err := v.Err(); err == nil || err.Error() != `a\b: path_backslash: the name holds a backslash; the separator is / (and 2 more)` {
		t.Fatalf("Err() = %v", err)
	}
	p = p.withManifest(func(m jmap) { m["style"] = "flat pixel art" })
	v = validateBytes(rawZip(p))
	got = nil
	for _, f := range v.Errors {
		got = append(got, f.Rule)
	}
	want = []Rule{RulePathBackslash, RuleCompatibilityName, RuleFrameCountMismatch}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("errors %v, want %v", got, want)
	}
}
