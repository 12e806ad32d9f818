package petpack

import "github.com/agentpet/rules_pet/runtime/petpack/model"

// The data model lives in package model, which a consumer can import without
// compiling the validator. The names below keep petpack's former spelling
// working for one release; new code imports model directly.

// Manifest is model.Manifest.
//
// Deprecated: use model.Manifest.
type Manifest = model.Manifest

// Size is model.Size.
//
// Deprecated: use model.Size.
type Size = model.Size

// Quality is model.Quality.
//
// Deprecated: use model.Quality.
type Quality = model.Quality

// Action is model.Action.
//
// Deprecated: use model.Action.
type Action = model.Action

// PlaybackMode is model.PlaybackMode.
//
// Deprecated: use model.PlaybackMode.
type PlaybackMode = model.PlaybackMode

// State is model.State.
//
// Deprecated: use model.State.
type State = model.State

// Playback is model.Playback.
//
// Deprecated: use model.Playback.
type Playback = model.Playback

// Extensions is model.Extensions.
//
// Deprecated: use model.Extensions.
type Extensions = model.Extensions

// Source is model.Source.
//
// Deprecated: use model.Source.
type Source = model.Source

// Form is model.Form.
//
// Deprecated: use model.Form.
type Form = model.Form

// Palette is model.Palette.
//
// Deprecated: use model.Palette.
type Palette = model.Palette

// Brief is model.Brief.
//
// Deprecated: use model.Brief.
type Brief = model.Brief

// Generation is model.Generation.
//
// Deprecated: use model.Generation.
type Generation = model.Generation

// StateBrief is model.StateBrief.
//
// Deprecated: use model.StateBrief.
type StateBrief = model.StateBrief

// BriefRuntime is model.BriefRuntime.
//
// Deprecated: use model.BriefRuntime.
type BriefRuntime = model.BriefRuntime

// SourceEvent is model.SourceEvent.
//
// Deprecated: use model.SourceEvent.
type SourceEvent = model.SourceEvent

// ValidationReport is model.ValidationReport.
//
// Deprecated: use model.ValidationReport.
type ValidationReport = model.ValidationReport

// FrameCounts is model.FrameCounts.
//
// Deprecated: use model.FrameCounts.
type FrameCounts = model.FrameCounts

// The model's constants, re-declared (deprecated: use package model's).
const (
	SchemaVersion            = model.SchemaVersion
	SourceSchemaVersion      = model.SourceSchemaVersion
	BriefSchemaVersion       = model.BriefSchemaVersion
	SourceEventSchemaVersion = model.SourceEventSchemaVersion
	ValidationSchemaVersion  = model.ValidationSchemaVersion

	MediaType     = model.MediaType
	UTI           = model.UTI
	UTIConformsTo = model.UTIConformsTo
	Extension     = model.Extension

	QualityLow      = model.QualityLow
	QualityStandard = model.QualityStandard
	QualityHigh     = model.QualityHigh

	ActionIdle        = model.ActionIdle
	ActionThinking    = model.ActionThinking
	ActionTool        = model.ActionTool
	ActionWaiting     = model.ActionWaiting
	ActionDone        = model.ActionDone
	ActionFailed      = model.ActionFailed
	ActionAcknowledge = model.ActionAcknowledge
	ActionDragLeft    = model.ActionDragLeft
	ActionDragRight   = model.ActionDragRight

	ModeLoop            = model.ModeLoop
	ModePeriodic        = model.ModePeriodic
	ModeBurstThenSettle = model.ModeBurstThenSettle
	ModeBurstThenIdle   = model.ModeBurstThenIdle
	ModeOnceThenReturn  = model.ModeOnceThenReturn
)

// Actions is model.Actions.
//
// Deprecated: use model.Actions.
func Actions() []Action { return model.Actions() }

// DefaultStates is model.DefaultStates.
//
// Deprecated: use model.DefaultStates.
func DefaultStates() []State { return model.DefaultStates() }

// NaturalLess is model.NaturalLess.
//
// Deprecated: use model.NaturalLess.
func NaturalLess(a, b string) bool { return model.NaturalLess(a, b) }

// HasExtension is model.HasExtension.
//
// Deprecated: use model.HasExtension.
func HasExtension(name string) bool { return model.HasExtension(name) }

// CountsOf is model.CountsOf.
//
// Deprecated: use model.CountsOf.
func CountsOf(m *Manifest) FrameCounts { return model.CountsOf(m) }
