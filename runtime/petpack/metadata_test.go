package petpack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// testMeta is the four metadata documents of a test package, typed so a
// fixture can change one field and stay otherwise valid.
type testMeta struct {
	src    Source
	brf    Brief
	events []SourceEvent
	val    ValidationReport
}

// metadataFor is metadata agreeing with manifestValue(states) and the
// frames packageDrawn writes: skill-full-source, no references.
func metadataFor(states []State) *testMeta {
	mt := &testMeta{}
	total := 0
	var counts FrameCounts
	for _, s := range states {
		n := len(s.FrameDurationsMS)
		total += n
		mt.src.States = append(mt.src.States, SourceState{
			Name: s.Name, FrameCount: n, FrameDurationsMS: s.FrameDurationsMS,
			Playback: s.Playback, ReducedMotionFrameIndex: s.ReducedMotionFrameIndex,
		})
		counts.Set(s.Name, n)
	}
	mt.src = Source{
		SchemaVersion: SourceSchemaVersion, ID: "pet_test01", Name: "Test Cat", Style: "flat pixel art",
		Quality: QualityLow, RenderSize: Size{192, 208},
		Generator:  Generator{"agent-pet-maker", "3.0.0"},
		Provenance: ProvenanceSkillFullSource, VisualSource: &VisualSource{Kind: "image_generation"},
		States: mt.src.States, TotalFrameCount: total, References: []Reference{},
	}
	mt.brf = Brief{
		SchemaVersion: BriefSchemaVersion, ID: "pet_test01", Name: "Test Cat", Style: "flat pixel art",
		Quality: QualityLow, Description: "A small orange cat.", References: []string{},
	}
	for i, t := range []EventType{EventStarted, EventGenerated, EventReviewed, EventValidated, EventCompleted} {
		e := SourceEvent{SchemaVersion: SourceEventSchemaVersion, Sequence: i + 1, Type: t}
		if t == EventGenerated {
			e.State = ActionIdle
		}
		mt.events = append(mt.events, e)
	}
	mt.val = ValidationReport{
		SchemaVersion: ValidationSchemaVersion, OK: true, Validator: Generator{"petasset", "1.0.0"},
		PetID: "pet_test01", FrameCounts: counts, TotalFrameCount: total, Warnings: []Rule{}, References: []string{},
	}
	return mt
}

func (mt *testMeta) source() []byte     { return encodeJSON(mt.src) }
func (mt *testMeta) brief() []byte      { return encodeJSON(mt.brf) }
func (mt *testMeta) validation() []byte { return encodeJSON(mt.val) }

// session is one compact record per line, as JSONL requires.
func (mt *testMeta) session() []byte {
	var b []byte
	for _, e := range mt.events {
		line, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		b = append(append(b, line...), '\n')
	}
	return b
}

// withMeta returns the valid package with its metadata edited through the
// typed documents.
func withMeta(edit func(mt *testMeta)) pkg {
	mt := metadataFor(DefaultStates())
	edit(mt)
	return validPackage().
		with(sourcePath, mt.source()).with(briefPath, mt.brief()).
		with(sessionPath, mt.session()).with(validationPath, mt.validation())
}

// withDoc returns p with one JSON document edited as a generic value, for
// faults the Go types cannot express (unknown fields, wrong types).
func (p pkg) withDoc(name string, edit func(m jmap)) pkg {
	var m jmap
	if err := json.Unmarshal(p.get(name), &m); err != nil {
		panic(err)
	}
	edit(m)
	return p.with(name, encodeJSON(m))
}

// withReference adds a file under source/references/ and lists it in all
// three inventories.
func withReference(name string, data []byte) pkg {
	sum := sha256.Sum256(data)
	return withMeta(func(mt *testMeta) {
		mt.src.References = append(mt.src.References, Reference{name, int64(len(data)), hex.EncodeToString(sum[:])})
		mt.brf.References = append(mt.brf.References, name)
		mt.val.References = append(mt.val.References, name)
	}).with(referencesDir+"/"+name, data)
}

// validMetadataCases are packages whose metadata is valid in different
// ways; the schema test holds the published JSON Schemas against them too.
func validMetadataCases() []struct {
	name string
	p    pkg
} {
	return []struct {
		name string
		p    pkg
	}{
		{"defaults", validPackage()},
		{"one reference", withReference("cat.png", []byte("not really a png"))},
		{"nested reference", withReference("sketches/cat-2.png", []byte("x"))},
		{"extensions", validPackage().withDoc(briefPath, func(m jmap) {
			m["extensions"] = jmap{"com.example.tool": jmap{"anything": []int{1, 2}}}
		})},
		{"preview provenance", withMeta(func(mt *testMeta) {
			mt.src.Provenance, mt.src.PreviewOnly, mt.src.VisualSource = ProvenanceSkillPreview, true, nil
		})},
		{"deterministic provenance", withMeta(func(mt *testMeta) {
			mt.src.Provenance, mt.src.VisualSource = ProvenanceDeterministic, nil
		})},
		{"states in another order", withMeta(func(mt *testMeta) {
			s := mt.src.States
			s[0], s[8] = s[8], s[0]
		})},
		{"CRLF session log", validPackage().with(sessionPath, []byte(strings.ReplaceAll(string(metadataFor(DefaultStates()).session()), "\n", "\r\n")))},
	}
}

