package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/tools/internal/atomicfile"
)

// readManifest reads and parses FILE; a rejection is already in the
// `FILE:LINE: RULE: message` form.
func readManifest(path string) (*manifest.Manifest, error) {
	m, err := manifest.ReadFile(path)
	if err != nil {
		return nil, rejected{err.Error()}
	}
	return m, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// RuleImageNotDeclared is reported by `manifest check --declared` when the
// manifest names an image the build rule was not given, which would fail
// later, inside a sandbox, with a far less helpful message.
const RuleImageNotDeclared = "image_not_declared"

func manifestCheck(args []string, stdout io.Writer) error {
	fs := newFlags("manifest check")
	stamp := fs.String("stamp", "", "on success, write the summary to `FILE`")
	var declared stringList
	fs.Var(&declared, "declared", "an image `PATH` (manifest-relative) the build provides; repeatable")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	path, err := oneArg(fs.Args(), "FILE")
	if err != nil {
		return err
	}
	m, err := readManifest(path)
	if err != nil {
		return err
	}
	if len(declared) > 0 {
		have := map[string]bool{}
		for _, d := range declared {
			have[d] = true
		}
		for _, im := range m.Images {
			if !have[im.Path] {
				return rejected{fmt.Sprintf("%s: %s: image %s names %s, which is not among the rule's images", path, RuleImageNotDeclared, im.ID, im.Path)}
			}
		}
	}
	summary := fmt.Sprintf("%s: ok: %d images, %d animations, %d frames, %d roles, fallback %s\n",
		path, len(m.Images), len(m.Animations), len(m.Frames), len(m.Roles), m.Roles[m.Fallback].ID)
	if *stamp != "" {
		return atomicfile.Write(*stamp, []byte(summary), 0o644)
	}
	fmt.Fprint(stdout, summary)
	return nil
}

// jsonManifest is the machine-readable view of a manifest: references by
// identifier, plus the frame pool indices the pack's tables use.
type jsonManifest struct {
	Images     []jsonImage     `json:"images"`
	Animations []jsonAnimation `json:"animations"`
	Roles      []jsonRole      `json:"roles"`
	Fallback   string          `json:"fallback"`
}

type jsonImage struct {
	ID   string `json:"id"`
	Path string `json:"path,omitempty"`
}

type jsonAnimation struct {
	ID         string      `json:"id"`
	FirstFrame int         `json:"first_frame"`
	Frames     []jsonFrame `json:"frames"`
}

type jsonFrame struct {
	Image      string `json:"image"`
	DurationMS uint32 `json:"duration_ms"`
}

type jsonRole struct {
	ID        string `json:"id"`
	Animation string `json:"animation"`
}

func toJSON(m *manifest.Manifest) jsonManifest {
	j := jsonManifest{Fallback: m.Roles[m.Fallback].ID}
	for _, im := range m.Images {
		j.Images = append(j.Images, jsonImage{im.ID, im.Path})
	}
	for i, a := range m.Animations {
		ja := jsonAnimation{ID: a.ID, FirstFrame: a.FirstFrame}
		for _, f := range m.AnimationFrames(i) {
			ja.Frames = append(ja.Frames, jsonFrame{m.Images[f.Image].ID, f.DurationMS})
		}
		j.Animations = append(j.Animations, ja)
	}
	for _, r := range m.Roles {
		j.Roles = append(j.Roles, jsonRole{r.ID, m.Animations[r.Animation].ID})
	}
	return j
}

func writeJSON(w io.Writer, v interface{}) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func manifestDump(args []string, stdout io.Writer) error {
	path, err := oneArg(args, "FILE")
	if err != nil {
		return err
	}
	m, err := readManifest(path)
	if err != nil {
		return err
	}
	return writeJSON(stdout, toJSON(m))
}
