package petpackbuild

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Spec describes a package by its parts, the way the petpack_archive rule
// declares them: identity, frames and timing per action, metadata files
// and optional previews. Every path names a file to read (a declared
// input), never a path inside the package: Assemble decides where each
// file goes, so no input can choose its own package path.
type Spec struct {
	// ID, Name, Style, Quality and CreatedAt are the manifest's identity
	// fields; the render size follows from Quality.
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Style     string          `json:"style"`
	Quality   petpack.Quality `json:"quality"`
	CreatedAt string          `json:"created_at"`
	// States lists the actions; an action may appear once, and the nine
	// are written in the contract's order whatever the order here.
	States []SpecState `json:"states"`
	// Prompt is the file that becomes source/prompt.md.
	Prompt string `json:"prompt"`
	// References are files placed in source/references/ under their base
	// names and inventoried in the generated metadata.
	References []string `json:"references"`
	// Source, Brief and Session are source/source.json, brief.json and
	// source/skill_session.jsonl; each "" is generated from the manifest,
	// the references and Producer.
	Source  string `json:"source"`
	Brief   string `json:"brief"`
	Session string `json:"session"`
	// Producer is what the generated metadata records about who made the
	// package.
	Producer Producer `json:"producer"`
	// Cover and AnimatedPreview are the preview files; "" makes them from
	// the frames (see Pack).
	Cover           string `json:"cover"`
	AnimatedPreview string `json:"animated_preview"`
	// CoverFrame, "ACTION/INDEX" such as "idle/2", picks the frame a
	// generated cover is made from; "" takes idle's reduced-motion frame.
	CoverFrame string `json:"cover_frame"`
}

// SpecState is one action of a Spec.
type SpecState struct {
	// Name is the fixed action.
	Name petpack.Action `json:"name"`
	// Frames are the action's frame files in playing order; they are
	// archived as 0000.png, 0001.png, ..., so the order given is the
	// order the ASCII natural comparator plays.
	Frames []string `json:"frames"`
	// Timing is the state's timing and playback as manifest.json spells
	// them (frame_durations_ms, playback, reduced_motion_frame_index), or
	// null for the action's default of contract section 4.
	Timing json.RawMessage `json:"timing"`
}

// ReadFunc reads one input file named by a Spec.
type ReadFunc func(name string) ([]byte, error)

// ParseSpec decodes a Spec strictly: an unknown field is a typo in the rule
// that wrote it, and silently dropping it would drop what it meant.
func ParseSpec(data []byte) (*Spec, error) {
	var s Spec
	if err := decodeStrict(data, &s); err != nil {
		return nil, fmt.Errorf("petpack spec: %w", err)
	}
	return &s, nil
}

