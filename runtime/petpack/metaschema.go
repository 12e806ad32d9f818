package petpack

import (
	js "github.com/agentpet/rules_pet/internal/jsonschema"
)

// The four Safe Producer schemas of section 7, as the contract's authors
// publish them (V3: nine actions, the five playback modes, quality high),
// one declarative description each. They drive the validator, the files in
// the repository's schemas/ directory and schemas/README.md, so what is
// published is what is enforced. Definitions shared by several schemas are
// one Go value each.

// str is a string schema with the given bounds and pattern.
func str(minLen, maxLen int, pattern string) *js.Schema {
	return &js.Schema{Type: []string{"string"}, MinLength: minLen, MaxLength: maxLen, Pattern: pattern}
}

// integer is an integer schema with inclusive bounds.
func integer(min, max int64) *js.Schema {
	return &js.Schema{Type: []string{"integer"}, Minimum: js.Int(min), Maximum: js.Int(max)}
}

func enum(values ...string) *js.Schema {
	out := make([]interface{}, len(values))
	for i, v := range values {
		out[i] = v
	}
	return &js.Schema{Enum: out}
}

func constant(v interface{}) *js.Schema { return &js.Schema{Const: v, HasConst: true} }

func required(names ...string) *js.Schema { return &js.Schema{Required: names} }

func prop(name string, s *js.Schema) js.Property { return js.Property{Name: name, Schema: s} }

// ifConst is {"if": {"properties": {field: {"const": v}}, "required":
// [field]}, "then": then}: the schemas' form of "when field is v".
func ifConst(field string, v interface{}, then *js.Schema) *js.Schema {
	return &js.Schema{
		If:   &js.Schema{Properties: []js.Property{prop(field, constant(v))}, Required: []string{field}},
		Then: then,
	}
}

// forbidAny is {"not": {"anyOf": [{"required": [a]}, ...]}}; one name is
// {"not": {"required": [a]}}.
func forbidAny(names ...string) *js.Schema {
	if len(names) == 1 {
		return required(names[0])
	}
	n := &js.Schema{}
	for _, name := range names {
		n.AnyOf = append(n.AnyOf, required(name))
	}
	return n
}

const (
	idPattern        = `^pet_[a-z0-9]+$`
	nonBlank         = `\S`
	extensionPattern = `^[a-z0-9]+(?:[.-][a-z0-9]+)+(?:/[A-Za-z0-9._-]+)?$`
	traversal        = `(^|/)\.\.(/|$)`
)

