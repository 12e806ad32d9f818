package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	canonicalDir    = "../../../assets/pet"
	canonicalGolden = "../../../tests/golden/pet.pack"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// copyCanonical copies the canonical asset set to a temporary directory
// that a test may break.
func copyCanonical(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.Walk(canonicalDir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || strings.HasSuffix(p, ".bazel") {
			return err
		}
		rel, _ := filepath.Rel(canonicalDir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCLI(t *testing.T) {
	good := copyCanonical(t)
	gm := filepath.Join(good, "manifest.petasset")
	bad := t.TempDir()
	bm := write(t, filepath.Join(bad, "manifest.petasset"), "manifest pet 1\n[images]\nimg sprites/a.png\n[animations]\nanim img 0\n")
	noSprite := copyCanonical(t)
	if err := os.Remove(filepath.Join(noSprite, "sprites", "curious.png")); err != nil {
		t.Fatal(err)
	}
	built := filepath.Join(t.TempDir(), "pet.pack")
	// A role-less animation leaves sprite_happy (line 10) shown by no role.
	unused := copyCanonical(t)
	um := filepath.Join(unused, "manifest.petasset")
	text, err := os.ReadFile(um)
	if err != nil {
		t.Fatal(err)
	}
	write(t, um, strings.Replace(string(text), "expression_happy    anim_happy\n", "", 1))
	wantWarnings := um + ":10: image_unused: image sprite_happy (sprites/happy.png) is shown by no role\n" +
		um + ": image_unused: sprites/extra.png is among the rule's images but the manifest names it nowhere\n"
	broken := write(t, filepath.Join(t.TempDir(), "broken.pack"), "PETQ"+strings.Repeat("\x00", 40))
	out := t.TempDir()
	// Outputs of an earlier run, which a rejection must remove.
	staleCopy := write(t, filepath.Join(out, "stale.petasset"), "old copy")
	stalePack := write(t, filepath.Join(out, "stale.pack"), "old pack")
	staleWarnings := write(t, filepath.Join(out, "stale.warnings"), "")

	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string // prefix
		stderr string // prefix
	}{
		{"no args", nil, exitUsage, "", "usage:"},
		{"help", []string{"--help"}, exitOK, "usage:", ""},
		{"unknown", []string{"manifest", "frobnicate", gm}, exitUsage, "", "petasset: unknown command"},
		{"manifest check ok", []string{"manifest", "check", gm}, exitOK, gm + ": ok: 5 images, 5 animations, 6 frames, 6 roles, fallback fallback_default\n", ""},
		{"manifest check bad", []string{"manifest", "check", bm}, exitRejected, "", bm + ":5: duration_out_of_range: "},
		{"manifest check missing", []string{"manifest", "check", filepath.Join(bad, "nope.petasset")}, exitRejected, "", filepath.Join(bad, "nope.petasset") + ": manifest_unreadable: "},
		{"manifest check two files", []string{"manifest", "check", gm, gm}, exitUsage, "", "petasset manifest check: want exactly one FILE"},
		{"manifest check declared ok", []string{"manifest", "check", "--declared", "sprites/fallback.png", "--declared", "sprites/idle.png", "--declared", "sprites/curious.png", "--declared", "sprites/attentive.png", "--declared", "sprites/happy.png", gm}, exitOK, gm + ": ok", ""},
		{"manifest check undeclared", []string{"manifest", "check", "--declared", "sprites/idle.png", gm}, exitRejected, "", gm + ":6: image_not_declared: image sprite_fallback names sprites/fallback.png"},
		{"manifest check copy", []string{"manifest", "check", "--copy", filepath.Join(out, "copy.petasset"), gm}, exitOK, "", ""},
		{"manifest check copy bad", []string{"manifest", "check", "--copy", staleCopy, bm}, exitRejected, "", bm + ":5: duration_out_of_range: "},
		{"manifest check copy undeclared", []string{"manifest", "check", "--copy", staleCopy, "--declared", "sprites/idle.png", gm}, exitRejected, "", gm + ":6: image_not_declared: "},
		{"manifest check stamp", []string{"manifest", "check", "--stamp", filepath.Join(out, "stamp"), gm}, exitOK, "", ""},
		{"manifest check bad flag", []string{"manifest", "check", "--nope", gm}, exitUsage, "", "petasset manifest check: flag provided but not defined"},
		{"manifest dump", []string{"manifest", "dump", gm}, exitOK, "{\n  \"images\": [", ""},
		{"assets check ok", []string{"assets", "check", good}, exitOK, good + ": ok: 5 images reachable", ""},
		{"assets check missing sprite", []string{"assets", "check", noSprite}, exitRejected, "", filepath.Join(noSprite, "sprites", "curious.png") + ": image_missing: "},
		{"assets check bad manifest", []string{"assets", "check", bad}, exitRejected, "", bm + ":5: duration_out_of_range: "},
		{"pack build", []string{"pack", "build", "--manifest", gm, "--out", built}, exitOK, "", ""},
		{"pack build bad manifest", []string{"pack", "build", "--manifest", bm, "--out", filepath.Join(out, "bad.pack")}, exitRejected, "", bm + ":5: duration_out_of_range: "},
		{"pack build missing sprite", []string{"pack", "build", "--manifest", filepath.Join(noSprite, "manifest.petasset"), "--out", filepath.Join(out, "nosprite.pack")}, exitRejected, "", filepath.Join(noSprite, "manifest.petasset") + ": image sprite_curious (sprites/curious.png): "},
		{"pack build undeclared", []string{"pack", "build", "--manifest", gm, "--declared", "sprites/idle.png", "--out", stalePack, "--warnings", staleWarnings}, exitRejected, "", gm + ":6: image_not_declared: image sprite_fallback names sprites/fallback.png"},
		{"pack build no warnings", []string{"pack", "build", "--manifest", gm, "--declared", "sprites/fallback.png", "--declared", "sprites/idle.png", "--declared", "sprites/curious.png", "--declared", "sprites/attentive.png", "--declared", "sprites/happy.png", "--out", filepath.Join(out, "w0.pack"), "--warnings", filepath.Join(out, "w0.txt")}, exitOK, "", ""},
		{"pack build warnings", []string{"pack", "build", "--manifest", um, "--declared", "sprites/fallback.png", "--declared", "sprites/idle.png", "--declared", "sprites/curious.png", "--declared", "sprites/attentive.png", "--declared", "sprites/happy.png", "--declared", "sprites/extra.png", "--out", filepath.Join(out, "w1.pack"), "--warnings", filepath.Join(out, "w1.txt")}, exitOK, wantWarnings, ""},
		{"pack build no out", []string{"pack", "build", "--manifest", gm}, exitUsage, "", "petasset pack build: --out is required"},
		{"pack verify golden", []string{"pack", "verify", canonicalGolden}, exitOK, canonicalGolden + ": ok: 44232 bytes", ""},
		{"pack verify broken", []string{"pack", "verify", broken}, exitRejected, "", broken + ": bad_magic: "},
		{"pack inspect", []string{"pack", "inspect", canonicalGolden}, exitOK, canonicalGolden + "  44232 bytes", ""},
		{"pack inspect broken", []string{"pack", "inspect", broken}, exitRejected, "", broken + ": bad_magic"},
		{"pack diff same", []string{"pack", "diff", canonicalGolden, canonicalGolden}, exitOK, "", ""},
		{"pack diff differs", []string{"pack", "diff", broken, canonicalGolden}, exitRejected, "", broken + " differs from " + canonicalGolden + ": first difference in "},
		{"pack diff one arg", []string{"pack", "diff", broken}, exitUsage, "", "petasset pack diff: want GOT and WANT"},
		{"pack cc", []string{"pack", "cc", "--pack", canonicalGolden, "--symbol", "pet_pack", "--header", filepath.Join(out, "p.h"), "--source", filepath.Join(out, "p.c"), "--include", "p.h"}, exitOK, "", ""},
		{"pack cc bad symbol", []string{"pack", "cc", "--pack", canonicalGolden, "--symbol", "pet-pack", "--header", filepath.Join(out, "q.h"), "--source", filepath.Join(out, "q.c"), "--include", "q.h"}, exitUsage, "", "petasset pack cc: symbol"},
		{"pack cc broken pack", []string{"pack", "cc", "--pack", broken, "--symbol", "p", "--header", filepath.Join(out, "r.h"), "--source", filepath.Join(out, "r.c"), "--include", "r.h"}, exitRejected, "", broken + ": bad_magic"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			if code != tc.code || !strings.HasPrefix(stdout, tc.stdout) || !strings.HasPrefix(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d)\nstdout %q (want prefix %q)\nstderr %q (want prefix %q)", code, tc.code, stdout, tc.stdout, stderr, tc.stderr)
			}
			if tc.code == exitOK && tc.stdout == "" && stdout != "" {
				t.Errorf("printed %q on success", stdout)
			}
			if tc.code != exitOK && strings.Count(strings.TrimSpace(stderr), "\n") > 0 && tc.code != exitUsage {
				t.Errorf("rejection is more than one line: %q", stderr)
			}
		})
	}
	// Rejected builds leave no output.
	for _, name := range []string{"bad.pack", "nosprite.pack", "q.h", "q.c", "r.h", "r.c", "stale.petasset", "stale.pack", "stale.warnings"} {
		if _, err := os.Stat(filepath.Join(out, name)); !os.IsNotExist(err) {
			t.Errorf("%s exists after a rejection", name)
		}
	}
	golden, _ := os.ReadFile(canonicalGolden)
	if got, _ := os.ReadFile(built); !bytes.Equal(got, golden) {
		t.Errorf("pack build of the canonical set differs from %s", canonicalGolden)
	}
	if c, _ := os.ReadFile(filepath.Join(out, "copy.petasset")); !bytes.Equal(c, text) {
		t.Errorf("manifest check --copy wrote %d bytes, want the manifest's %d", len(c), len(text))
	}
	for name, want := range map[string]string{"w0.txt": "", "w1.txt": wantWarnings} {
		if got, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(got) != want {
			t.Errorf("warnings file %s = %q, %v; want %q", name, got, err, want)
		}
	}
	if stamp, _ := os.ReadFile(filepath.Join(out, "stamp")); !strings.HasPrefix(string(stamp), gm+": ok") {
		t.Errorf("stamp %q", stamp)
	}
}

