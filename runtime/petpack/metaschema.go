package petpack

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// jtype is one value's shape in a metadata document. The same description
// drives the strict walk below and, in a test, the published JSON Schema
// files, so the two cannot disagree.
type jtype struct {
	kind     jsonKind // kindObject, kindArray, kindString, kindNumber (integers only) or kindBool
	fields   []jfield // an object's closed member list
	items    *jtype   // an array's element shape
	minItems int
	maxItems int      // 0: unbounded
	enum     []string // a string's allowed values
	constant string   // a string's one allowed value
	nonBlank bool     // a string that is not empty or white space
	pattern  string   // a string's regular expression (RE2 and ECMA-262 alike)
	maxLen   int      // a string's maximum length in bytes, 0: unbounded
	min      int64    // an integer's minimum
	max      int64    // an integer's maximum, 0: unbounded
	ext      bool     // the Extensions container
}

// jfield is one member of an object shape.
type jfield struct {
	name     string
	required bool
	doc      string
	t        *jtype
}

const reverseDomainPattern = `^[a-z]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$`

var (
	tString    = &jtype{kind: kindString, nonBlank: true, maxLen: 1024}
	tID        = &jtype{kind: kindString, pattern: `^pet_[a-z0-9]+$`, maxLen: 128}
	tQuality   = &jtype{kind: kindString, enum: []string{"low", "standard", "high"}}
	tAction    = &jtype{kind: kindString, enum: actionNames()}
	tCount     = &jtype{kind: kindNumber, min: 0, max: MaxFramesPerPackage}
	tRefPath   = &jtype{kind: kindString, nonBlank: true, maxLen: 1024}
	tExt       = &jtype{kind: kindObject, ext: true}
	tGenerator = &jtype{kind: kindObject, fields: []jfield{
		{"name", true, "Non-blank tool name.", tString},
		{"version", true, "Non-blank tool version.", tString},
	}}
	tRenderSize = &jtype{kind: kindObject, fields: []jfield{
		{"width", true, "Canvas width in pixels.", &jtype{kind: kindNumber, min: 1, max: 1 << 16}},
		{"height", true, "Canvas height in pixels.", &jtype{kind: kindNumber, min: 1, max: 1 << 16}},
	}}
	tPlayback = &jtype{kind: kindObject, fields: []jfield{
		{"mode", true, "The state's playback mode, as in the manifest.", &jtype{kind: kindString, enum: []string{
			string(ModeLoop), string(ModePeriodic), string(ModeBurstThenSettle), string(ModeBurstThenIdle), string(ModeOnceThenReturn)}}},
		{fieldRepeat, false, "As in the manifest.", &jtype{kind: kindNumber, min: 1, max: 8}},
		{fieldSettle, false, "As in the manifest.", &jtype{kind: kindNumber, min: 0, max: MaxFramesPerState - 1}},
		{fieldCooldown, false, "As in the manifest: [minimum_ms, maximum_ms].", &jtype{kind: kindArray, minItems: 2, maxItems: 2,
			items: &jtype{kind: kindNumber, min: 0, max: maxCooldownMS}}},
	}}
	tSourceState = &jtype{kind: kindObject, fields: []jfield{
		{"name", true, "The fixed action.", tAction},
		{"frame_count", true, "Number of .png frames in the action's directory.", tCount},
		{"frame_durations_ms", true, "Verbatim copy of the manifest state's durations.", &jtype{kind: kindArray, minItems: 2, maxItems: MaxFramesPerState,
			items: &jtype{kind: kindNumber, min: 50, max: 2000}}},
		{"playback", true, "Verbatim copy of the manifest state's playback object.", tPlayback},
		{"reduced_motion_frame_index", true, "Verbatim copy of the manifest state's index.", &jtype{kind: kindNumber, min: 0, max: MaxFramesPerState - 1}},
	}}
	tReference = &jtype{kind: kindObject, fields: []jfield{
		{"path", true, "Path relative to source/references/; no traversal, absolute or backslash names.", tRefPath},
		{"size", true, "File length in bytes.", &jtype{kind: kindNumber, min: 0, max: MaxEntryBytes}},
		{"sha256", true, "SHA-256 of the file, 64 lower-case hex digits.", &jtype{kind: kindString, pattern: `^[0-9a-f]{64}$`}},
	}}
	tRefPaths = &jtype{kind: kindArray, maxItems: MaxEntries, items: tRefPath}
)

func actionNames() []string {
	out := make([]string, len(actionTable))
	for i, t := range actionTable {
		out[i] = string(t.action)
	}
	return out
}

func warningRuleNames() []string {
	var out []string
	for _, r := range ruleTable {
		if r.warn {
			out = append(out, string(r.rule))
		}
	}
	return out
}

// metaDocument is one of the four metadata documents: its schema identity,
// its shape, the Go type it decodes into and the schema file it is
// published as.
type metaDocument struct {
	path    string
	version string
	schema  string // file name under schemas/
	title   string
	t       *jtype
	newGo   func() interface{}
}