var (
	defBoundedText = &js.Schema{Name: "boundedText", Type: []string{"string"}, MinLength: 1, MaxLength: 96, Pattern: nonBlank}
	defStateName   = &js.Schema{Name: "stateName", Enum: enum(actionNames()...).Enum}
	defRGBA        = &js.Schema{Name: "rgba", Type: []string{"array"}, MinItems: 4, MaxItems: 4, Items: integer(0, 255)}

	defFrameDurations = &js.Schema{Name: "frameDurations", Type: []string{"array"}, MinItems: 2, MaxItems: MaxFramesPerState,
		Items: integer(50, 2000)}

	defPlayback = &js.Schema{
		Name: "playback", Type: []string{"object"}, Closed: true, Required: []string{"mode"},
		Properties: []js.Property{
			prop("mode", enum(string(ModeLoop), string(ModePeriodic), string(ModeBurstThenSettle), string(ModeBurstThenIdle), string(ModeOnceThenReturn))),
			prop(fieldRepeat, integer(1, 8)),
			prop(fieldSettle, integer(0, MaxFramesPerState-1)),
			prop(fieldCooldown, &js.Schema{Type: []string{"array"}, MinItems: 2, MaxItems: 2, Items: integer(0, maxCooldownMS)}),
		},
		AllOf: []*js.Schema{
			ifConst("mode", string(ModeLoop), &js.Schema{Not: forbidAny(fieldRepeat, fieldSettle, fieldCooldown)}),
			ifConst("mode", string(ModePeriodic), &js.Schema{Required: []string{fieldCooldown}, Not: forbidAny(fieldRepeat, fieldSettle)}),
			ifConst("mode", string(ModeBurstThenSettle), &js.Schema{Required: []string{fieldRepeat, fieldSettle}, Not: forbidAny(fieldCooldown)}),
			ifConst("mode", string(ModeBurstThenIdle), &js.Schema{Required: []string{fieldRepeat}, Not: forbidAny(fieldSettle, fieldCooldown)}),
			ifConst("mode", string(ModeOnceThenReturn), &js.Schema{Not: forbidAny(fieldRepeat, fieldSettle, fieldCooldown)}),
		},
	}

	defManifestState = &js.Schema{
		Name: "manifestState", Type: []string{"object"}, Closed: true,
		Required: []string{"name", "frames_dir", "frame_durations_ms", "playback", "reduced_motion_frame_index"},
		Properties: []js.Property{
			prop("name", defStateName),
			prop("frames_dir", str(1, 240, "")),
			prop("frame_durations_ms", defFrameDurations),
			prop("playback", defPlayback),
			prop("reduced_motion_frame_index", integer(0, MaxFramesPerState-1)),
		},
	}

	defStateFrameCounts = func() *js.Schema {
		s := &js.Schema{Name: "stateFrameCounts", Type: []string{"object"}, Closed: true, Required: actionNames()}
		for _, a := range actionNames() {
			s.Properties = append(s.Properties, prop(a, integer(2, MaxFramesPerState)))
		}
		return s
	}()

	defReferencePath = &js.Schema{
		Name: "referencePath", Type: []string{"string"}, MinLength: 1, MaxLength: 240,
		AnyOf: []*js.Schema{
			{Pattern: `^source/references/[A-Za-z0-9][A-Za-z0-9._/-]*$`},
			{Pattern: `^[A-Za-z0-9][A-Za-z0-9._-]*$`},
		},
		Not: &js.Schema{Pattern: traversal},
	}

	defRenderSizeShape = &js.Schema{
		Name: "renderSizeShape", Type: []string{"object"}, Closed: true, Required: []string{"width", "height"},
		Properties: []js.Property{
			prop("width", &js.Schema{Type: []string{"integer"}}),
			prop("height", &js.Schema{Type: []string{"integer"}}),
		},
	}
	defLowSize      = sizeDef("lowSize", QualityLow)
	defStandardSize = sizeDef("standardSize", QualityStandard)
	defHighSize     = sizeDef("highSize", QualityHigh)
	defRenderSize   = &js.Schema{Name: "renderSize", OneOf: []*js.Schema{defLowSize, defStandardSize, defHighSize}}
)

func sizeDef(name string, q Quality) *js.Schema {
	size, _ := q.RenderSize()
	return &js.Schema{Name: name, Ref: defRenderSizeShape, Properties: []js.Property{
		prop("width", constant(size.Width)),
		prop("height", constant(size.Height)),
	}}
}

// sizeForQuality is the three "if quality is Q then PATH.render_size is
// Q's size" clauses; wrap builds the then-schema around the size.
func sizeForQuality(wrap func(size *js.Schema) *js.Schema) []*js.Schema {
	return []*js.Schema{
		ifConst("quality", string(QualityLow), wrap(defLowSize)),
		ifConst("quality", string(QualityStandard), wrap(defStandardSize)),
		ifConst("quality", string(QualityHigh), wrap(defHighSize)),
	}
}

func extensions(max int) *js.Schema {
	return &js.Schema{Type: []string{"object"}, MaxProperties: max, PropertyNames: &js.Schema{Pattern: extensionPattern}}
}

func qualityEnum() *js.Schema {
	return enum(string(QualityLow), string(QualityStandard), string(QualityHigh))
}

func referenceList() *js.Schema {
	return &js.Schema{Type: []string{"array"}, MaxItems: 4, UniqueItems: true, Items: defReferencePath}
}

func stateList() *js.Schema {
	return &js.Schema{Type: []string{"array"}, MinItems: 9, MaxItems: 9, Items: defManifestState}
}

// visualSources are source.json's visual_source values; the first two are
// the full visual sources skill-full-source requires (section 7).
var visualSources = []string{
	"image-generation", "user-reference-derived", "reference-image", "generated-vector",
	"deterministic-preview", "manual", "unknown",
}

// ProvenanceSkillFullSource is the provenance of the trusted profile
// (section 7): it requires a full visual source, preview_only false, the
// complete timing metadata and exact frame counts, and the media gate's
// coverage and duplicate warnings become errors.
const ProvenanceSkillFullSource = "skill-full-source"