func decodeStrict(data []byte, v interface{}) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// Assemble reads the spec's files and returns the package files and the
// options Pack needs. It checks only what it must to place files; the
// validator judges the package.
func Assemble(s *Spec, read ReadFunc) ([]File, Options, error) {
	var opt Options
	size, ok := s.Quality.RenderSize()
	if !ok {
		return nil, opt, fmt.Errorf("quality %q: want low, standard or high", s.Quality)
	}
	m := petpack.Manifest{
		SchemaVersion: petpack.SchemaVersion, ID: s.ID, Name: s.Name, Style: s.Style,
		Quality: s.Quality, RenderSize: size, CreatedAt: s.CreatedAt,
	}
	byAction := map[petpack.Action]*SpecState{}
	for i := range s.States {
		st := &s.States[i]
		if st.Name.FramesDir() == "" {
			return nil, opt, fmt.Errorf("action %q: not one of the nine fixed actions", st.Name)
		}
		if _, dup := byAction[st.Name]; dup {
			return nil, opt, fmt.Errorf("action %s: given twice", st.Name)
		}
		byAction[st.Name] = st
	}
	var files []File
	defaults := petpack.DefaultStates()
	for i, a := range petpack.Actions() {
		st := byAction[a]
		if st == nil {
			return nil, opt, fmt.Errorf("action %s: no frames (all nine actions are required)", a)
		}
		state := defaults[i]
		if len(st.Timing) > 0 && string(st.Timing) != "null" {
			var t struct {
				FrameDurationsMS        []int            `json:"frame_durations_ms"`
				Playback                petpack.Playback `json:"playback"`
				ReducedMotionFrameIndex int              `json:"reduced_motion_frame_index"`
			}
			if err := decodeStrict(st.Timing, &t); err != nil {
				return nil, opt, fmt.Errorf("action %s timing: %w", a, err)
			}
			// The first out-of-range duration is the cause; reported here,
			// against the BUILD attribute, it is not restated by the
			// validator in every generated metadata file.
			for k, d := range t.FrameDurationsMS {
				if d < petpack.MinFrameDurationMS || d > petpack.MaxFrameDurationMS {
					return nil, opt, fmt.Errorf("%s: petpack_archive timing[%q] frame_durations_ms[%d]: %d ms is outside %d to %d ms",
						petpack.RuleFrameDurationOutOfRange, a, k, d, petpack.MinFrameDurationMS, petpack.MaxFrameDurationMS)
				}
			}
			state.FrameDurationsMS, state.Playback, state.ReducedMotionFrameIndex = t.FrameDurationsMS, t.Playback, t.ReducedMotionFrameIndex
		}
		if len(st.Frames) > 0 && len(st.Frames) != len(state.FrameDurationsMS) {
			from := "the contract's default timing of " + string(a)
			if len(st.Timing) > 0 && string(st.Timing) != "null" {
				from = fmt.Sprintf("petpack_archive timing[%q]", a)
			}
			return nil, opt, fmt.Errorf("%s: %d frames in %s/ for the %d durations of %s",
				petpack.RuleFrameCountMismatch, len(st.Frames), path.Dir(st.Frames[0]), len(state.FrameDurationsMS), from)
		}
		m.States = append(m.States, state)
		for k, name := range st.Frames {
			data, err := read(name)
			if err != nil {
				return nil, opt, fmt.Errorf("action %s frame %d: %w", a, k, err)
			}
			files = append(files, File{Path: fmt.Sprintf("%s/%04d.png", a.FramesDir(), k), Data: data, From: name})
		}
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, opt, err
	}
	files = append(files, File{Path: "manifest.json", Data: append(mj, '\n')}, File{Path: "source/references/"})

	var refs []string
	seenRef := map[string]bool{}
	for _, name := range s.References {
		base := path.Base(name)
		if seenRef[base] {
			return nil, opt, fmt.Errorf("reference %s: another reference is also named %s", name, base)
		}
		seenRef[base] = true
		data, err := read(name)
		if err != nil {
			return nil, opt, fmt.Errorf("reference %s: %w", name, err)
		}
		refs = append(refs, base)
		files = append(files, File{Path: "source/references/" + base, Data: data, From: name})
	}
	sort.Strings(refs)

	docs := Metadata(&m, s.Producer, refs)
	generated, err := docs.Files()
	if err != nil {
		return nil, opt, err
	}
	given := map[string]string{"source/source.json": s.Source, "brief.json": s.Brief, "source/skill_session.jsonl": s.Session}
	for _, f := range generated {
		name, ok := given[f.Path]
		switch {
		case !ok:
			continue // build/validation.json: Pack writes it
		case name != "":
			if f.Data, err = read(name); err != nil {
				return nil, opt, fmt.Errorf("%s: %w", f.Path, err)
			}
			f.From = name
		}
		files = append(files, f)
	}
	for _, p := range []struct{ pkg, name string }{{"source/prompt.md", s.Prompt}, {CoverPath, s.Cover}, {PreviewPath, s.AnimatedPreview}} {
		if p.name == "" {
			if p.pkg == "source/prompt.md" {
				return nil, opt, fmt.Errorf("the prompt file is required (it becomes source/prompt.md)")
			}
			continue
		}
		data, err := read(p.name)
		if err != nil {
			return nil, opt, fmt.Errorf("%s: %w", p.pkg, err)
		}
		files = append(files, File{Path: p.pkg, Data: data, From: p.name})
	}
	if s.CoverFrame != "" {
		if s.Cover != "" {
			return nil, opt, fmt.Errorf("cover frame %q: a cover file is given too; choose one", s.CoverFrame)
		}
		a, k, ok := strings.Cut(s.CoverFrame, "/")
		n, err := strconv.Atoi(k)
		if !ok || err != nil || n < 0 || petpack.Action(a).FramesDir() == "" {
			return nil, opt, fmt.Errorf("cover frame %q: want ACTION/INDEX such as idle/2", s.CoverFrame)
		}
		opt.CoverFrame = fmt.Sprintf("%s/%04d.png", petpack.Action(a).FramesDir(), n)
	}
	return files, opt, nil
}