var (
	sourceDoc = metaDocument{sourcePath, SourceSchemaVersion, "pet-source.schema.json", "source/source.json", &jtype{kind: kindObject, fields: []jfield{
		{"schema_version", true, "Exactly apc.pet-source.v1.", &jtype{kind: kindString, constant: SourceSchemaVersion}},
		{"id", true, "Equals the manifest id.", tID},
		{"name", true, "Equals the manifest name.", tString},
		{"style", true, "Equals the manifest style.", tString},
		{"quality", true, "Equals the manifest quality.", tQuality},
		{"render_size", true, "Equals the manifest render_size.", tRenderSize},
		{"generator", true, "The producer that wrote the package.", tGenerator},
		{"provenance", true, "How the frames were made (a claim, not a signature).", &jtype{kind: kindString, enum: provenances}},
		{"preview_only", true, "The frames are a preview; must be false for skill-full-source.", &jtype{kind: kindBool}},
		{"visual_source", false, "The full visual source; required for skill-full-source, forbidden for deterministic and materializer.", &jtype{kind: kindObject, fields: []jfield{
			{"kind", true, "image_generation, image_edit or hand_authored.", &jtype{kind: kindString, enum: visualSourceKinds}},
		}}},
		{"states", true, "The nine timing contracts, one per fixed action, in any order.", &jtype{kind: kindArray, minItems: 9, maxItems: 9, items: tSourceState}},
		{"total_frame_count", true, "Sum of the states' frame counts.", tCount},
		{"references", true, "Exact inventory of source/references/ (may be empty).", &jtype{kind: kindArray, maxItems: MaxEntries, items: tReference}},
		{"extensions", false, "Producer data keyed by reverse-domain names.", tExt},
	}}, func() interface{} { return new(Source) }}

	briefDoc = metaDocument{briefPath, BriefSchemaVersion, "pet-brief.schema.json", "brief.json", &jtype{kind: kindObject, fields: []jfield{
		{"schema_version", true, "Exactly apc.pet-brief.v1.", &jtype{kind: kindString, constant: BriefSchemaVersion}},
		{"id", true, "Equals the manifest id.", tID},
		{"name", true, "Equals the manifest name.", tString},
		{"style", true, "Equals the manifest style.", tString},
		{"quality", true, "Equals the manifest quality.", tQuality},
		{"description", true, "Non-blank character description from the generation form.", &jtype{kind: kindString, nonBlank: true, maxLen: 16384}},
		{"references", true, "Reference paths relative to source/references/; the same set as source.json's inventory.", tRefPaths},
		{"extensions", false, "Producer data keyed by reverse-domain names.", tExt},
	}}, func() interface{} { return new(Brief) }}

	eventDoc = metaDocument{sessionPath, SourceEventSchemaVersion, "pet-source-event.schema.json", "one record of source/skill_session.jsonl", &jtype{kind: kindObject, fields: []jfield{
		{"schema_version", true, "Exactly apc.pet-source-event.v1.", &jtype{kind: kindString, constant: SourceEventSchemaVersion}},
		{"sequence", true, "1-based record number: line n holds sequence n.", &jtype{kind: kindNumber, min: 1, max: 1 << 20}},
		{"type", true, "Lifecycle step: started first, completed last, generated/reviewed/validated between.", &jtype{kind: kindString, enum: eventTypes}},
		{"state", false, "The fixed action the step concerns.", tAction},
		{"extensions", false, "Producer data keyed by reverse-domain names.", tExt},
	}}, func() interface{} { return new(SourceEvent) }}

	validationDoc = metaDocument{validationPath, ValidationSchemaVersion, "pet-validation.schema.json", "build/validation.json", &jtype{kind: kindObject, fields: []jfield{
		{"schema_version", true, "Exactly apc.pet-validation.v1.", &jtype{kind: kindString, constant: ValidationSchemaVersion}},
		{"ok", true, "Exactly true.", &jtype{kind: kindBool}},
		{"validator", true, "The validator that produced the report.", tGenerator},
		{"pet_id", true, "Equals the manifest id.", tID},
		{"frame_counts", true, "Frame count of each fixed action.", &jtype{kind: kindObject, fields: func() []jfield {
			var fs []jfield
			for _, a := range actionNames() {
				fs = append(fs, jfield{a, true, "Frames of " + a + ".", tCount})
			}
			return fs
		}()}},
		{"total_frame_count", true, "Sum of frame_counts.", tCount},
		{"warnings", true, "Distinct warning rule ids the validator reported.", &jtype{kind: kindArray, maxItems: len(warningRuleNames()), items: &jtype{kind: kindString, enum: warningRuleNames()}}},
		{"references", true, "Reference paths; the same set as source.json's inventory.", tRefPaths},
		{"extensions", false, "Producer data keyed by reverse-domain names.", tExt},
	}}, func() interface{} { return new(ValidationReport) }}

	metaDocuments = []*metaDocument{&sourceDoc, &briefDoc, &eventDoc, &validationDoc}
)

