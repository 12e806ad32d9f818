package petpack

import (
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

func boolPtr(b bool) *bool { return &b }
func intPtr(n int) *int    { return &n }

// metadataFor is metadata agreeing with manifestValue(states) and the
// frames packageDrawn writes, shaped like the contract authors' maker
// writes it: skill-full-source from image generation, no references, and
// the session's form.read, brief.generated, states.rendered and
// petpack.validated events.
func metadataFor(states []State) *testMeta {
	counts := FrameCounts{}
	for _, s := range states {
		counts.Set(s.Name, len(s.FrameDurationsMS))
	}
	size := Size{Width: 192, Height: 208}
	mt := &testMeta{}
	mt.src = Source{
		SchemaVersion: SourceSchemaVersion, Generator: "agent-pet-maker", Provenance: ProvenanceSkillFullSource,
		CreatedAt: "2025-01-02T03:04:05Z", ManifestID: "pet_test01", PetName: "Test Cat", Style: "flat pixel art",
		Quality: QualityLow, VisualSource: "image-generation", States: states, StateFrameCounts: &counts,
		PreviewOnly: boolPtr(false),
	}
	mt.brf = Brief{
		SchemaVersion: BriefSchemaVersion, Name: "Test Cat", Style: "flat pixel art", Quality: QualityLow,
		Generation: &Generation{Generator: "agent-pet-maker", Provenance: ProvenanceSkillFullSource},
		Runtime:    &BriefRuntime{States: states, StateFrameCounts: counts, RenderSize: size},
	}
	for _, s := range states {
		mt.brf.States = append(mt.brf.States, StateBrief{
			Name: s.Name, Motion: "The cat moves for " + string(s.Name) + ".",
			FrameDurationsMS: s.FrameDurationsMS, Playback: s.Playback, ReducedMotionFrameIndex: s.ReducedMotionFrameIndex,
		})
	}
	names := make([]Action, len(states))
	for i, s := range states {
		names[i] = s.Name
	}
	mt.events = []SourceEvent{
		{SchemaVersion: SourceEventSchemaVersion, Event: "form.read", Skill: "agent-pet-maker", Quality: QualityLow, ReferenceCount: intPtr(0)},
		{SchemaVersion: SourceEventSchemaVersion, Event: "brief.generated", Name: "Test Cat", Style: "flat pixel art"},
		{SchemaVersion: SourceEventSchemaVersion, Event: EventStatesRendered, ManifestID: "pet_test01", States: names, StateTimings: states, StateFrameCounts: &counts},
		{SchemaVersion: SourceEventSchemaVersion, Event: "petpack.validated", ValidationOK: boolPtr(true)},
	}
	mt.val = ValidationReport{
		SchemaVersion: ValidationSchemaVersion, OK: true, Validator: "petcore", ManifestID: "pet_test01",
		FrameCount: counts.Total(), States: states, StateFrameCounts: counts,
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
func withMeta(edit func(mt *testMeta)) pkg { return withMetaOf(DefaultStates(), edit) }

// withMetaOf is withMeta on the package of other states.
func withMetaOf(states []State, edit func(mt *testMeta)) pkg {
	mt := metadataFor(states)
	edit(mt)
	return packageOf(states).
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

// withEvent returns p with record i of the session log edited as a
// generic value.
func (p pkg) withEvent(i int, edit func(m jmap)) pkg {
	lines := strings.SplitAfter(string(p.get(sessionPath)), "\n")
	var m jmap
	if err := json.Unmarshal([]byte(lines[i]), &m); err != nil {
		panic(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	lines[i] = string(b) + "\n"
	return p.with(sessionPath, []byte(strings.Join(lines, "")))
}

// withReferences adds files under source/references/ and lists them in
// source.json (in the form given), brief.json and the counts.
func withReferences(form func(name string) string, names ...string) pkg {
	return withReferencesOf(DefaultStates(), form, names...)
}

func withReferencesOf(states []State, form func(name string) string, names ...string) pkg {
	p := withMetaOf(states, func(mt *testMeta) {
		for _, n := range names {
			mt.src.ReferenceFiles = append(mt.src.ReferenceFiles, form(n))
			mt.brf.References = append(mt.brf.References, form(n))
		}
		mt.src.CopiedReferenceCount = intPtr(len(names))
		mt.src.InputReferenceCount = intPtr(len(names))
		mt.events[0].ReferenceCount = intPtr(len(names))
	})
	for _, n := range names {
		p = p.with(referencesDir+"/"+n, []byte("reference "+n))
	}
	return p
}

func bare(name string) string     { return name }
func prefixed(name string) string { return referencesDir + "/" + name }

// everyOptionalField is the valid package with every optional member of
// every schema present (brief state briefs by state, not name, since the
// two exclude each other).
func everyOptionalField() pkg { return everyOptionalFieldOf(DefaultStates()) }

// everyOptionalFieldOf is everyOptionalField for other states.
func everyOptionalFieldOf(states []State) pkg {
	p := withReferencesOf(states, prefixed, "cat.png", "sketch-2.png")
	return p.withDoc(sourcePath, func(m jmap) {
		m["reference_visual_influence"] = true
		m["form"] = jmap{"description": "A small orange cat.", "style": "flat", "quality": "low", "reference_images": []string{"cat.png", "source/references/sketch-2.png"}}
		m["ai_brief"] = jmap{"mood": "curious"}
		m["palette_source"] = "brief"
		m["palette"] = jmap{"hair": []int{1, 2, 3, 255}, "skin": []int{4, 5, 6, 255}, "body": []int{7, 8, 9, 255}, "accent": []int{10, 11, 12, 255}, "source": "brief"}
		m["skill_helper"] = "petpack_workspace"
		m["runner"] = "maker-runner"
		m["base_manifest_id"] = "pet_test01"
		m["base_revision"] = 1
		m["changed_states"] = []string{"idle", "tool"}
		m["extensions"] = jmap{"dev.agentpet.validation/fixture": true, "com.example.tool": jmap{"n": 1}}
	}).withDoc(briefPath, func(m jmap) {
		m["description"] = "A small orange cat."
		m["generation"].(jmap)["skill_helper"] = "petpack_workspace"
		m["generation"].(jmap)["preview_only"] = false
		m["ai_brief"] = jmap{"tone": "warm"}
		m["visual_brief"] = "Round eyes."
		m["render_notes"] = "Transparent background."
		m["palette"] = []interface{}{"orange", jmap{"name": "white", "rgba": []int{255, 255, 255, 255}}}
		for i, sb := range m["states"].([]interface{}) {
			b := sb.(jmap)
			b["state"], b["label"] = b["name"], "State "+string(states[i].Name)
			delete(b, "name")
		}
		m["extensions"] = jmap{"com.example.tool": "x"}
	}).withEvent(2, func(m jmap) {
		m["created_at"] = "2025-01-02T03:04:05.250+01:00"
		m["skill"], m["runner"], m["helper"] = "agent-pet-maker", "maker-runner", "petpack_workspace"
		m["generator"], m["provenance"], m["materializer"] = "agent-pet-maker", ProvenanceSkillFullSource, "frame-writer"
		m["petpack_source"] = "workspace/pet_test01.petpack"
		m["name"], m["style"], m["quality"] = "Test Cat", "flat pixel art", "low"
		m["render_size"] = jmap{"width": 192, "height": 208}
		m["changed_states"] = []string{"idle"}
		m["completed"], m["validation_ok"] = true, true
		m["reference_count"] = 2
		m["extensions"] = jmap{"com.example.tool": []int{1}}
	}).withDoc(validationPath, func(m jmap) {
		m["validator_version"] = "3.0.0"
		m["validated_at"] = "2025-01-02T03:04:05Z"
		m["manifest"] = manifestValue(states)
		// A pointer after a space would read as an absolute path (the
		// authors' privacy rule, and ours): producers write it bare.
		m["timing_warnings"] = []string{"manifest.json: frame_count_unusual: states/0 a note"}
		m["warnings"] = []string{"assets/preview/cover.png: preview_size_unusual: a note"}
		m["generator"], m["provenance"], m["skill_helper"] = "agent-pet-maker", ProvenanceSkillFullSource, "petpack_workspace"
		m["preview_only"] = false
		m["skipped"] = "nothing"
		m["repaired_by"] = "registration-fix"
		m["content_sha256"] = strings.Repeat("ab", 32)
		m["extensions"] = jmap{"dev.agentpet.validation/fixture": true}
	})
}

// makerStates are the timings of the contract authors' portable-maker
// validation fixture (42 frames, four actions off the defaults).
func makerStates() []State {
	s := DefaultStates()
	set := func(a Action, d []int, rm int, settle int) {
		for i := range s {
			if s[i].Name == a {
				s[i].FrameDurationsMS, s[i].ReducedMotionFrameIndex = d, rm
				if settle >= 0 {
					s[i].Playback.SettleFrameIndex = &settle
				}
			}
		}
	}
	set(ActionIdle, []int{300, 260, 300, 640}, 2, -1)
	set(ActionWaiting, []int{150, 150, 150, 150, 170, 230}, 4, 5)
	set(ActionFailed, []int{150, 170, 190, 290}, 2, 3)
	two := 2
	for i := range s {
		if s[i].Name == ActionWaiting {
			s[i].Playback.EntryRepeatCount = &two
		}
	}
	return s
}

// makerPackage is a package whose metadata has the shape the contract
// authors' portable maker writes for its repository validation fixture:
// the same members, the same kinds of values (a boolean extension, empty
// reference_files, one states.rendered event), so an import of a real
// maker's pet is held to exactly what it carries.
func makerPackage() pkg {
	states := makerStates()
	counts := jmap{}
	for _, st := range states {
		counts[string(st.Name)] = len(st.FrameDurationsMS)
	}
	ms := manifestValue(states)["states"]
	var briefs []interface{}
	for _, st := range states {
		briefs = append(briefs, jmap{"name": st.Name, "motion": "Deterministic " + string(st.Name) + " fixture motion.",
			"frame_durations_ms": st.FrameDurationsMS, "playback": st.Playback, "reduced_motion_frame_index": st.ReducedMotionFrameIndex})
	}
	names := make([]string, len(states))
	for i, st := range states {
		names[i] = string(st.Name)
	}
	ext := jmap{"dev.agentpet.validation/fixture": true}
	size := jmap{"width": 192, "height": 208}
	event, err := json.Marshal(jmap{"schema_version": SourceEventSchemaVersion, "event": EventStatesRendered, "created_at": "2025-01-02T03:04:05Z",
		"skill": "agent-pet-maker", "runner": "repository-validation", "generator": "repository-fixture-renderer",
		"manifest_id": "pet_test01", "quality": "low", "render_size": size, "states": names,
		"state_timings": ms, "state_frame_counts": counts, "extensions": ext})
	if err != nil {
		panic(err)
	}
	return packageOf(states).
		with(sourcePath, encodeJSON(jmap{"schema_version": SourceSchemaVersion, "generator": "repository-fixture-renderer",
			"provenance": ProvenanceSkillFullSource, "created_at": "2025-01-02T03:04:05Z", "manifest_id": "pet_test01",
			"pet_name": "Test Cat", "style": "flat pixel art", "quality": "low", "visual_source": "image-generation",
			"states": ms, "state_frame_counts": counts, "preview_only": false, "reference_files": []string{},
			"runner": "repository-validation", "skill_helper": "agent-pet-maker", "extensions": ext})).
		with(briefPath, encodeJSON(jmap{"schema_version": BriefSchemaVersion, "name": "Test Cat", "style": "flat pixel art",
			"quality": "low", "description": "A deterministic isolated fixture.",
			"generation": jmap{"generator": "repository-fixture-renderer", "provenance": ProvenanceSkillFullSource, "skill_helper": "agent-pet-maker", "preview_only": false},
			"states":     briefs, "runtime": jmap{"states": ms, "state_frame_counts": counts, "render_size": size}, "extensions": ext})).
		with(sessionPath, append(event, '\n')).
		with(validationPath, encodeJSON(jmap{"schema_version": ValidationSchemaVersion, "ok": true, "manifest": manifestValue(states),
			"frame_count": 42, "states": ms, "state_frame_counts": counts, "timing_warnings": []string{}, "warnings": []string{}}))
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
		{"as the contract authors' maker writes it", makerPackage()},
		{"every optional field", everyOptionalField()},
		{"references without prefix", withReferences(bare, "cat.png")},
		{"references with prefix", withReferences(prefixed, "cat.png", "dog.png")},
		{"nested reference", withReferences(prefixed, "sketches/cat-2.png")},
		{"only the required fields", validPackage().
			with(sourcePath, []byte(`{"schema_version":"apc.pet-source.v1","generator":"g","provenance":"external"}`)).
			with(sessionPath, []byte(`{"schema_version":"apc.pet-source-event.v1","event":"skill.loaded"}`+"\n")).
			withDoc(briefPath, func(m jmap) { delete(m, "generation"); delete(m, "runtime") }).
			withDoc(validationPath, func(m jmap) { delete(m, "validator"); delete(m, "manifest_id") })},
		{"deterministic provenance", withMeta(func(mt *testMeta) {
			mt.src.Provenance, mt.src.VisualSource, mt.src.MaterializedBy = "deterministic", "deterministic-preview", "petframes"
			mt.brf.Generation.Provenance = "deterministic"
		})},
		{"extension values of any type", validPackage().withDoc(validationPath, func(m jmap) {
			m["extensions"] = jmap{"dev.agentpet.validation/fixture": true, "com.example.n": 3, "com.example.s": "x", "com.example.l": []int{}, "com.example.z": nil}
		})},
		{"a string that is an integer written as 50.0", validPackage().withDoc(validationPath, func(m jmap) { m["frame_count"] = 50.0 })},
		{"CRLF session log", validPackage().with(sessionPath, []byte(strings.ReplaceAll(string(metadataFor(DefaultStates()).session()), "\n", "\r\n")))},
		{"description and ai_brief null", validPackage().withDoc(briefPath, func(m jmap) { m["description"], m["ai_brief"] = nil, nil })},
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

// metadataRuleCases are the fixtures of the stage-5 rules the schemas do
// not state (decoding, the prompt and the cross-file checks); the schema
// keywords have generated cases (TestSchemaRules). The schema test holds
// the published JSON Schemas against these too: each must pass them.
func metadataRuleCases() []metadataCase {
	ev := func(i int, edit func(m jmap)) pkg { return validPackage().withEvent(i, edit) }
	return []metadataCase{
		{"source not JSON", validPackage().with(sourcePath, []byte("{")), RuleMetadataMalformed, sourcePath, ""},
		{"brief an array", validPackage().with(briefPath, []byte("[]")), RuleMetadataMalformed, briefPath, ""},
		{"brief not UTF-8", validPackage().with(briefPath, []byte("{\"name\":\"\xff\"}")), RuleMetadataMalformed, briefPath, ""},
		{"validation over the bound", validPackage().with(validationPath, append([]byte(`{"x":"`), make([]byte, MaxManifestBytes)...)), RuleMetadataMalformed, validationPath, ""},
		{"empty line in the session", validPackage().with(sessionPath, []byte(strings.Replace(string(metadataFor(DefaultStates()).session()), "\n", "\n\n", 1))), RuleMetadataMalformed, sessionPath + ":2", ""},
		{"duplicate key", validPackage().with(briefPath, []byte(strings.Replace(string(validPackage().get(briefPath)), `"name": "Test Cat",`, `"name": "Test Cat", "name": "Other",`, 1))), RuleMetadataDuplicateKey, briefPath, "/name"},
		{"untagged source", validPackage().withDoc(sourcePath, func(m jmap) { delete(m, "schema_version") }), RuleMetadataSchemaVersion, sourcePath, "/schema_version"},
		{"newer validation", validPackage().withDoc(validationPath, func(m jmap) { m["schema_version"] = "apc.pet-validation.v2" }), RuleMetadataSchemaVersion, validationPath, "/schema_version"},
		{"event of the wrong schema", ev(0, func(m jmap) { m["schema_version"] = BriefSchemaVersion }), RuleMetadataSchemaVersion, sessionPath + ":1", "/schema_version"},
		{"empty prompt", validPackage().with(promptPath, []byte(" \n")), RulePromptEmpty, promptPath, ""},
		{"binary prompt", validPackage().with(promptPath, []byte("cat\xfe")), RulePromptNotUTF8, promptPath, ""},
		{"empty session", validPackage().with(sessionPath, []byte{}), RuleEventLogEmpty, sessionPath, ""},
		{"source id", withMeta(func(mt *testMeta) { mt.src.ManifestID = "pet_other" }), RuleMetadataIDMismatch, sourcePath, "/manifest_id"},
		{"validation id", withMeta(func(mt *testMeta) { mt.val.ManifestID = "pet_other" }), RuleMetadataIDMismatch, validationPath, "/manifest_id"},
		{"event id", ev(2, func(m jmap) { m["manifest_id"] = "pet_other" }), RuleMetadataIDMismatch, sessionPath + ":3", "/manifest_id"},
		{"brief name", withMeta(func(mt *testMeta) { mt.brf.Name = "Other Cat" }), RuleMetadataNameMismatch, briefPath, "/name"},
		{"source pet name", withMeta(func(mt *testMeta) { mt.src.PetName = "Other Cat" }), RuleMetadataNameMismatch, sourcePath, "/pet_name"},
		{"event name", ev(1, func(m jmap) { m["name"] = "Other Cat" }), RuleMetadataNameMismatch, sessionPath + ":2", "/name"},
		{"source style", withMeta(func(mt *testMeta) { mt.src.Style = "watercolour" }), RuleMetadataStyleMismatch, sourcePath, "/style"},
		{"brief style", withMeta(func(mt *testMeta) { mt.brf.Style = "watercolour" }), RuleMetadataStyleMismatch, briefPath, "/style"},
		{"brief quality", withMeta(func(mt *testMeta) {
			mt.brf.Quality = QualityStandard
			mt.brf.Runtime = nil // its render_size is the quality's, by the schema
		}), RuleMetadataQualityMismatch, briefPath, "/quality"},
		{"source quality", withMeta(func(mt *testMeta) { mt.src.Quality = QualityHigh }), RuleMetadataQualityMismatch, sourcePath, "/quality"},
		{"event quality", ev(0, func(m jmap) { m["quality"] = "standard" }), RuleMetadataQualityMismatch, sessionPath + ":1", "/quality"},
		{"event render size", ev(1, func(m jmap) { m["render_size"] = jmap{"width": 384, "height": 416} }), RuleMetadataRenderSizeMismatch, sessionPath + ":2", "/render_size"},
		{"source durations", withMeta(func(mt *testMeta) {
			mt.src.States = DefaultStates()
			mt.src.States[1].FrameDurationsMS = []int{120, 140, 160, 190}
		}), RuleMetadataTimingMismatch, sourcePath, "/states/1/frame_durations_ms"},
		{"source states in another order", withMeta(func(mt *testMeta) {
			s := DefaultStates()
			s[0], s[8] = s[8], s[0]
			mt.src.States = s
		}), RuleMetadataTimingMismatch, sourcePath, "/states/0/name"},
		{"brief runtime repeat", withMeta(func(mt *testMeta) {
			s := DefaultStates()
			two := 2
			s[2].Playback.EntryRepeatCount = &two
			mt.brf.Runtime.States = s
		}), RuleMetadataTimingMismatch, briefPath, "/runtime/states/2/playback"},
		{"state brief reduced motion", withMeta(func(mt *testMeta) { mt.brf.States[6].ReducedMotionFrameIndex = 0 }), RuleMetadataTimingMismatch, briefPath, "/states/6/reduced_motion_frame_index"},
		{"validation states", withMeta(func(mt *testMeta) {
			s := DefaultStates()
			s[4].FrameDurationsMS = []int{120, 140, 160, 231}
			mt.val.States = s
		}), RuleMetadataTimingMismatch, validationPath, "/states/4/frame_durations_ms"},
		{"rendered state timings", ev(2, func(m jmap) {
			m["state_timings"].([]interface{})[3].(jmap)["reduced_motion_frame_index"] = 0
		}), RuleMetadataTimingMismatch, sessionPath + ":3", "/state_timings/3/reduced_motion_frame_index"},
		{"rendered states lack one", ev(2, func(m jmap) { m["states"] = m["states"].([]interface{})[:8] }), RuleMetadataTimingMismatch, sessionPath + ":3", "/states"},
		{"source frame counts", withMeta(func(mt *testMeta) {
			c := *mt.src.StateFrameCounts
			c.Idle = 5
			mt.src.StateFrameCounts = &c
		}), RuleMetadataFrameCountMismatch, sourcePath, "/state_frame_counts"},
		{"validation frame counts", withMeta(func(mt *testMeta) { mt.val.StateFrameCounts.DragRight = 7 }), RuleMetadataFrameCountMismatch, validationPath, "/state_frame_counts"},
		{"brief frame counts", withMeta(func(mt *testMeta) { mt.brf.Runtime.StateFrameCounts.Tool = 5 }), RuleMetadataFrameCountMismatch, briefPath, "/runtime/state_frame_counts"},
		{"event frame counts", ev(2, func(m jmap) { m["state_frame_counts"].(jmap)["done"] = 9 }), RuleMetadataFrameCountMismatch, sessionPath + ":3", "/state_frame_counts"},
		{"validation frame count", withMeta(func(mt *testMeta) { mt.val.FrameCount = 51 }), RuleMetadataTotalFrameCountMismatch, validationPath, "/frame_count"},
		{"validation manifest differs", validPackage().withDoc(validationPath, func(m jmap) {
			mv := manifestValue(DefaultStates())
			mv["name"] = "Other Cat"
			m["manifest"] = mv
		}), RuleMetadataManifestMismatch, validationPath, "/manifest"},
		{"validation manifest invalid", validPackage().withDoc(validationPath, func(m jmap) {
			mv := manifestValue(DefaultStates())
			mv["fps"] = 12
			m["manifest"] = mv
		}), RuleMetadataManifestMismatch, validationPath, "/manifest/fps"},
		{"brief generator", withMeta(func(mt *testMeta) { mt.brf.Generation.Generator = "other-maker" }), RuleMetadataGenerationMismatch, briefPath, "/generation/generator"},
		{"brief provenance", withMeta(func(mt *testMeta) { mt.brf.Generation.Provenance = "external" }), RuleMetadataGenerationMismatch, briefPath, "/generation/provenance"},
		{"reference path rule", withReferences(prefixed, "cat.png").withDoc(sourcePath, func(m jmap) {
			m["reference_files"] = []string{"source/references/cat.png."}
		}).without(referencesDir+"/cat.png").withDoc(briefPath, func(m jmap) { delete(m, "references") }).
			withDoc(sourcePath, func(m jmap) { m["copied_reference_count"] = 0 }).withEvent(0, func(m jmap) { m["reference_count"] = 0 }), RuleReferencePathInvalid, sourcePath, "/reference_files/0"},
		{"one file in both forms", withReferences(bare, "cat.png").withDoc(sourcePath, func(m jmap) {
			m["reference_files"] = []string{"cat.png", "source/references/cat.png"}
		}), RuleReferencePathInvalid, sourcePath, "/reference_files/1"},
		{"reference missing", withReferences(bare, "cat.png", "dog.png").without(referencesDir+"/dog.png").withDoc(briefPath, func(m jmap) { m["references"] = []string{"cat.png"} }).
			withDoc(sourcePath, func(m jmap) { m["copied_reference_count"] = 1 }).withEvent(0, func(m jmap) { m["reference_count"] = 1 }), RuleReferenceMissing, sourcePath, "/reference_files"},
		{"reference unlisted", withReferences(bare, "cat.png").withDoc(sourcePath, func(m jmap) { m["reference_files"] = []string{} }), RuleReferenceUnlisted, referencesDir + "/cat.png", ""},
		{"reference without an inventory", validPackage().with(referencesDir+"/dog.png", []byte("x")).withEvent(0, func(m jmap) { delete(m, "reference_count") }), RuleReferenceUnlisted, referencesDir + "/dog.png", ""},
		{"brief references", withReferences(bare, "cat.png").withDoc(briefPath, func(m jmap) { m["references"] = []string{"dog.png"} }), RuleReferenceListMismatch, briefPath, "/references"},
		{"copied reference count", withReferences(bare, "cat.png").withDoc(sourcePath, func(m jmap) { m["copied_reference_count"] = 2 }), RuleReferenceCountMismatch, sourcePath, "/copied_reference_count"},
		{"event reference count", ev(0, func(m jmap) { m["reference_count"] = 1 }), RuleReferenceCountMismatch, sessionPath + ":1", "/reference_count"},
		{"full source validation preview", withMeta(func(mt *testMeta) { mt.val.PreviewOnly = boolPtr(true) }), RuleProvenancePreviewOnly, validationPath, "/preview_only"},
		{"full source materialized", withMeta(func(mt *testMeta) { mt.val.MaterializedBy = "materializer" }), RuleProvenanceMaterialized, validationPath, "/materialized_by"},
	}
}

// TestMetadataRules breaks each non-schema metadata rule alone in an
// otherwise valid package, and checks where the finding points.
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

// TestFindingLine: a schema finding reads as the contract issue spells it.
func TestFindingLine(t *testing.T) {
	p := validPackage().withDoc(sourcePath, func(m jmap) {
		delete(m["states"].([]interface{})[3].(jmap), "frames_dir")
	})
	v := validateBytes(rawZip(p))
	want := "source/source.json: schema_required: /states/3/frames_dir is required"
	if len(v.Errors) != 1 || v.Errors[0].String() != want {
		t.Fatalf("got\n%s\nwant %s", describeVerdict(v), want)
	}
}
