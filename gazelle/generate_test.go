package gazelle

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

const goodManifest = `manifest pet 1

[images]
sprite_idle   sprites/idle.png
sprite_happy  sprites/happy.png

[animations]
anim_idle   sprite_idle 900
anim_happy  sprite_happy 300 sprite_idle 300

[roles]
activity_idle     anim_idle
expression_happy  anim_happy
fallback_default  anim_idle

[fallback]
fallback_default
`

// petpackFiles is a .petpack source tree (file contents do not matter to
// the generator) with the spec in petpack.spec.
func petpackFiles(spec string) map[string]string {
	files := map[string]string{
		"frames/idle/0000.png": "png",
		"frames/done/0000.png": "png",
		"source/prompt.md":     "A fox.\n",
	}
	if spec != "" {
		files["petpack.spec"] = spec
	}
	return files
}

const fullSpec = `# the fox
display_name = Fox
style = flat pixel art
quality = low
created_at = 2025-01-01T00:00:00Z
description = A small red fox.
`

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// generate lays out files in a temporary repository, configures the root
// with rootBuild and the package rel with build, and returns the generated
// rules formatted as a BUILD file and the warnings.
func generate(t *testing.T, rel, rootBuild, build string, files map[string]string) (string, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, filepath.FromSlash(rel))
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var warnings bytes.Buffer
	log.SetOutput(&warnings)
	log.SetFlags(0)
	defer log.SetOutput(os.Stderr)

	lang := NewLanguage()
	c := config.New()
	c.RepoRoot = root
	rf, err := rule.LoadData(filepath.Join(root, "BUILD.bazel"), "", []byte(rootBuild))
	if err != nil {
		t.Fatal(err)
	}
	lang.Configure(c, "", rf)
	var f *rule.File
	if rel != "" {
		if f, err = rule.LoadData(rel+"/BUILD.bazel", rel, []byte(build)); err != nil {
			t.Fatal(err)
		}
		lang.Configure(c, rel, f)
	} else if build != "" {
		f = rf
	}
	args := language.GenerateArgs{Config: c, Dir: dir, Rel: rel, File: f}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			args.Subdirs = append(args.Subdirs, e.Name())
		} else {
			args.RegularFiles = append(args.RegularFiles, e.Name())
		}
	}
	res := lang.GenerateRules(args)
	if len(res.Imports) != len(res.Gen) {
		t.Errorf("GenerateRules returned %d imports for %d rules", len(res.Imports), len(res.Gen))
	}
	out := rule.EmptyFile("BUILD.bazel", rel)
	for _, r := range res.Gen {
		r.Insert(out)
	}
	return strings.TrimSpace(string(out.Format())), strings.TrimSpace(warnings.String())
}

