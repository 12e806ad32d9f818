package petpackbuild

import (
	"encoding/json"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// Documents are the four metadata documents of section 7, consistent with
// one manifest, as a producer writes them.
type Documents struct {
	Source     petpack.Source
	Brief      petpack.Brief
	Events     []petpack.SourceEvent
	Validation petpack.ValidationReport
}

// Metadata returns the documents for m, produced by gen with the given
// provenance and no references: the timing contracts and frame counts
// restate the manifest, and the session records one run from start to
// completion. A visual source is recorded only where the provenance claims
// one.
func Metadata(m *petpack.Manifest, description string, gen petpack.Generator, prov petpack.Provenance, visual *petpack.VisualSource) Documents {
	d := Documents{
		Source: petpack.Source{
			SchemaVersion: petpack.SourceSchemaVersion, ID: m.ID, Name: m.Name, Style: m.Style,
			Quality: m.Quality, RenderSize: m.RenderSize, Generator: gen, Provenance: prov,
			VisualSource: visual, References: []petpack.Reference{},
		},
		Brief: petpack.Brief{
			SchemaVersion: petpack.BriefSchemaVersion, ID: m.ID, Name: m.Name, Style: m.Style,
			Quality: m.Quality, Description: description, References: []string{},
		},
		Validation: petpack.ValidationReport{
			SchemaVersion: petpack.ValidationSchemaVersion, OK: true, Validator: gen, PetID: m.ID,
			Warnings: []petpack.Rule{}, References: []string{},
		},
	}
	for _, s := range m.States {
		n := len(s.FrameDurationsMS)
		d.Source.States = append(d.Source.States, petpack.SourceState{
			Name: s.Name, FrameCount: n, FrameDurationsMS: s.FrameDurationsMS,
			Playback: s.Playback, ReducedMotionFrameIndex: s.ReducedMotionFrameIndex,
		})
		d.Source.TotalFrameCount += n
		d.Validation.FrameCounts.Set(s.Name, n)
	}
	d.Validation.TotalFrameCount = d.Source.TotalFrameCount
	for i, t := range []petpack.EventType{petpack.EventStarted, petpack.EventGenerated, petpack.EventValidated, petpack.EventCompleted} {
		d.Events = append(d.Events, petpack.SourceEvent{SchemaVersion: petpack.SourceEventSchemaVersion, Sequence: i + 1, Type: t})
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
		{"build/validation.json", d.Validation},
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
