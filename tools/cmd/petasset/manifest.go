package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/manifest"
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

// RuleImageNotDeclared: (`manifest check --declared`) the manifest names an
// image the build did not provide.
//
// Without it the build would fail later, inside a sandbox, with a far less
// helpful message.
const RuleImageNotDeclared = "image_not_declared"

// RuleImageUnused is the warning `pack build --warnings` gives for a
// declared sprite no role shows; `--//rules:strict` makes it an error.
const RuleImageUnused = "image_unused"

func manifestCheck(args []string, stdout io.Writer) error {
	fs := newFlags("manifest check")
	stamp := fs.String("stamp", "", "on success, write the summary to `FILE`")
	copyTo := fs.String("copy", "", "on success, write the manifest's bytes to `FILE` (the runtime copy: the check and the copy are one action, so a rejected manifest leaves no copy)")
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
	if err == nil {
		err = checkDeclared(path, m, declared)
	}
	if err != nil {
		removeOutputs(*stamp, *copyTo)
		return err
	}
	if *copyTo != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading %s for the copy: %w", path, err)
		}
		if err := durable.Write(*copyTo, data, 0o644); err != nil {
			return fmt.Errorf("writing the copy of %s: %w", path, err)
		}
	}
	summary := fmt.Sprintf("%s: ok: %d images, %d animations, %d frames, %d roles, fallback %s\n",
		path, len(m.Images), len(m.Animations), len(m.Frames), len(m.Roles), m.Roles[m.Fallback].ID)
	if *stamp != "" {
		return durable.Write(*stamp, []byte(summary), 0o644)
	}
	if *copyTo == "" {
		fmt.Fprint(stdout, summary)
	}
	return nil
}

// removeOutputs removes the named output files (empty names are skipped),
// so no output of an earlier run survives a rejection.
func removeOutputs(paths ...string) {
	for _, p := range paths {
		if p != "" {
			os.Remove(p) // best effort: a path that is not there is the goal
		}
	}
}

// checkDeclared rejects a manifest naming an image that is not among
// declared (the rule's images, manifest-relative); no declared paths means
// the caller has no such list and nothing is checked. The rejection names
// the image's line, like the parser's own errors.
func checkDeclared(path string, m *manifest.Manifest, declared []string) error {
	if len(declared) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, d := range declared {
		have[d] = true
	}
	for _, im := range m.Images {
		if !have[im.Path] {
			return rejected{fmt.Sprintf("%s: %s: image %s names %s, which is not among the rule's images", fileLine(path, imageLine(path, im.ID)), RuleImageNotDeclared, im.ID, im.Path)}
		}
	}
	return nil
}

// fileLine formats `FILE:LINE`, or FILE alone when the line is unknown (0).
func fileLine(path string, line int) string {
	if line == 0 {
		return path
	}
	return fmt.Sprintf("%s:%d", path, line)
}

// imageLine returns the line of the [images] entry declaring id, or 0. The
// parsed manifest keeps no line numbers; the file was just accepted, so a
// plain rescan finds the entry.
func imageLine(path, id string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	inImages := false
	for i, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#"):
		case strings.HasPrefix(fields[0], "["):
			inImages = fields[0] == "[images]"
		case inImages && fields[0] == id:
			return i + 1
		}
	}
	return 0
}

// unusedImages lists, as `FILE[:LINE]: image_unused: ...` warnings, every
// image no role shows (named by the manifest but in no role's animation)
// and every declared path the manifest does not name at all. The manifest
// contract accepts both; they are usually a sprite left behind by an edit.
func unusedImages(path string, m *manifest.Manifest, declared []string) []string {
	shown := map[int]bool{}
	for _, r := range m.Roles {
		for _, f := range m.AnimationFrames(r.Animation) {
			shown[f.Image] = true
		}
	}
	named := map[string]bool{}
	var warnings []string
	for i, im := range m.Images {
		named[im.Path] = true
		if !shown[i] {
			warnings = append(warnings, fmt.Sprintf("%s: %s: image %s (%s) is shown by no role", fileLine(path, imageLine(path, im.ID)), RuleImageUnused, im.ID, im.Path))
		}
	}
	for _, d := range declared {
		if !named[d] {
			warnings = append(warnings, fmt.Sprintf("%s: %s: %s is among the rule's images but the manifest names it nowhere", path, RuleImageUnused, d))
		}
	}
	return warnings
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
	fs := newFlags("manifest dump")
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
	return writeJSON(stdout, toJSON(m))
}
