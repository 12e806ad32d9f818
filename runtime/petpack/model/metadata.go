package model

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

// Extensions is the metadata documents' one extension point: members keyed
// by reverse-domain names (com.example.tool, dev.agentpet.validation/x),
// each holding any JSON value this package does not interpret beyond the
// privacy check.
type Extensions map[string]json.RawMessage

// The types below are the V3 documents as Go values, for producers that
// write them and readers that want them typed. Every optional field is a
// pointer or omitted when empty, so a document round-trips without gaining
// members. The validator itself judges the JSON against the schemas in
// metaschema.go; these types never loosen or tighten that.

// Source is source/source.json (apc.pet-source.v1): who produced the
// package and how, restating the manifest's identity and timing.
type Source struct {
	// SchemaVersion is always SourceSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// Generator names the producer (1 to 96 characters, not blank).
	Generator string `json:"generator"`
	// Provenance says how the frames were made, such as skill-full-source
	// or deterministic; it is a claim, not a signature.
	Provenance string `json:"provenance"`
	// CreatedAt is an RFC 3339 date-time.
	CreatedAt string `json:"created_at,omitempty"`
	// ManifestID, PetName, Style and Quality equal the manifest's id,
	// name, style and quality.
	ManifestID string  `json:"manifest_id,omitempty"`
	PetName    string  `json:"pet_name,omitempty"`
	Style      string  `json:"style,omitempty"`
	Quality    Quality `json:"quality,omitempty"`
	// VisualSource is where the frames' pixels came from; skill-full-source
	// requires image-generation or user-reference-derived.
	VisualSource string `json:"visual_source,omitempty"`
	// States equals the manifest's states, in the manifest's order.
	States []State `json:"states,omitempty"`
	// StateFrameCounts equals each action's decoded frame count.
	StateFrameCounts *FrameCounts `json:"state_frame_counts,omitempty"`
	// PreviewOnly marks preview frames; skill-full-source requires false.
	PreviewOnly *bool `json:"preview_only,omitempty"`
	// ReferenceVisualInfluence says whether references shaped the art.
	ReferenceVisualInfluence *bool `json:"reference_visual_influence,omitempty"`
	// Form is the generation form as submitted (section 9).
	Form *Form `json:"form,omitempty"`
	// ReferenceFiles is the inventory of source/references/, each path
	// either relative to it or prefixed with source/references/.
	ReferenceFiles []string `json:"reference_files,omitempty"`
	// InputReferenceCount is how many references the form named;
	// CopiedReferenceCount how many were packaged.
	InputReferenceCount  *int `json:"input_reference_count,omitempty"`
	CopiedReferenceCount *int `json:"copied_reference_count,omitempty"`
	// AIBrief is the producer's open creative brief (an object or null).
	AIBrief json.RawMessage `json:"ai_brief,omitempty"`
	// PaletteSource and Palette record the character palette.
	PaletteSource string   `json:"palette_source,omitempty"`
	Palette       *Palette `json:"palette,omitempty"`
	// SkillHelper, Runner and MaterializedBy name the helper, the runner
	// and a materializer; skill-full-source forbids MaterializedBy.
	SkillHelper    string `json:"skill_helper,omitempty"`
	Runner         string `json:"runner,omitempty"`
	MaterializedBy string `json:"materialized_by,omitempty"`
	// BaseManifestID and BaseRevision pin an edit's base (section 8).
	BaseManifestID string `json:"base_manifest_id,omitempty"`
	BaseRevision   int    `json:"base_revision,omitempty"`
	// ChangedStates are the actions an edit changed.
	ChangedStates []Action `json:"changed_states,omitempty"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// Form is source.json's record of the generation form.
type Form struct {
	// Description is the character description (at most 8000 characters).
	Description string `json:"description,omitempty"`
	// Style is the requested style (at most 1000 characters).
	Style string `json:"style,omitempty"`
	// Quality is the requested tier.
	Quality Quality `json:"quality,omitempty"`
	// ReferenceImages are the form's reference paths.
	ReferenceImages []string `json:"reference_images,omitempty"`
}

// Palette is source.json's character palette: four RGBA colours and where
// they came from.
type Palette struct {
	// Hair, Skin, Body and Accent are [r, g, b, a], each 0 to 255.
	Hair   [4]int `json:"hair"`
	Skin   [4]int `json:"skin"`
	Body   [4]int `json:"body"`
	Accent [4]int `json:"accent"`
	// Source says where the palette came from.
	Source string `json:"source"`
}

// Brief is brief.json (apc.pet-brief.v1): the character brief and one
// motion brief per action.
type Brief struct {
	// SchemaVersion is always BriefSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// Name, Style and Quality equal the manifest's.
	Name    string  `json:"name"`
	Style   string  `json:"style"`
	Quality Quality `json:"quality"`
	// Description is the character description (a string or null).
	Description *string `json:"description,omitempty"`
	// Generation restates source.json's generator and provenance.
	Generation *Generation `json:"generation,omitempty"`
	// AIBrief is the producer's open creative brief (an object or null).
	AIBrief json.RawMessage `json:"ai_brief,omitempty"`
	// VisualBrief and RenderNotes are free text (at most 8000 characters).
	VisualBrief string `json:"visual_brief,omitempty"`
	RenderNotes string `json:"render_notes,omitempty"`
	// Palette lists colours as strings or small objects.
	Palette []json.RawMessage `json:"palette,omitempty"`
	// References are reference paths, the same set as source.json's
	// reference_files.
	References []string `json:"references,omitempty"`
	// States holds one StateBrief per action.
	States []StateBrief `json:"states"`
	// Runtime restates the manifest's states, frame counts and size.
	Runtime *BriefRuntime `json:"runtime,omitempty"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// Generation is brief.json's generator and provenance claim.
type Generation struct {
	// Generator and Provenance equal source.json's.
	Generator  string `json:"generator"`
	Provenance string `json:"provenance"`
	// SkillHelper and PreviewOnly, when both documents carry them, equal
	// source.json's.
	SkillHelper string `json:"skill_helper,omitempty"`
	PreviewOnly *bool  `json:"preview_only,omitempty"`
}

// StateBrief is one action's motion brief with its authored timing, which
// equals the manifest state's. It names the action by Name or by State,
// never both.
type StateBrief struct {
	// Name or State is the action.
	Name  Action `json:"name,omitempty"`
	State Action `json:"state,omitempty"`
	// Label is a short caption.
	Label string `json:"label,omitempty"`
	// Motion describes the action's movement (not blank).
	Motion string `json:"motion"`
	// FrameDurationsMS, Playback and ReducedMotionFrameIndex equal the
	// manifest state's.
	FrameDurationsMS        []int    `json:"frame_durations_ms"`
	Playback                Playback `json:"playback"`
	ReducedMotionFrameIndex int      `json:"reduced_motion_frame_index"`
}

// Action returns the action the brief names.
func (b StateBrief) Action() Action {
	if b.Name != "" {
		return b.Name
	}
	return b.State
}

// BriefRuntime is brief.json's restatement of the runtime contract.
type BriefRuntime struct {
	// States equals the manifest's states, in the manifest's order.
	States []State `json:"states"`
	// StateFrameCounts equals each action's frame count.
	StateFrameCounts FrameCounts `json:"state_frame_counts"`
	// RenderSize equals the manifest's render_size.
	RenderSize Size `json:"render_size"`
}

// SourceEvent is one record of source/skill_session.jsonl
// (apc.pet-source-event.v1): a named production step with the facts it
// concerns. The schema defines no lifecycle; producers write events such
// as form.read, brief.generated, states.rendered and petpack.validated.
type SourceEvent struct {
	// SchemaVersion is always SourceEventSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// Event names the step: ^[a-z][a-z0-9_.-]{0,63}$.
	Event string `json:"event"`
	// CreatedAt is an RFC 3339 date-time.
	CreatedAt string `json:"created_at,omitempty"`
	// Skill, Runner, Helper, Generator, Provenance and Materializer name
	// who took the step.
	Skill        string `json:"skill,omitempty"`
	Runner       string `json:"runner,omitempty"`
	Helper       string `json:"helper,omitempty"`
	Generator    string `json:"generator,omitempty"`
	Provenance   string `json:"provenance,omitempty"`
	Materializer string `json:"materializer,omitempty"`
	// ManifestID, Name, Style, Quality and RenderSize equal the
	// manifest's.
	ManifestID string  `json:"manifest_id,omitempty"`
	Name       string  `json:"name,omitempty"`
	Style      string  `json:"style,omitempty"`
	Quality    Quality `json:"quality,omitempty"`
	RenderSize *Size   `json:"render_size,omitempty"`
	// PetpackSource is a relative package file name.
	PetpackSource string `json:"petpack_source,omitempty"`
	// States, StateTimings and StateFrameCounts (required by
	// states.rendered) equal the manifest's actions, states and counts.
	States           []Action     `json:"states,omitempty"`
	ChangedStates    []Action     `json:"changed_states,omitempty"`
	StateTimings     []State      `json:"state_timings,omitempty"`
	StateFrameCounts *FrameCounts `json:"state_frame_counts,omitempty"`
	// Completed and ValidationOK record outcomes.
	Completed    *bool `json:"completed,omitempty"`
	ValidationOK *bool `json:"validation_ok,omitempty"`
	// ReferenceCount equals the number of files in source/references/.
	ReferenceCount *int `json:"reference_count,omitempty"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// ValidationReport is build/validation.json (apc.pet-validation.v1): the
// outcome the producer's validator recorded.
type ValidationReport struct {
	// SchemaVersion is always ValidationSchemaVersion.
	SchemaVersion string `json:"schema_version"`
	// OK is exactly true.
	OK bool `json:"ok"`
	// Validator and ValidatorVersion name the validator.
	Validator        string `json:"validator,omitempty"`
	ValidatorVersion string `json:"validator_version,omitempty"`
	// ValidatedAt is an RFC 3339 date-time.
	ValidatedAt string `json:"validated_at,omitempty"`
	// ManifestID equals the manifest's id.
	ManifestID string `json:"manifest_id,omitempty"`
	// Manifest, when present, is a copy of manifest.json.
	Manifest json.RawMessage `json:"manifest,omitempty"`
	// FrameCount (12 to 240), States and StateFrameCounts equal the
	// package's decoded frames and the manifest's states.
	FrameCount       int         `json:"frame_count"`
	States           []State     `json:"states"`
	StateFrameCounts FrameCounts `json:"state_frame_counts"`
	// TimingWarnings are the section 5 production-target warnings and
	// Warnings the media and preview warnings, one line each (rules_pet
	// writes "FILE: RULE: message (at POINTER)", petpackbuild.WarningLine).
	TimingWarnings []string `json:"timing_warnings,omitempty"`
	Warnings       []string `json:"warnings,omitempty"`
	// Generator, Provenance, SkillHelper and PreviewOnly restate
	// source.json's.
	Generator   string `json:"generator,omitempty"`
	Provenance  string `json:"provenance,omitempty"`
	SkillHelper string `json:"skill_helper,omitempty"`
	PreviewOnly *bool  `json:"preview_only,omitempty"`
	// Skipped says what validation did not cover.
	Skipped string `json:"skipped,omitempty"`
	// RepairedBy and MaterializedBy name tools that changed the package.
	RepairedBy     string `json:"repaired_by,omitempty"`
	MaterializedBy string `json:"materialized_by,omitempty"`
	// ContentSHA256 is a lower-case hex SHA-256 the producer recorded.
	ContentSHA256 string `json:"content_sha256,omitempty"`
	// Extensions holds producer data under reverse-domain keys.
	Extensions Extensions `json:"extensions,omitempty"`
}

// FrameCounts is one frame count per fixed action (stateFrameCounts).
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

// CountsOf returns each action's frame count by the manifest's durations.
func CountsOf(m *Manifest) FrameCounts {
	var f FrameCounts
	for _, s := range m.States {
		f.Set(s.Name, len(s.FrameDurationsMS))
	}
	return f
}

// Total is the sum of the counts.
func (f FrameCounts) Total() int {
	n := 0
	for _, a := range Actions() {
		n += f.Of(a)
	}
	return n
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
