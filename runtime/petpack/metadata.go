package petpack

import "encoding/json"

// The schema identities of the four Safe Producer documents (section 7).
// Each is read exactly; there is no untagged or older branch (section 10).
const (
	// SourceSchemaVersion identifies source/source.json.
	SourceSchemaVersion = "apc.pet-source.v1"
	// BriefSchemaVersion identifies brief.json.
	BriefSchemaVersion = "apc.pet-brief.v1"
	// SourceEventSchemaVersion identifies each record of
	// source/skill_session.jsonl.
	SourceEventSchemaVersion = "apc.pet-source-event.v1"
	// ValidationSchemaVersion identifies build/validation.json.
	ValidationSchemaVersion = "apc.pet-validation.v1"
)

// The package paths of the metadata documents.
const (
	sourcePath     = "source/source.json"
	briefPath      = "brief.json"
	sessionPath    = "source/skill_session.jsonl"
	validationPath = "build/validation.json"
	promptPath     = "source/prompt.md"
	referencesDir  = "source/references"
)

// Extensions is the only extension point of the metadata documents: an
// object keyed by lower-case reverse-domain names (com.example.tool), each
// holding an object this package does not interpret beyond the privacy
// check.
type Extensions map[string]json.RawMessage

// Source is source/source.json (apc.pet-source.v1): what produced the pet,
// restating the manifest's identity and complete timing so each can be
// cross-checked, and the inventory of source/references/.
type Source struct {
	// SchemaVersion is always SourceSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// ID equals the manifest id.
	ID string `json:"id"`
	// Name equals the manifest name.
	Name string `json:"name"`
	// Style equals the manifest style.
	Style string `json:"style"`
	// Quality equals the manifest quality.
	Quality Quality `json:"quality"`
	// RenderSize equals the manifest render_size.
	RenderSize Size `json:"render_size"`
	// Generator names the producer that wrote the package.
	Generator Generator `json:"generator"`
	// Provenance says how the frames were made; it is a claim, not a
	// signature.
	Provenance Provenance `json:"provenance"`
	// PreviewOnly marks a package whose frames are a preview rather than
	// the authored sequence; skill-full-source requires false.
	PreviewOnly bool `json:"preview_only"`
	// VisualSource is the full visual source the frames were cut from:
	// required for skill-full-source, forbidden for deterministic and
	// materializer provenance.
	VisualSource *VisualSource `json:"visual_source,omitempty"`
	// States restates the nine timing contracts with their frame counts.
	States []SourceState `json:"states"`
	// TotalFrameCount is the sum of the states' frame counts.
	TotalFrameCount int `json:"total_frame_count"`
	// References is the exact inventory of source/references/.
	References []Reference `json:"references"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// Generator names a producer or validator and its version.
type Generator struct {
	// Name is the non-blank tool name, such as agent-pet-maker.
	Name string `json:"name"`
	// Version is the non-blank tool version.
	Version string `json:"version"`
}

// Provenance is how a package's frames were produced (section 7).
type Provenance string

// The provenances. A package cannot claim bundled identity (section 8), so
// there is no bundled value.
const (
	// ProvenanceSkillFullSource is authored frames from a full visual
	// source through the Maker or Studio skill: the trusted profile.
	ProvenanceSkillFullSource Provenance = "skill-full-source"
	// ProvenanceSkillPreview is a skill run that produced preview frames.
	ProvenanceSkillPreview Provenance = "skill-preview"
	// ProvenanceExternal is frames authored by another producer.
	ProvenanceExternal Provenance = "external"
	// ProvenanceDeterministic is frames drawn by a deterministic program.
	ProvenanceDeterministic Provenance = "deterministic"
	// ProvenanceMaterializer is frames materialised from other data with
	// no visual source of their own.
	ProvenanceMaterializer Provenance = "materializer"
)

var provenances = []string{
	string(ProvenanceSkillFullSource), string(ProvenanceSkillPreview), string(ProvenanceExternal),
	string(ProvenanceDeterministic), string(ProvenanceMaterializer),
}

// VisualSource describes the full visual source of a skill-full-source
// package.
type VisualSource struct {
	// Kind is image_generation, image_edit or hand_authored.
	Kind string `json:"kind"`
}

var visualSourceKinds = []string{"image_generation", "image_edit", "hand_authored"}

// SourceState is one action's timing contract as the producer authored it:
// a verbatim copy of the manifest state's timing fields (frames_dir is
// fixed by the name and left out) and the number of frames.
type SourceState struct {
	// Name is the action.
	Name Action `json:"name"`
	// FrameCount is the number of frames in the action's directory.
	FrameCount int `json:"frame_count"`
	// FrameDurationsMS equals the manifest state's durations.
	FrameDurationsMS []int `json:"frame_durations_ms"`
	// Playback equals the manifest state's playback object.
	Playback Playback `json:"playback"`
	// ReducedMotionFrameIndex equals the manifest state's index.
	ReducedMotionFrameIndex int `json:"reduced_motion_frame_index"`
}

// Reference is one file of source/references/.
type Reference struct {
	// Path is relative to source/references/, without traversal.
	Path string `json:"path"`
	// Size is the file's length in bytes.
	Size int64 `json:"size"`
	// SHA256 is the file's SHA-256, 64 lower-case hex digits.
	SHA256 string `json:"sha256"`
}

// Brief is brief.json (apc.pet-brief.v1): the generation form (section 9)
// as submitted, with the identity it produced.
type Brief struct {
	// SchemaVersion is always BriefSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// ID equals the manifest id.
	ID string `json:"id"`
	// Name equals the manifest name.
	Name string `json:"name"`
	// Style equals the manifest style.
	Style string `json:"style"`
	// Quality equals the manifest quality.
	Quality Quality `json:"quality"`
	// Description is the non-blank character description.
	Description string `json:"description"`
	// References are the reference paths, relative to source/references/:
	// the same set as source.json's inventory.
	References []string `json:"references"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// SourceEvent is one record of source/skill_session.jsonl
// (apc.pet-source-event.v1). It carries no agent identifiers and no free
// text: only the lifecycle step and the action it concerns.
type SourceEvent struct {
	// SchemaVersion is always SourceEventSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// Sequence is the record's 1-based line number.
	Sequence int `json:"sequence"`
	// Type is the lifecycle step.
	Type EventType `json:"type"`
	// State is the action the step concerns, if any.
	State Action `json:"state,omitempty"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// EventType is a step of the session lifecycle: started, then any number
// of generated, reviewed and validated, then completed.
type EventType string

// The lifecycle steps.
const (
	// EventStarted is the first record and only the first.
	EventStarted EventType = "started"
	// EventGenerated records frames generated or edited.
	EventGenerated EventType = "generated"
	// EventReviewed records a visual review.
	EventReviewed EventType = "reviewed"
	// EventValidated records a validation run.
	EventValidated EventType = "validated"
	// EventCompleted is the last record and only the last.
	EventCompleted EventType = "completed"
)

var eventTypes = []string{string(EventStarted), string(EventGenerated), string(EventReviewed), string(EventValidated), string(EventCompleted)}

// ValidationReport is build/validation.json (apc.pet-validation.v1): the
// outcome the build's validator recorded.
type ValidationReport struct {
	// SchemaVersion is always ValidationSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// OK is exactly true: a package is only written after it validates.
	OK bool `json:"ok"`
	// Validator names the validator and its version.
	Validator Generator `json:"validator"`
	// PetID equals the manifest id.
	PetID string `json:"pet_id"`
	// FrameCounts is each action's frame count.
	FrameCounts FrameCounts `json:"frame_counts"`
	// TotalFrameCount is the sum of FrameCounts.
	TotalFrameCount int `json:"total_frame_count"`
	// Warnings are the distinct warning rules the validator reported.
	Warnings []Rule `json:"warnings"`
	// References are the reference paths, the same set as source.json's.
	References []string `json:"references"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// FrameCounts is one frame count per fixed action.
type FrameCounts struct {
	// Idle is the idle action's frame count.
	Idle int `json:"idle"`
	// Thinking is the thinking action's frame count.
	Thinking int `json:"thinking"`
	// Tool is the tool action's frame count.
	Tool int `json:"tool"`
	// Waiting is the waiting action's frame count.
	Waiting int `json:"waiting"`
	// Done is the done action's frame count.
	Done int `json:"done"`
	// Failed is the failed action's frame count.
	Failed int `json:"failed"`
	// Acknowledge is the acknowledge action's frame count.
	Acknowledge int `json:"acknowledge"`
	// DragLeft is the drag_left action's frame count.
	DragLeft int `json:"drag_left"`
	// DragRight is the drag_right action's frame count.
	DragRight int `json:"drag_right"`
}

// Of returns the count of action a (0 for an unknown action).
func (f FrameCounts) Of(a Action) int {
	if p := f.field(a); p != nil {
		return *p
	}
	return 0
}

// Set sets the count of action a; an unknown action is ignored.
func (f *FrameCounts) Set(a Action, n int) {
	if p := f.field(a); p != nil {
		*p = n
	}
}

func (f *FrameCounts) field(a Action) *int {
	switch a {
	case ActionIdle:
		return &f.Idle
	case ActionThinking:
		return &f.Thinking
	case ActionTool:
		return &f.Tool
	case ActionWaiting:
		return &f.Waiting
	case ActionDone:
		return &f.Done
	case ActionFailed:
		return &f.Failed
	case ActionAcknowledge:
		return &f.Acknowledge
	case ActionDragLeft:
		return &f.DragLeft
	case ActionDragRight:
		return &f.DragRight
	}
	return nil
}