var sourceSchema = &js.Schema{
	Type: []string{"object"}, Closed: true,
	Required: []string{"schema_version", "generator", "provenance"},
	Properties: []js.Property{
		prop("schema_version", constant(SourceSchemaVersion)),
		prop("generator", defBoundedText),
		prop("provenance", defBoundedText),
		prop("created_at", &js.Schema{Type: []string{"string"}, Format: "date-time"}),
		prop("manifest_id", str(0, 128, idPattern)),
		prop("pet_name", str(1, 160, nonBlank)),
		prop("style", str(1, 240, nonBlank)),
		prop("quality", qualityEnum()),
		prop("visual_source", enum(visualSources...)),
		prop("states", stateList()),
		prop("state_frame_counts", defStateFrameCounts),
		prop("preview_only", &js.Schema{Type: []string{"boolean"}}),
		prop("reference_visual_influence", &js.Schema{Type: []string{"boolean"}}),
		prop("form", &js.Schema{Type: []string{"object"}, Closed: true, Properties: []js.Property{
			prop("description", str(0, 8000, "")),
			prop("style", str(0, 1000, "")),
			prop("quality", qualityEnum()),
			prop("reference_images", referenceList()),
		}}),
		prop("reference_files", referenceList()),
		prop("input_reference_count", integer(0, 4)),
		prop("copied_reference_count", integer(0, 4)),
		prop("ai_brief", &js.Schema{Type: []string{"object", "null"}, MaxProperties: 64}),
		prop("palette_source", str(1, 96, "")),
		prop("palette", &js.Schema{
			Type: []string{"object"}, Closed: true, Required: []string{"hair", "skin", "body", "accent", "source"},
			Properties: []js.Property{
				prop("hair", defRGBA), prop("skin", defRGBA), prop("body", defRGBA), prop("accent", defRGBA),
				prop("source", str(1, 96, "")),
			},
		}),
		prop("skill_helper", defBoundedText),
		prop("runner", defBoundedText),
		prop("materialized_by", defBoundedText),
		prop("base_manifest_id", str(0, 128, idPattern)),
		prop("base_revision", &js.Schema{Type: []string{"integer"}, Minimum: js.Int(1)}),
		prop("changed_states", &js.Schema{Type: []string{"array"}, MaxItems: 9, UniqueItems: true, Items: defStateName}),
		prop("extensions", extensions(32)),
	},
	AllOf: []*js.Schema{
		ifConst("provenance", ProvenanceSkillFullSource, &js.Schema{
			Required: []string{"visual_source", "states", "state_frame_counts", "preview_only"},
			Properties: []js.Property{
				prop("visual_source", enum(visualSources[0], visualSources[1])),
				prop("preview_only", constant(false)),
			},
			Not: required("materialized_by"),
		}),
	},
}

// stateBriefFor is the $defs entry that picks out action a's brief by name
// or state.
func stateBriefFor(name string, a Action) *js.Schema {
	return &js.Schema{Name: name, Type: []string{"object"}, AnyOf: []*js.Schema{
		{Properties: []js.Property{prop("name", constant(string(a)))}, Required: []string{"name"}},
		{Properties: []js.Property{prop("state", constant(string(a)))}, Required: []string{"state"}},
	}}
}

var briefDefNames = map[Action]string{
	ActionIdle: "idleBrief", ActionThinking: "thinkingBrief", ActionTool: "toolBrief", ActionWaiting: "waitingBrief",
	ActionDone: "doneBrief", ActionFailed: "failedBrief", ActionAcknowledge: "acknowledgeBrief",
	ActionDragLeft: "dragLeftBrief", ActionDragRight: "dragRightBrief",
}

var defStateBrief = &js.Schema{
	Name: "stateBrief", Type: []string{"object"}, Closed: true,
	Required: []string{"motion", "frame_durations_ms", "playback", "reduced_motion_frame_index"},
	Properties: []js.Property{
		prop("name", defStateName),
		prop("state", defStateName),
		prop("label", str(1, 120, "")),
		prop("motion", str(1, 2000, nonBlank)),
		prop("frame_durations_ms", defFrameDurations),
		prop("playback", defPlayback),
		prop("reduced_motion_frame_index", integer(0, MaxFramesPerState-1)),
	},
	OneOf: []*js.Schema{
		{Required: []string{"name"}, Not: required("state")},
		{Required: []string{"state"}, Not: required("name")},
	},
}