func TestInspectJSON(t *testing.T) {
	code, stdout, stderr := runCLI("pack", "inspect", "--json", canonicalGolden)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Header struct {
			PackLength uint32 `json:"pack_length"`
		}
		Regions []struct {
			Name           string
			Offset, Length int
		}
		Manifest jsonManifest
		Entries  []jsonEntry
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Header.PackLength != 44232 || len(doc.Entries) != 5 || doc.Manifest.Fallback != "fallback_default" || len(doc.Regions) != 17 {
		t.Errorf("inspect --json: %+v", doc)
	}
	if a := doc.Manifest.Animations[4]; a.ID != "anim_happy" || len(a.Frames) != 2 || a.Frames[1] != (jsonFrame{"sprite_idle", 300}) {
		t.Errorf("anim_happy: %+v", a)
	}
}

func TestDumpMatchesPackInspect(t *testing.T) {
	// The manifest dumped from text and the one materialised from its pack
	// agree apart from paths.
	_, fromText, _ := runCLI("manifest", "dump", filepath.Join(canonicalDir, "manifest.petasset"))
	var m jsonManifest
	if err := json.Unmarshal([]byte(fromText), &m); err != nil {
		t.Fatal(err)
	}
	for i := range m.Images {
		m.Images[i].Path = ""
	}
	_, inspected, _ := runCLI("pack", "inspect", "--json", canonicalGolden)
	var doc struct{ Manifest jsonManifest }
	if err := json.Unmarshal([]byte(inspected), &doc); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(doc.Manifest)
	if !bytes.Equal(a, b) {
		t.Errorf("text:\n%s\npack:\n%s", a, b)
	}
}