func TestGenerateRules(t *testing.T) {
	for _, tc := range []struct {
		name, rel, rootBuild, build string
		files                       map[string]string
		want, wantWarning           string
	}{{
		name:  "asset set with the manifest's images sorted",
		rel:   "pets/fox",
		files: map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png", "sprites/unused.png": "png"},
		want: `pet_asset_set(
    name = "fox",
    images = [
        "sprites/happy.png",
        "sprites/idle.png",
    ],
)`,
	}, {
		name:      "naming prefix and Go embedding",
		rel:       "pets/fox",
		rootBuild: "# gazelle:prefix example.com/zoo\n# gazelle:pet_naming_prefix zoo_\n# gazelle:pet_embed cc,go\n",
		files:     map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png"},
		want: `pet_asset_set(
    name = "zoo_fox",
    go_importpath = "example.com/zoo/pets/fox/zoo_fox",
    images = [
        "sprites/happy.png",
        "sprites/idle.png",
    ],
)`,
	}, {
		name:        "Go embedding without a prefix",
		rel:         "fox",
		rootBuild:   "# gazelle:pet_embed go\n",
		files:       map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png"},
		wantWarning: "pet: fox/manifest.petasset: # gazelle:pet_embed go needs a # gazelle:prefix above fox for the Go import path; no pet_asset_set generated for it",
	}, {
		name:        "malformed manifest",
		rel:         "fox",
		files:       map[string]string{"manifest.petasset": strings.Replace(goodManifest, "anim_idle   sprite_idle 900", "anim_idle   sprite_nope 900", 1), "sprites/idle.png": "png", "sprites/happy.png": "png"},
		wantWarning: "pet: fox/manifest.petasset:8: unresolved_image: ",
	}, {
		name:        "manifest naming a missing sprite",
		rel:         "fox",
		files:       map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png"},
		wantWarning: "pet: fox/manifest.petasset: image sprite_happy names sprites/happy.png, which is not a file of fox; no pet_asset_set generated for it",
	}, {
		name:  "disabled",
		rel:   "fox",
		build: "# gazelle:pet disable\n",
		files: map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png"},
	}, {
		name:  "under testdata",
		rel:   "x/testdata/fox",
		files: map[string]string{"manifest.petasset": "broken"},
	}, {
		name:  "hand-written individual rules are left alone",
		rel:   "fox",
		build: "pet_manifest(name = \"manifest\", manifest = \"manifest.petasset\")\n",
		files: map[string]string{"manifest.petasset": "broken"},
	}, {
		name:  "existing set keeps its name",
		rel:   "fox",
		build: "pet_asset_set(name = \"vixen\", golden = \"g.pack\")\n",
		files: map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png"},
		want: `pet_asset_set(
    name = "vixen",
    images = [
        "sprites/happy.png",
        "sprites/idle.png",
    ],
)`,
	}, {
		name:  "petpack from its spec file",
		rel:   "pets/fox",
		files: petpackFiles(fullSpec),
		want: `petpack_set(
    name = "pet_fox",
    created_at = "2025-01-01T00:00:00Z",
    description = "A small red fox.",
    display_name = "Fox",
    pet_id = "pet_fox",
    prompt = "source/prompt.md",
    quality = "low",
    style = "flat pixel art",
)`,
	}, {
		name:      "petpack from directives, the spec winning",
		rel:       "fox",
		rootBuild: "# gazelle:pet_style ink\n# gazelle:pet_quality high\n# gazelle:pet_created_at 2024-02-02T00:00:00Z\n# gazelle:pet_display_name Nobody\n",
		files:     petpackFiles("display_name = Fox\npet_id = pet_vixen\n"),
		want: `petpack_set(
    name = "pet_vixen",
    created_at = "2024-02-02T00:00:00Z",
    display_name = "Fox",
    pet_id = "pet_vixen",
    prompt = "source/prompt.md",
    quality = "high",
    style = "ink",
)`,
	}, {
		name:  "petpack strings from the hand-written rule",
		rel:   "fox",
		build: "petpack_set(name = \"tabby\", pet_id = \"pet_tabby\", quality = \"low\", style = \"s\", display_name = \"T\", created_at = \"c\", prompt = \"source/prompt.md\")\n",
		files: petpackFiles(""),
		want: `petpack_set(
    name = "tabby",
    created_at = "c",
    display_name = "T",
    pet_id = "pet_tabby",
    prompt = "source/prompt.md",
    quality = "low",
    style = "s",
)`,
	}, {
		name:        "petpack without its strings",
		rel:         "fox",
		files:       petpackFiles("display_name = Fox\n"),
		wantWarning: "pet: fox: no style for the .petpack: add `style = ...` to fox/petpack.spec or a # gazelle:pet_style directive; no petpack_set generated for it",
	}, {
		name:        "petpack with a bad quality",
		rel:         "fox",
		files:       petpackFiles(strings.Replace(fullSpec, "quality = low", "quality = ultra", 1)),
		wantWarning: `pet: fox: quality "ultra": want low, standard or high; no petpack_set generated for it`,
	}, {
		name:        "petpack spec with an unknown key",
		rel:         "fox",
		files:       petpackFiles(fullSpec + "colour = red\n"),
		wantWarning: `pet: fox/petpack.spec:7: unknown key "colour"`,
	}, {
		name:        "petpack without a prompt",
		rel:         "fox",
		files:       map[string]string{"frames/idle/0000.png": "png", "petpack.spec": fullSpec},
		wantWarning: "pet: fox: a .petpack source tree (frames/idle/) needs a prompt: source/prompt.md or prompt.md; no petpack_set generated for it",
	}, {
		name:        "petpack with a folder that is no action",
		rel:         "fox",
		files:       merge(petpackFiles(fullSpec), map[string]string{"frames/jump/0000.png": "png"}),
		wantWarning: "pet: fox: frames/ holds jump, which is no action",
	}, {
		name:  "frames without action folders are not a pet",
		rel:   "fox",
		files: map[string]string{"frames/0000.png": "png"},
	}, {
		name:  "both kinds in one package",
		rel:   "pets/pet_fox",
		files: merge(petpackFiles(fullSpec), map[string]string{"manifest.petasset": goodManifest, "sprites/idle.png": "png", "sprites/happy.png": "png"}),
		want: `pet_asset_set(
    name = "pet_fox_assets",
    images = [
        "sprites/happy.png",
        "sprites/idle.png",
    ],
)

petpack_set(
    name = "pet_fox",
    created_at = "2025-01-01T00:00:00Z",
    description = "A small red fox.",
    display_name = "Fox",
    pet_id = "pet_fox",
    prompt = "source/prompt.md",
    quality = "low",
    style = "flat pixel art",
)`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings := generate(t, tc.rel, tc.rootBuild, tc.build, tc.files)
			if got != tc.want {
				t.Errorf("generated:\n%s\nwant:\n%s", got, tc.want)
			}
			if tc.wantWarning == "" && warnings != "" || !strings.HasPrefix(warnings, tc.wantWarning) {
				t.Errorf("warnings:\n%s\nwant a line starting with:\n%s", warnings, tc.wantWarning)
			}
		})
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		name, in, wantErr string
		want              map[string]string
	}{
		{name: "keys, comments and blank lines", in: "# c\n\npet_id = pet_a\n  style=ink  \n", want: map[string]string{"pet_id": "pet_a", "style": "ink"}},
		{name: "value with an equals sign", in: "description = a = b\n", want: map[string]string{"description": "a = b"}},
		{name: "no equals sign", in: "\nstyle ink\n", wantErr: "p.spec:2: \"style ink\" is not `key = value`"},
		{name: "unknown key", in: "colour = red\n", wantErr: "p.spec:1: unknown key \"colour\""},
		{name: "twice", in: "style = a\nstyle = b\n", wantErr: "p.spec:2: style given twice"},
		{name: "empty value", in: "style =\n", wantErr: "p.spec:1: style has no value"},
		{name: "too large", in: strings.Repeat("#", maxSpecBytes+1), wantErr: "p.spec:0: larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSpec("p.spec", []byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("parseSpec error %v, want %q", err, tc.wantErr)
				}
				if got != nil {
					t.Errorf("parseSpec returned %v with its error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("parseSpec = %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("parseSpec[%s] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestParseEmbed(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantGo  bool
		wantErr bool
	}{
		{"", false, false}, {"cc", false, false}, {"go", true, false}, {"cc, go", true, false}, {"java", false, true},
	} {
		gotGo, err := parseEmbed(tc.in)
		if gotGo != tc.wantGo || (err != nil) != tc.wantErr {
			t.Errorf("parseEmbed(%q) = %v, %v; want %v, error %v", tc.in, gotGo, err, tc.wantGo, tc.wantErr)
		}
	}
}