var briefSchema = &js.Schema{
	Type: []string{"object"}, Closed: true,
	Required: []string{"schema_version", "name", "style", "quality", "states"},
	Properties: []js.Property{
		prop("schema_version", constant(BriefSchemaVersion)),
		prop("name", str(1, 160, nonBlank)),
		prop("style", str(1, 1000, nonBlank)),
		prop("quality", qualityEnum()),
		prop("description", &js.Schema{Type: []string{"string", "null"}, MaxLength: 8000}),
		prop("generation", &js.Schema{
			Type: []string{"object"}, Closed: true, Required: []string{"generator", "provenance"},
			Properties: []js.Property{
				prop("generator", defBoundedText),
				prop("provenance", defBoundedText),
				prop("skill_helper", defBoundedText),
				prop("preview_only", &js.Schema{Type: []string{"boolean"}}),
			},
		}),
		prop("ai_brief", &js.Schema{Type: []string{"object", "null"}, MaxProperties: 64}),
		prop("visual_brief", str(0, 8000, "")),
		prop("render_notes", str(0, 8000, "")),
		prop("palette", &js.Schema{Type: []string{"array"}, MaxItems: 32, Items: &js.Schema{AnyOf: []*js.Schema{
			str(1, 160, ""),
			{Type: []string{"object"}, MaxProperties: 8},
		}}}),
		prop("references", referenceList()),
		prop("states", func() *js.Schema {
			s := &js.Schema{Type: []string{"array"}, MinItems: 9, MaxItems: 9, Items: defStateBrief}
			for _, a := range Actions() {
				s.AllOf = append(s.AllOf, &js.Schema{Contains: stateBriefFor(briefDefNames[a], a), MinContains: js.Count(1), MaxContains: js.Count(1)})
			}
			return s
		}()),
		prop("runtime", &js.Schema{
			Type: []string{"object"}, Closed: true, Required: []string{"states", "state_frame_counts", "render_size"},
			Properties: []js.Property{
				prop("states", stateList()),
				prop("state_frame_counts", defStateFrameCounts),
				prop("render_size", defRenderSize),
			},
		}),
		prop("extensions", extensions(32)),
	},
	AllOf: sizeForQuality(func(size *js.Schema) *js.Schema {
		return &js.Schema{Properties: []js.Property{prop("runtime", &js.Schema{Properties: []js.Property{prop("render_size", size)}})}}
	}),
}

var eventSchema = &js.Schema{
	Type: []string{"object"}, Closed: true,
	Required: []string{"schema_version", "event"},
	Properties: []js.Property{
		prop("schema_version", constant(SourceEventSchemaVersion)),
		prop("event", str(0, 0, `^[a-z][a-z0-9_.-]{0,63}$`)),
		prop("created_at", &js.Schema{Type: []string{"string"}, Format: "date-time"}),
		prop("skill", defBoundedText),
		prop("runner", defBoundedText),
		prop("helper", defBoundedText),
		prop("generator", defBoundedText),
		prop("provenance", defBoundedText),
		prop("materializer", defBoundedText),
		prop("manifest_id", str(0, 128, idPattern)),
		prop("petpack_source", &js.Schema{Type: []string{"string"}, MinLength: 1, MaxLength: 240,
			Pattern: `^[A-Za-z0-9][A-Za-z0-9._/-]*$`, Not: &js.Schema{Pattern: traversal}}),
		prop("name", str(1, 160, nonBlank)),
		prop("style", str(1, 240, nonBlank)),
		prop("quality", qualityEnum()),
		prop("render_size", defRenderSize),
		prop("states", &js.Schema{Type: []string{"array"}, MaxItems: 9, UniqueItems: true, Items: defStateName}),
		prop("changed_states", &js.Schema{Type: []string{"array"}, MaxItems: 9, UniqueItems: true, Items: defStateName}),
		prop("state_timings", stateList()),
		prop("state_frame_counts", defStateFrameCounts),
		prop("completed", &js.Schema{Type: []string{"boolean"}}),
		prop("validation_ok", &js.Schema{Type: []string{"boolean"}}),
		prop("reference_count", integer(0, 4)),
		prop("extensions", extensions(16)),
	},
	AllOf: append([]*js.Schema{
		ifConst("event", EventStatesRendered, required("states", "state_timings", "state_frame_counts")),
	}, sizeForQuality(func(size *js.Schema) *js.Schema {
		return &js.Schema{Properties: []js.Property{prop("render_size", size)}}
	})...),
}