func TestValidMetadata(t *testing.T) {
	for _, tc := range validMetadataCases() {
		t.Run(tc.name, func(t *testing.T) {
			if v := validateBytes(rawZip(tc.p)); !v.OK() {
				t.Fatalf("rejected:\n%s", describeVerdict(v))
			}
		})
	}
}

// metadataCase is a package that breaks one metadata rule alone, and where
// the finding must point.
type metadataCase struct {
	name    string
	p       pkg
	rule    Rule
	path    string
	pointer string
}

// metadataRuleCases is the fixture of every stage-5 rule but privacy; the
// schema test holds the published JSON Schemas against the same fixtures.
func metadataRuleCases() []metadataCase {
	ev := func(i int, edit func(e *SourceEvent)) pkg {
		return withMeta(func(mt *testMeta) { edit(&mt.events[i]) })
	}
	return []metadataCase{
		{"source not JSON", validPackage().with(sourcePath, []byte("{")), RuleMetadataMalformed, sourcePath, ""},
		{"brief an array", validPackage().with(briefPath, []byte("[]")), RuleMetadataMalformed, briefPath, ""},
		{"brief not UTF-8", validPackage().with(briefPath, []byte("{\"name\":\"\xff\"}")), RuleMetadataMalformed, briefPath, ""},
		{"validation over the bound", validPackage().with(validationPath, append([]byte(`{"x":"`), make([]byte, MaxManifestBytes)...)), RuleMetadataMalformed, validationPath, ""},
		{"empty line in the session", validPackage().with(sessionPath, []byte(strings.Replace(string(metadataFor(DefaultStates()).session()), "\n", "\n\n", 1))), RuleMetadataMalformed, sessionPath + ":2", ""},
		{"duplicate key", validPackage().with(briefPath, []byte(strings.Replace(string(validPackage().get(briefPath)), `"id": "pet_test01",`, `"id": "pet_test01", "id": "pet_other",`, 1))), RuleMetadataDuplicateKey, briefPath, "/id"},
		{"untagged source", validPackage().withDoc(sourcePath, func(m jmap) { delete(m, "schema_version") }), RuleMetadataSchemaVersion, sourcePath, "/schema_version"},
		{"newer validation", validPackage().withDoc(validationPath, func(m jmap) { m["schema_version"] = "apc.pet-validation.v2" }), RuleMetadataSchemaVersion, validationPath, "/schema_version"},
		{"event of the wrong schema", validPackage().with(sessionPath, []byte(strings.Replace(string(metadataFor(DefaultStates()).session()), SourceEventSchemaVersion, BriefSchemaVersion, 1))), RuleMetadataSchemaVersion, sessionPath + ":1", "/schema_version"},
		{"unknown top field", validPackage().withDoc(briefPath, func(m jmap) { m["fps"] = 12 }), RuleMetadataUnknownField, briefPath, "/fps"},
		{"unknown nested field", validPackage().withDoc(sourcePath, func(m jmap) { m["generator"].(jmap)["build"] = "x" }), RuleMetadataUnknownField, sourcePath, "/generator/build"},
		{"case-folded field", validPackage().withDoc(validationPath, func(m jmap) { m["OK"] = true }), RuleMetadataUnknownField, validationPath, "/OK"},
		{"ok a string", validPackage().withDoc(validationPath, func(m jmap) { m["ok"] = "true" }), RuleMetadataFieldType, validationPath, "/ok"},
		{"fractional count", validPackage().withDoc(sourcePath, func(m jmap) { m["total_frame_count"] = 50.5 }), RuleMetadataFieldType, sourcePath, "/total_frame_count"},
		{"null references", validPackage().withDoc(briefPath, func(m jmap) { m["references"] = nil }), RuleMetadataFieldType, briefPath, "/references"},
		{"no description", validPackage().withDoc(briefPath, func(m jmap) { delete(m, "description") }), RuleMetadataFieldMissing, briefPath, "/description"},
		{"no preview_only", validPackage().withDoc(sourcePath, func(m jmap) { delete(m, "preview_only") }), RuleMetadataFieldMissing, sourcePath, "/preview_only"},
		{"no event type", validPackage().with(sessionPath, []byte(strings.Replace(string(metadataFor(DefaultStates()).session()), `,"type":"started"`, "", 1))), RuleMetadataFieldMissing, sessionPath + ":1", "/type"},
		{"bundled provenance", withMeta(func(mt *testMeta) { mt.src.Provenance = "bundled" }), RuleMetadataValueInvalid, sourcePath, "/provenance"},
		{"unknown event type", ev(2, func(e *SourceEvent) { e.Type = "chatted" }), RuleMetadataValueInvalid, sessionPath + ":3", "/type"},
		{"blank description", withMeta(func(mt *testMeta) { mt.brf.Description = " \n" }), RuleMetadataValueInvalid, briefPath, "/description"},
		{"short digest", func() pkg {
			p := withReference("cat.png", []byte("x"))
			return p.withDoc(sourcePath, func(m jmap) { m["references"].([]interface{})[0].(jmap)["sha256"] = "abc" })
		}(), RuleMetadataValueInvalid, sourcePath, "/references/0/sha256"},
		{"eight states", withMeta(func(mt *testMeta) { mt.src.States = mt.src.States[:8] }), RuleMetadataValueInvalid, sourcePath, "/states"},
		{"unknown warning", withMeta(func(mt *testMeta) { mt.val.Warnings = []Rule{RuleNameBlank} }), RuleMetadataValueInvalid, validationPath, "/warnings/0"},
		{"extension key", withMeta(func(mt *testMeta) { mt.brf.Extensions = Extensions{"Example": json.RawMessage(`{}`)} }), RuleMetadataExtensionInvalid, briefPath, "/extensions/Example"},
		{"extension not an object", withMeta(func(mt *testMeta) { mt.src.Extensions = Extensions{"com.example.tool": json.RawMessage(`"x"`)} }), RuleMetadataExtensionInvalid, sourcePath, "/extensions/com.example.tool"},
		{"empty prompt", validPackage().with(promptPath, []byte(" \n")), RulePromptEmpty, promptPath, ""},
		{"binary prompt", validPackage().with(promptPath, []byte("cat\xfe")), RulePromptNotUTF8, promptPath, ""},
		{"source id", withMeta(func(mt *testMeta) { mt.src.ID = "pet_other" }), RuleMetadataIDMismatch, sourcePath, "/id"},
		{"validation pet id", withMeta(func(mt *testMeta) { mt.val.PetID = "pet_other" }), RuleMetadataIDMismatch, validationPath, "/pet_id"},
		{"brief name", withMeta(func(mt *testMeta) { mt.brf.Name = "Other Cat" }), RuleMetadataNameMismatch, briefPath, "/name"},
		{"source style", withMeta(func(mt *testMeta) { mt.src.Style = "watercolour" }), RuleMetadataStyleMismatch, sourcePath, "/style"},
		{"brief quality", withMeta(func(mt *testMeta) { mt.brf.Quality = QualityStandard }), RuleMetadataQualityMismatch, briefPath, "/quality"},
		{"render size", withMeta(func(mt *testMeta) { mt.src.RenderSize = Size{384, 416} }), RuleMetadataRenderSizeMismatch, sourcePath, "/render_size"},
		{"durations", withMeta(func(mt *testMeta) { mt.src.States[1].FrameDurationsMS = []int{120, 140, 160, 190} }), RuleMetadataTimingMismatch, sourcePath, "/states/1/frame_durations_ms"},
		{"repeat", withMeta(func(mt *testMeta) { two := 2; mt.src.States[2].Playback.EntryRepeatCount = &two }), RuleMetadataTimingMismatch, sourcePath, "/states/2/playback"},
		{"reduced motion", withMeta(func(mt *testMeta) { mt.src.States[6].ReducedMotionFrameIndex = 0 }), RuleMetadataTimingMismatch, sourcePath, "/states/6/reduced_motion_frame_index"},
		{"a state twice", withMeta(func(mt *testMeta) { mt.src.States[8] = mt.src.States[7] }), RuleMetadataTimingMismatch, sourcePath, "/states/8/name"},
		{"state frame count", withMeta(func(mt *testMeta) { mt.src.States[0].FrameCount = 5 }), RuleMetadataFrameCountMismatch, sourcePath, "/states/0/frame_count"},
		{"validation frame count", withMeta(func(mt *testMeta) { mt.val.FrameCounts.DragRight = 7 }), RuleMetadataFrameCountMismatch, validationPath, "/frame_counts/drag_right"},
		{"source total", withMeta(func(mt *testMeta) { mt.src.TotalFrameCount = 49 }), RuleMetadataTotalFrameCountMismatch, sourcePath, "/total_frame_count"},
		{"validation total", withMeta(func(mt *testMeta) { mt.val.TotalFrameCount = 51 }), RuleMetadataTotalFrameCountMismatch, validationPath, "/total_frame_count"},
		{"traversal", func() pkg {
			p := withReference("cat.png", []byte("x"))
			return p.withDoc(sourcePath, func(m jmap) { m["references"].([]interface{})[0].(jmap)["path"] = "../cat.png" })
		}().withDoc(briefPath, func(m jmap) { m["references"] = []string{} }).withDoc(validationPath, func(m jmap) { m["references"] = []string{} }).without(referencesDir + "/cat.png"), RuleReferencePathInvalid, sourcePath, "/references/0/path"},
		{"listed twice", withReference("cat.png", []byte("x")).withDoc(sourcePath, func(m jmap) {
			r := m["references"].([]interface{})
			m["references"] = append(r, r[0])
		}), RuleReferencePathInvalid, sourcePath, "/references/1/path"},
		{"reference missing", withReference("cat.png", []byte("x")).without(referencesDir + "/cat.png"), RuleReferenceMissing, sourcePath, "/references/0/path"},
		{"reference unlisted", validPackage().with(referencesDir+"/dog.png", []byte("x")), RuleReferenceUnlisted, referencesDir + "/dog.png", ""},
		{"reference size", withReference("cat.png", []byte("x")).with(referencesDir+"/cat.png", []byte("xy")), RuleReferenceSizeMismatch, sourcePath, "/references/0/size"},
		{"reference digest", withReference("cat.png", []byte("x")).with(referencesDir+"/cat.png", []byte("y")), RuleReferenceDigestMismatch, sourcePath, "/references/0/sha256"},
		{"brief references", withMeta(func(mt *testMeta) { mt.brf.References = []string{"cat.png"} }), RuleReferenceListMismatch, briefPath, "/references"},
		{"validation references", withReference("cat.png", []byte("x")).withDoc(validationPath, func(m jmap) { m["references"] = []string{} }), RuleReferenceListMismatch, validationPath, "/references"},
		{"full source preview", withMeta(func(mt *testMeta) { mt.src.PreviewOnly = true }), RuleProvenancePreviewOnly, sourcePath, "/preview_only"},
		{"full source without source", withMeta(func(mt *testMeta) { mt.src.VisualSource = nil }), RuleProvenanceVisualSourceMissing, sourcePath, "/visual_source"},
		{"materializer with source", withMeta(func(mt *testMeta) { mt.src.Provenance = ProvenanceMaterializer }), RuleProvenanceVisualSourceForbidden, sourcePath, "/visual_source"},
		{"not ok", withMeta(func(mt *testMeta) { mt.val.OK = false }), RuleValidationNotOK, validationPath, "/ok"},
		{"sequence gap", ev(3, func(e *SourceEvent) { e.Sequence = 5 }), RuleEventSequenceInvalid, sessionPath + ":4", "/sequence"},
		{"no started", ev(0, func(e *SourceEvent) { e.Type = EventGenerated }), RuleEventLifecycleInvalid, sessionPath + ":1", "/type"},
		{"no completed", ev(4, func(e *SourceEvent) { e.Type = EventValidated }), RuleEventLifecycleInvalid, sessionPath + ":5", "/type"},
		{"started twice", ev(2, func(e *SourceEvent) { e.Type = EventStarted }), RuleEventLifecycleInvalid, sessionPath + ":3", "/type"},
		{"empty session", validPackage().with(sessionPath, []byte{}), RuleEventLifecycleInvalid, sessionPath, ""},
	}
}

// TestMetadataRules breaks each metadata rule alone in an otherwise valid
// package, and checks where the finding points.
func TestMetadataRules(t *testing.T) {
	for _, tc := range metadataRuleCases() {
		t.Run(tc.name, func(t *testing.T) {
			v := validateBytes(rawZip(tc.p))
			expectRules(t, v, tc.rule)
			f := v.Errors[0]
			if f.Path != tc.path || f.Pointer != tc.pointer || f.Rule.Stage() != StageMetadata {
				t.Errorf("finding %+v, want path %q pointer %q", f, tc.path, tc.pointer)
			}
		})
	}
}

// TestMetadataNeedsValidManifest: a manifest that broke a rule is not a
// yardstick, so only its own rule is reported, not a cascade of
// mismatches against it.
func TestMetadataNeedsValidManifest(t *testing.T) {
	p := validPackage().withManifest(func(m jmap) { m["name"] = " " })
	expectRules(t, validateBytes(rawZip(p)), RuleNameBlank)
}