// metaWalker reports every fault of one document against its shape, each
// with its JSON pointer, so that one bad field does not hide the others.
type metaWalker struct {
	c    *checker
	path string
}

func (w *metaWalker) fail(rule Rule, ptr, format string, args ...interface{}) {
	w.c.fail(rule, w.path, ptr, format, args...)
}

func (w *metaWalker) value(raw json.RawMessage, ptr string, t *jtype) {
	k := kind(raw)
	if k != t.kind {
		w.fail(RuleMetadataFieldType, ptr, "must be a JSON %s, not %s", t.kind, describe(raw))
		return
	}
	switch t.kind {
	case kindObject:
		w.object(raw, ptr, t)
	case kindArray:
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			w.fail(RuleMetadataFieldType, ptr, "must be a JSON array")
			return
		}
		if len(elems) < t.minItems || (t.maxItems > 0 && len(elems) > t.maxItems) {
			w.fail(RuleMetadataValueInvalid, ptr, "%d entries; %s", len(elems), itemsBound(t))
		}
		for i, e := range elems {
			if i >= MaxEntries {
				break // a hostile array is reported once above, not element by element
			}
			w.value(e, ptr+"/"+strconv.Itoa(i), t.items)
		}
	case kindString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			w.fail(RuleMetadataFieldType, ptr, "must be a string")
			return
		}
		w.str(s, ptr, t)
	case kindNumber:
		var n int64
		if json.Unmarshal(raw, &n) != nil {
			w.fail(RuleMetadataFieldType, ptr, "must be an integer, not %s", describe(raw))
			return
		}
		if n < t.min || (t.max > 0 && n > t.max) {
			w.fail(RuleMetadataValueInvalid, ptr, "%d is outside %d to %d", n, t.min, t.max)
		}
	}
}

func itemsBound(t *jtype) string {
	if t.maxItems == 0 {
		return "at least " + strconv.Itoa(t.minItems) + " are required"
	}
	if t.minItems == t.maxItems {
		return "exactly " + strconv.Itoa(t.minItems) + " are required"
	}
	return strconv.Itoa(t.minItems) + " to " + strconv.Itoa(t.maxItems) + " are allowed"
}

// patterns holds each shape's compiled pattern; validations may run
// concurrently, so the cache is guarded.
var patterns = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

func compiled(p string) *regexp.Regexp {
	patterns.Lock()
	defer patterns.Unlock()
	re, ok := patterns.m[p]
	if !ok {
		re = regexp.MustCompile(p)
		patterns.m[p] = re
	}
	return re
}

func (w *metaWalker) str(s, ptr string, t *jtype) {
	q := strconv.Quote(truncate(s, 64))
	switch {
	case t.constant != "" && s != t.constant:
		w.fail(RuleMetadataValueInvalid, ptr, "%s is not %s", q, t.constant)
	case t.enum != nil && !contains(t.enum, s):
		w.fail(RuleMetadataValueInvalid, ptr, "%s is not one of %s", q, strings.Join(t.enum, ", "))
	case t.nonBlank && strings.TrimSpace(s) == "":
		w.fail(RuleMetadataValueInvalid, ptr, "the value is blank")
	case t.maxLen > 0 && len(s) > t.maxLen:
		w.fail(RuleMetadataValueInvalid, ptr, "%d bytes, over %d", len(s), t.maxLen)
	case t.pattern != "" && !compiled(t.pattern).MatchString(s):
		w.fail(RuleMetadataValueInvalid, ptr, "%s does not match %s", q, t.pattern)
	}
}

func (w *metaWalker) object(raw json.RawMessage, ptr string, t *jtype) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		w.fail(RuleMetadataFieldType, ptr, "must be a JSON object")
		return
	}
	if t.ext {
		w.extensions(m, ptr)
		return
	}
	var unknown []string
	for k := range m {
		known := false
		for _, f := range t.fields {
			known = known || f.name == k
		}
		if !known {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		w.fail(RuleMetadataUnknownField, ptr+"/"+escapeToken(k), "unknown field %s: metadata objects are closed; producer data belongs in extensions", strconv.Quote(truncate(k, 64)))
	}
	for _, f := range t.fields {
		v, ok := m[f.name]
		if !ok {
			if f.required {
				w.fail(RuleMetadataFieldMissing, ptr+"/"+f.name, "required field %s is missing", f.name)
			}
			continue
		}
		w.value(v, ptr+"/"+f.name, f.t)
	}
}

// extensions checks the one open container: reverse-domain keys, each an
// object whose content is the producer's.
func (w *metaWalker) extensions(m map[string]json.RawMessage, ptr string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := ptr + "/" + escapeToken(k)
		switch {
		case !isReverseDomain(k):
			w.fail(RuleMetadataExtensionInvalid, p, "extension key %s is not a lower-case reverse-domain name such as com.example.tool", strconv.Quote(truncate(k, 64)))
		case kind(m[k]) != kindObject:
			w.fail(RuleMetadataExtensionInvalid, p, "extension %s must be a JSON object, not %s", k, kind(m[k]))
		}
	}
}