func TestPetpackVerify(t *testing.T) {
	dir := t.TempDir()
	notZip := write(t, filepath.Join(dir, "pet.petpack"), "this is not a zip archive")
	emptyDir := filepath.Join(dir, "pkg")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"not a zip", []string{"petpack", "verify", notZip}, notZip + ": zip_end_missing: "},
		{"empty directory", []string{"petpack", "verify", emptyDir}, emptyDir + ": manifest.json: "},
		{"missing", []string{"petpack", "verify", filepath.Join(dir, "nope")}, filepath.Join(dir, "nope") + ": package_unreadable: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(tc.args...)
			if code != exitRejected || !strings.HasPrefix(stderr, tc.stderr) {
				t.Fatalf("exit %d, stderr %q, want 1 and prefix %q", code, stderr, tc.stderr)
			}
		})
	}
	code, stdout, _ := runCLI("petpack", "verify", "--json", notZip)
	var doc struct {
		OK     bool
		Errors []struct{ Rule string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != exitRejected || doc.OK || len(doc.Errors) == 0 || doc.Errors[0].Rule != "zip_end_missing" {
		t.Errorf("--json: exit %d, %q (%v)", code, stdout, err)
	}
}

func TestPetpackBuildUsage(t *testing.T) {
	dir := t.TempDir()
	badSpec := write(t, filepath.Join(t.TempDir(), "bad.json"), `{"colour":"red"}`)
	spec := write(t, filepath.Join(t.TempDir(), "spec.json"), `{"id":"pet_a","quality":"low","states":[]}`)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"petpack", "build"}, exitUsage, "petasset petpack build: want a package DIR"},
		{[]string{"petpack", "build", dir}, exitUsage, "petasset petpack build: --out is required"},
		{[]string{"petpack", "build", dir, "--out", filepath.Join(dir, "x.petpack")}, exitRejected, "output " + filepath.Join(dir, "x.petpack") + " is inside the package directory"},
		{[]string{"petpack", "build", dir, "--out", filepath.Join(t.TempDir(), "x.petpack")}, exitRejected, dir + ": manifest.json: "},
		{[]string{"petpack", "assemble", "--out", "x.petpack"}, exitUsage, "petasset petpack assemble: --spec is required"},
		{[]string{"petpack", "assemble", "--spec", badSpec, "--out", filepath.Join(dir, "x.petpack")}, exitRejected, badSpec + `: petpack spec: json: unknown field "colour"`},
		{[]string{"petpack", "assemble", "--spec", spec, "--out", filepath.Join(t.TempDir(), "x.petpack")}, exitRejected, "action idle: no frames"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != tc.code || !strings.HasPrefix(stderr, tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d, prefix %q", tc.args, code, stderr, tc.code, tc.stderr)
		}
	}
}