// EventStatesRendered is the session event that records the rendered
// states; its states, state_timings and state_frame_counts are required and
// must equal the manifest's.
const EventStatesRendered = "states.rendered"

var validationSchema = &js.Schema{
	Type: []string{"object"}, Closed: true,
	Required: []string{"schema_version", "ok"},
	Properties: []js.Property{
		prop("schema_version", constant(ValidationSchemaVersion)),
		prop("ok", constant(true)),
		prop("validator", defBoundedText),
		prop("validator_version", str(1, 64, nonBlank)),
		prop("validated_at", &js.Schema{Type: []string{"string"}, Format: "date-time"}),
		prop("manifest_id", str(0, 128, idPattern)),
		prop("manifest", &js.Schema{Type: []string{"object"}}),
		prop("frame_count", integer(12, MaxSchemaFrameCount)),
		prop("states", stateList()),
		prop("state_frame_counts", defStateFrameCounts),
		prop("timing_warnings", warningList()),
		prop("warnings", warningList()),
		prop("generator", defBoundedText),
		prop("provenance", defBoundedText),
		prop("skill_helper", defBoundedText),
		prop("preview_only", &js.Schema{Type: []string{"boolean"}}),
		prop("skipped", str(1, 500, "")),
		prop("repaired_by", defBoundedText),
		prop("materialized_by", defBoundedText),
		prop("content_sha256", str(0, 0, `^[a-f0-9]{64}$`)),
		prop("extensions", extensions(16)),
	},
	AllOf: []*js.Schema{
		ifConst("ok", true, required("frame_count", "states", "state_frame_counts")),
	},
}

// MaxSchemaFrameCount is pet-validation.schema.json's bound on frame_count:
// 240 frames, below section 11's 360-frame budget. Every V3 package passes
// the schemas, so a valid package holds at most 240 frames; the budget
// stays the container stage's early bound.
const MaxSchemaFrameCount = 240

func warningList() *js.Schema {
	return &js.Schema{Type: []string{"array"}, MaxItems: 128, Items: str(1, 1000, "")}
}

// metaDocument is one of the four metadata documents: its package path,
// schema identity, schema and the file it is published as.
type metaDocument struct {
	path    string
	version string
	file    string // under schemas/
	title   string
	schema  *js.Schema
}

var (
	sourceDoc     = metaDocument{sourcePath, SourceSchemaVersion, "pet-source.schema.json", "source/source.json", sourceSchema}
	briefDoc      = metaDocument{briefPath, BriefSchemaVersion, "pet-brief.schema.json", "brief.json", briefSchema}
	eventDoc      = metaDocument{sessionPath, SourceEventSchemaVersion, "pet-source-event.schema.json", "one record of source/skill_session.jsonl", eventSchema}
	validationDoc = metaDocument{validationPath, ValidationSchemaVersion, "pet-validation.schema.json", "build/validation.json", validationSchema}

	metaDocuments = []*metaDocument{&sourceDoc, &briefDoc, &eventDoc, &validationDoc}
)

// Document returns the published JSON Schema of the metadata document
// (source/source.json, brief.json, source/skill_session.jsonl, whose each
// record it describes, or build/validation.json), or nil for another path.
func Document(path string) *js.Document {
	for _, d := range metaDocuments {
		if d.path == path {
			return &js.Document{
				ID:    "https://github.com/agentpet/rules_pet/schemas/" + d.file,
				Title: d.version + ": " + d.title + " (.petpack V3 Safe Producer, contract section 7)",
				Root:  d.schema,
			}
		}
	}
	return nil
}

// SchemaFiles maps each published schema file name to its document's
// package path, in the contract's order.
func SchemaFiles() [][2]string {
	out := make([][2]string, len(metaDocuments))
	for i, d := range metaDocuments {
		out[i] = [2]string{d.file, d.path}
	}
	return out
}

func actionNames() []string {
	out := make([]string, len(Actions()))
	for i, a := range Actions() {
		out[i] = string(a)
	}
	return out
}
