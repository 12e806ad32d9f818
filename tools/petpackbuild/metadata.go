package petpackbuild

import (
	"encoding/json"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Producer is who made a package and what it claims about its frames: the
// fields the generated metadata records. Every optional field is written
// only when set, so nothing appears in a package that no BUILD attribute
// or input file said.
type Producer struct {
	// Generator names the producer (source.json generator, brief.json
	// generation.generator): 1 to 96 characters, not blank.
	Generator string `json:"generator"`
	// Provenance is the claim about the frames, such as deterministic,
	// external or skill-full-source (source.json provenance).
	Provenance string `json:"provenance"`
	// VisualSource is source.json's visual_source (one of the schema's
	// values); "" leaves it out. skill-full-source requires
	// image-generation or user-reference-derived.
	VisualSource string `json:"visual_source"`
	// PreviewOnly is source.json's preview_only; nil leaves it out.
	// skill-full-source requires false.
	PreviewOnly *bool `json:"preview_only"`
	// Description is brief.json's character description; "" leaves it out.
	Description string `json:"description"`
	// Motions maps an action to its state brief's motion text (required
	// by the brief schema); an action left out is described by its name.
	Motions map[string]string `json:"motions"`
}

// Documents are the four metadata documents of section 7 as the writer
// generates them.
type Documents struct {
	Source petpack.Source
	Brief  petpack.Brief
	Events []petpack.SourceEvent
}

// Metadata returns source.json, brief.json and the session log for m,
// with refs the base names of the files in source/references/. They
// restate the manifest's identity, states and frame counts exactly as the
// validator cross-checks them; build/validation.json is Pack's to write.
func Metadata(m *petpack.Manifest, p Producer, refs []string) Documents {
	counts := petpack.CountsOf(m)
	names := make([]petpack.Action, len(m.States))
	for i, s := range m.States {
		names[i] = s.Name
	}
	nrefs := len(refs)
	d := Documents{
		Source: petpack.Source{
			SchemaVersion: petpack.SourceSchemaVersion, Generator: p.Generator, Provenance: p.Provenance,
			CreatedAt: m.CreatedAt, ManifestID: m.ID, PetName: m.Name, Style: m.Style, Quality: m.Quality,
			VisualSource: p.VisualSource, States: m.States, StateFrameCounts: &counts, PreviewOnly: p.PreviewOnly,
			ReferenceFiles: refs,
		},
		Brief: petpack.Brief{
			SchemaVersion: petpack.BriefSchemaVersion, Name: m.Name, Style: m.Style, Quality: m.Quality,
			Generation: &petpack.Generation{Generator: p.Generator, Provenance: p.Provenance, PreviewOnly: p.PreviewOnly},
			References: refs,
			Runtime:    &petpack.BriefRuntime{States: m.States, StateFrameCounts: counts, RenderSize: m.RenderSize},
		},
		Events: []petpack.SourceEvent{
			{SchemaVersion: petpack.SourceEventSchemaVersion, Event: petpack.EventStatesRendered, Generator: p.Generator,
				ManifestID: m.ID, States: names, StateTimings: m.States, StateFrameCounts: &counts},
			{SchemaVersion: petpack.SourceEventSchemaVersion, Event: "petpack.assembled", Generator: p.Generator,
				ManifestID: m.ID, Quality: m.Quality, RenderSize: &m.RenderSize, ReferenceCount: &nrefs},
		},
	}
	if p.Description != "" {
		desc := p.Description
		d.Brief.Description = &desc
	}
	for _, s := range m.States {
		motion := p.Motions[string(s.Name)]
		if motion == "" {
			motion = "The " + string(s.Name) + " action, as authored."
		}
		d.Brief.States = append(d.Brief.States, petpack.StateBrief{
			Name: s.Name, Motion: motion, FrameDurationsMS: s.FrameDurationsMS,
			Playback: s.Playback, ReducedMotionFrameIndex: s.ReducedMotionFrameIndex,
		})
	}
	return d
}

// Files returns the documents at their package paths: indented JSON, and
// one compact record a line for the session log, as JSONL requires.
func (d Documents) Files() ([]File, error) {
	var files []File
	for _, doc := range []struct {
		path string
		v    interface{}
	}{
		{"brief.json", d.Brief},
		{"source/source.json", d.Source},
	} {
		b, err := json.MarshalIndent(doc.v, "", "  ")
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: doc.path, Data: append(b, '\n')})
	}
	var log []byte
	for _, e := range d.Events {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		log = append(append(log, b...), '\n')
	}
	return append(files, File{Path: "source/skill_session.jsonl", Data: log}), nil
}

// Report is build/validation.json for the verdict v on a package with
// manifest m: the validator, the identity, the exact frame inventory, and
// the verdict's warnings as FILE: RULE: POINTER message lines, the
// section 5 timing warnings in timing_warnings and the others in
// warnings, in verdict order.
func Report(m *petpack.Manifest, v *petpack.Verdict, validator, version string) petpack.ValidationReport {
	counts := petpack.CountsOf(m)
	r := petpack.ValidationReport{
		SchemaVersion: petpack.ValidationSchemaVersion, OK: true, Validator: validator, ValidatorVersion: version,
		ManifestID: m.ID, FrameCount: counts.Total(), States: m.States, StateFrameCounts: counts,
	}
	if v != nil {
		for _, f := range v.Warnings {
			line := f.String()
			if len([]rune(line)) > 1000 {
				line = string([]rune(line)[:1000])
			}
			if f.Rule.IsTimingWarning() {
				r.TimingWarnings = append(r.TimingWarnings, line)
			} else {
				r.Warnings = append(r.Warnings, line)
			}
		}
	}
	return r
}
