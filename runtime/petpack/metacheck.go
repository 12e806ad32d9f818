package petpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	js "github.com/agentpet/rules_pet/internal/jsonschema"
	"github.com/agentpet/rules_pet/internal/strictjson"
)

// jobj is a decoded JSON object.
type jobj = map[string]interface{}

// metadata is what stage 5 decoded, as JSON values: a document is nil when
// it is absent or broke a schema rule, and the cross-checks then leave it
// out (its own findings already reject the package).
type metadata struct {
	source, brief, validation jobj
	events                    []jobj // the records that passed their schema
	eventLines                []int  // each record's line number
}

// schemaRules maps each JSON Schema keyword the validator reports to its
// rule.
var schemaRules = map[string]Rule{
	"type":                 RuleSchemaType,
	"const":                RuleSchemaConst,
	"enum":                 RuleSchemaEnum,
	"required":             RuleSchemaRequired,
	"additionalProperties": RuleSchemaAdditionalProperties,
	"propertyNames":        RuleSchemaPropertyNames,
	"maxProperties":        RuleSchemaMaxProperties,
	"minLength":            RuleSchemaMinLength,
	"maxLength":            RuleSchemaMaxLength,
	"pattern":              RuleSchemaPattern,
	"format":               RuleSchemaFormat,
	"minimum":              RuleSchemaMinimum,
	"maximum":              RuleSchemaMaximum,
	"minItems":             RuleSchemaMinItems,
	"maxItems":             RuleSchemaMaxItems,
	"uniqueItems":          RuleSchemaUniqueItems,
	"contains":             RuleSchemaContains,
	"anyOf":                RuleSchemaAnyOf,
	"oneOf":                RuleSchemaOneOf,
	"not":                  RuleSchemaNot,
}

// checkMetadata is the Safe Producer part of stage 5 (section 7): the four
// schemas, source/prompt.md and the session log, then each cross-file
// check. m is nil when the manifest broke a rule; the checks against it
// are then skipped, since stage 4 has already rejected the package. It
// returns source.json's provenance ("" when that document is absent or
// unreadable) for the media gate's skill-full-source rules.
func checkMetadata(c *checker, fs *fileSet, m *Manifest) string {
	var meta metadata
	claimed := ""
	if data, ok := readMetadataFile(c, fs, sourcePath); ok {
		meta.source = decodeMetadata(c, sourcePath, data, &sourceDoc)
		claimed = claimedProvenance(data)
	}
	if data, ok := readMetadataFile(c, fs, briefPath); ok {
		meta.brief = decodeMetadata(c, briefPath, data, &briefDoc)
	}
	if data, ok := readMetadataFile(c, fs, sessionPath); ok {
		decodeEvents(c, data, &meta)
	}
	if data, ok := readMetadataFile(c, fs, validationPath); ok {
		meta.validation = decodeMetadata(c, validationPath, data, &validationDoc)
	}
	checkPrompt(c, fs)
	if m != nil {
		x := newCross(c, m, &meta)
		x.identity()
		x.timing()
		x.validationManifest()
		x.generation()
	}
	checkReferences(c, fs, &meta)
	checkFullSource(c, &meta)
	return claimed
}

// claimedProvenance is source.json's provenance string as written, even
// when the document broke a schema rule: a package that claims the trusted
// profile gets its media held to it, as the contract's authors read it.
func claimedProvenance(data []byte) string {
	var v struct {
		Provenance string `json:"provenance"`
	}
	if len(strictjson.CheckObject(data)) > 0 || json.Unmarshal(data, &v) != nil {
		return ""
	}
	return v.Provenance
}

// readMetadataFile reads one metadata file within the manifest's bound. A
// missing file or a directory is the layout's to report.
func readMetadataFile(c *checker, fs *fileSet, name string) ([]byte, bool) {
	n := fs.lookup(name)
	if n == nil || n.dir {
		return nil, false
	}
	if n.e.size > MaxManifestBytes {
		c.fail(RuleMetadataMalformed, name, "", "%d bytes is over the %d-byte metadata bound", n.e.size, MaxManifestBytes)
		return nil, false
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		c.fail(RulePackageUnreadable, name, "", "%v", err)
		return nil, false
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		c.fail(ce.rule, name, "", "%s", ce.msg)
		return nil, false
	case err != nil:
		c.fail(RulePackageUnreadable, name, "", "%v", err)
		return nil, false
	case len(data) > MaxManifestBytes:
		c.fail(RuleMetadataMalformed, name, "", "the file is over the %d-byte metadata bound", MaxManifestBytes)
		return nil, false
	}
	return data, true
}

// decodeMetadata decodes one document: the manifest's token pass (one
// object, UTF-8, no duplicate key), the exact schema identity first so an
// unknown version fails closed before anything else is read, then every
// keyword of the document's schema. where is the path findings name (a
// JSONL record adds :LINE). It returns the document, or nil when it broke
// a rule.
func decodeMetadata(c *checker, where string, data []byte, doc *metaDocument) jobj {
	mark := c.count()
	for _, p := range strictjson.CheckObject(data) {
		rule := RuleMetadataMalformed
		if p.Kind == strictjson.DuplicateKey {
			rule = RuleMetadataDuplicateKey
		}
		c.fail(rule, where, p.Pointer, "%s", p.Msg)
	}
	if c.errorsSince(mark) {
		return nil
	}
	v, err := js.Decode(data)
	top, _ := v.(jobj)
	if err != nil || top == nil {
		c.fail(RuleMetadataMalformed, where, "", "the document is not a JSON object")
		return nil
	}
	raw, present := top["schema_version"]
	if version, _ := raw.(string); version != doc.version {
		got := "no schema_version"
		if present {
			got = "schema_version " + describeVersion(raw)
		}
		c.fail(RuleMetadataSchemaVersion, where, "/schema_version", "%s: %s declares exactly %s (there is no untagged or other version)", got, doc.title, doc.version)
		return nil
	}
	for _, e := range js.Validate(doc.schema, top) {
		c.fail(schemaRules[e.Keyword], where, e.Pointer, "%s", e.Message)
	}
	if c.errorsSince(mark) {
		return nil
	}
	return top
}

func describeVersion(v interface{}) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(truncate(x, 64))
	case nil:
		return "null"
	case json.Number:
		return "the number " + truncate(string(x), 32)
	}
	return fmt.Sprintf("of type %T", v)
}

// decodeEvents decodes each line of the session log as one record. Only
// the final line may be empty (the trailing newline). A log without a
// record is event_log_empty.
func decodeEvents(c *checker, data []byte, meta *metadata) {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		c.fail(RuleEventLogEmpty, sessionPath, "", "the session log has no records; it holds at least one apc.pet-source-event.v1 record")
		return
	}
	for i, line := range lines {
		where := sessionPath + ":" + strconv.Itoa(i+1)
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			c.fail(RuleMetadataMalformed, where, "", "an empty line: every line of the session log is one record")
			continue
		}
		if e := decodeMetadata(c, where, line, &eventDoc); e != nil {
			meta.events = append(meta.events, e)
			meta.eventLines = append(meta.eventLines, i+1)
		}
	}
}

// checkPrompt: source/prompt.md is non-empty UTF-8 text (section 7). Its
// bytes are the producer's to sanitise; only the encoding is provable.
func checkPrompt(c *checker, fs *fileSet) {
	n := fs.lookup(promptPath)
	if n == nil || n.dir {
		return
	}
	data, ok := readMetadataFile(c, fs, promptPath)
	if !ok {
		return
	}
	switch {
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		c.fail(RulePromptNotUTF8, promptPath, "", "the prompt is not UTF-8 text")
	case strings.TrimSpace(string(data)) == "":
		c.fail(RulePromptEmpty, promptPath, "", "the prompt is empty")
	}
}

// cross holds the manifest's facts as JSON values, in the form the
// documents restate them, for the cross-file checks.
type cross struct {
	c      *checker
	m      *Manifest
	meta   *metadata
	states interface{} // the manifest's states array
	counts interface{} // {action: frame count}
	size   interface{} // render_size
	total  int
}

func newCross(c *checker, m *Manifest, meta *metadata) *cross {
	counts := CountsOf(m)
	return &cross{c: c, m: m, meta: meta,
		states: asJSON(m.States), counts: asJSON(counts), size: asJSON(m.RenderSize), total: counts.Total()}
}

// asJSON is v as a decoded JSON value, for js.Equal.
func asJSON(v interface{}) interface{} {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // the manifest's own types always marshal
	}
	out, err := js.Decode(data)
	if err != nil {
		panic(err)
	}
	return out
}

// eventWhere is the path a finding about the i-th decoded record names.
func (x *cross) eventWhere(i int) string {
	return sessionPath + ":" + strconv.Itoa(x.meta.eventLines[i])
}

// same reports a restated value that is not the manifest's. Absent fields
// are the schema's to require.
func (x *cross) same(rule Rule, path string, doc jobj, ptr string, want interface{}, what string) {
	got, ok := lookup(doc, ptr)
	if !ok || js.Equal(got, want) {
		return
	}
	x.c.fail(rule, path, ptr, "%s is not the manifest's %s", describeJSON(got), what)
}

// lookup follows a pointer of plain member names.
func lookup(doc jobj, ptr string) (interface{}, bool) {
	var cur interface{} = doc
	for _, k := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		m, ok := cur.(jobj)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// describeJSON shows a short value in a message.
func describeJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return "the value"
	}
	return truncate(string(data), 80)
}

// identity: id, name, style, quality and render size, wherever a document
// restates them.
func (x *cross) identity() {
	m, meta := x.m, x.meta
	id, name, style, quality := m.ID, m.Name, m.Style, string(m.Quality)
	if s := meta.source; s != nil {
		x.same(RuleMetadataIDMismatch, sourcePath, s, "/manifest_id", id, "id")
		x.same(RuleMetadataNameMismatch, sourcePath, s, "/pet_name", name, "name")
		x.same(RuleMetadataStyleMismatch, sourcePath, s, "/style", style, "style")
		x.same(RuleMetadataQualityMismatch, sourcePath, s, "/quality", quality, "quality")
	}
	if b := meta.brief; b != nil {
		x.same(RuleMetadataNameMismatch, briefPath, b, "/name", name, "name")
		x.same(RuleMetadataStyleMismatch, briefPath, b, "/style", style, "style")
		x.same(RuleMetadataQualityMismatch, briefPath, b, "/quality", quality, "quality")
		x.same(RuleMetadataRenderSizeMismatch, briefPath, b, "/runtime/render_size", x.size, "render_size")
	}
	for i, e := range meta.events {
		w := x.eventWhere(i)
		x.same(RuleMetadataIDMismatch, w, e, "/manifest_id", id, "id")
		x.same(RuleMetadataNameMismatch, w, e, "/name", name, "name")
		x.same(RuleMetadataStyleMismatch, w, e, "/style", style, "style")
		x.same(RuleMetadataQualityMismatch, w, e, "/quality", quality, "quality")
		x.same(RuleMetadataRenderSizeMismatch, w, e, "/render_size", x.size, "render_size")
	}
	if v := meta.validation; v != nil {
		x.same(RuleMetadataIDMismatch, validationPath, v, "/manifest_id", id, "id")
	}
}

// timing: every restatement of the nine timing contracts equals the
// manifest's states array (its order too, as the contract's authors
// compare it), every frame count table the decoded counts (the media gate
// has proved one frame per duration), and each state brief its action's
// timing.
func (x *cross) timing() {
	meta := x.meta
	type claim struct {
		path string
		doc  jobj
	}
	states := func(path string, doc jobj, ptr string) {
		got, ok := lookup(doc, ptr)
		if !ok || js.Equal(got, x.states) {
			return
		}
		x.c.fail(RuleMetadataTimingMismatch, path, statesDiff(ptr, got, x.states), "differs from the manifest's states: every restatement is the manifest's states array, in its order")
	}
	counts := func(path string, doc jobj, ptr string) {
		got, ok := lookup(doc, ptr)
		if !ok || js.Equal(got, x.counts) {
			return
		}
		x.c.fail(RuleMetadataFrameCountMismatch, path, ptr, "%s is not the package's frame counts %s", describeJSON(got), describeJSON(x.counts))
	}
	if s := meta.source; s != nil {
		states(sourcePath, s, "/states")
		counts(sourcePath, s, "/state_frame_counts")
	}
	if b := meta.brief; b != nil {
		states(briefPath, b, "/runtime/states")
		counts(briefPath, b, "/runtime/state_frame_counts")
		x.stateBriefs(b)
	}
	for i, e := range meta.events {
		w := x.eventWhere(i)
		states(w, e, "/state_timings")
		counts(w, e, "/state_frame_counts")
		if ev, _ := e["event"].(string); ev == EventStatesRendered {
			x.renderedNames(w, e)
		}
	}
	if v := meta.validation; v != nil {
		states(validationPath, v, "/states")
		counts(validationPath, v, "/state_frame_counts")
		if n, ok := v["frame_count"].(json.Number); ok {
			if got, ok := js.Int64(n); !ok || got != int64(x.total) {
				x.c.fail(RuleMetadataTotalFrameCountMismatch, validationPath, "/frame_count", "%s frames recorded, the package has %d", n, x.total)
			}
		}
	}
}

// statesDiff points at the first place a restated states array differs
// from the manifest's, so the finding names the field.
func statesDiff(ptr string, got, want interface{}) string {
	g, ok1 := got.([]interface{})
	w, ok2 := want.([]interface{})
	if !ok1 || !ok2 || len(g) != len(w) {
		return ptr
	}
	for i := range g {
		if js.Equal(g[i], w[i]) {
			continue
		}
		gs, ok1 := g[i].(jobj)
		ws, ok2 := w[i].(jobj)
		if !ok1 || !ok2 {
			return ptr + "/" + strconv.Itoa(i)
		}
		for _, k := range []string{"name", "frames_dir", "frame_durations_ms", "playback", "reduced_motion_frame_index"} {
			if !js.Equal(gs[k], ws[k]) {
				return ptr + "/" + strconv.Itoa(i) + "/" + k
			}
		}
		return ptr + "/" + strconv.Itoa(i)
	}
	return ptr
}

// stateBriefs: each action's brief restates that action's authored timing.
// The schema has already required one brief per action.
func (x *cross) stateBriefs(b jobj) {
	list, _ := b["states"].([]interface{})
	for i, e := range list {
		sb, _ := e.(jobj)
		name, _ := sb["name"].(string)
		if name == "" {
			name, _ = sb["state"].(string)
		}
		ms := x.m.State(Action(name))
		if ms == nil {
			continue
		}
		want := asJSON(ms).(jobj)
		for _, k := range []string{"frame_durations_ms", "playback", "reduced_motion_frame_index"} {
			if !js.Equal(sb[k], want[k]) {
				x.c.fail(RuleMetadataTimingMismatch, briefPath, "/states/"+strconv.Itoa(i)+"/"+k, "%s %s is not the manifest's %s", name, describeJSON(sb[k]), describeJSON(want[k]))
			}
		}
	}
}

// renderedNames: a states.rendered record names all nine actions.
func (x *cross) renderedNames(where string, e jobj) {
	list, _ := e["states"].([]interface{})
	have := map[string]bool{}
	for _, v := range list {
		s, _ := v.(string)
		have[s] = true
	}
	var missing []string
	for _, a := range Actions() {
		if !have[string(a)] {
			missing = append(missing, string(a))
		}
	}
	if len(missing) > 0 {
		x.c.fail(RuleMetadataTimingMismatch, where, "/states", "states.rendered lacks %s: it names the manifest's nine actions", strings.Join(missing, ", "))
	}
}

// validationManifest: a manifest copied into build/validation.json is a
// valid V3 manifest equal to manifest.json.
func (x *cross) validationManifest() {
	v := x.meta.validation
	if v == nil {
		return
	}
	raw, ok := v["manifest"]
	if !ok {
		return
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return
	}
	mv := ValidateManifest(data)
	switch {
	case !mv.OK():
		f := mv.Errors[0]
		x.c.fail(RuleMetadataManifestMismatch, validationPath, "/manifest"+f.Pointer, "the copied manifest is not a valid V3 manifest: %s: %s", f.Rule, f.Msg)
	case !js.Equal(asJSON(mv.Manifest), asJSON(x.m)):
		x.c.fail(RuleMetadataManifestMismatch, validationPath, "/manifest", "the copied manifest differs from manifest.json")
	}
}

// generation: brief.json's generation claim is source.json's.
func (x *cross) generation() {
	s, b := x.meta.source, x.meta.brief
	if s == nil || b == nil {
		return
	}
	g, ok := b["generation"].(jobj)
	if !ok {
		return
	}
	for _, k := range []string{"generator", "provenance", "skill_helper", "preview_only"} {
		got, ok1 := g[k]
		want, ok2 := s[k]
		if ok1 && ok2 && !js.Equal(got, want) {
			x.c.fail(RuleMetadataGenerationMismatch, briefPath, "/generation/"+k, "%s is not source.json's %s %s", describeJSON(got), k, describeJSON(want))
		}
	}
}

// checkReferences holds every reference list against source/references/.
// A path is written relative to that directory or with its
// source/references/ prefix (both forms the schemas allow); both name the
// same file. source.json's reference_files, when present, is the exact
// inventory; brief.json's references name the same set; copied_reference_
// count and every event's reference_count equal the number of files.
func checkReferences(c *checker, fs *fileSet, meta *metadata) {
	onDisk := map[string]*node{}
	if dir := fs.lookup(referencesDir); dir != nil && dir.dir {
		collectFiles(dir, referencesDir+"/", onDisk)
	}
	files := make([]string, 0, len(onDisk))
	for p := range onDisk {
		files = append(files, p)
	}
	sort.Strings(files)
	norm := func(path, ptr string, v interface{}) (string, bool) {
		s, _ := v.(string)
		rel := strings.TrimPrefix(s, referencesDir+"/")
		if probs := pathProblems(rel); len(probs) > 0 {
			c.fail(RuleReferencePathInvalid, path, ptr, "%s: %s", quoteShort(s), probs[0].msg)
			return "", false
		}
		return rel, true
	}
	list := func(path string, doc jobj, key string) ([]string, bool) {
		raw, ok := doc[key].([]interface{})
		if !ok {
			return nil, false
		}
		var out []string
		seen := map[string]int{}
		for i, v := range raw {
			ptr := "/" + key + "/" + strconv.Itoa(i)
			rel, ok := norm(path, ptr, v)
			if !ok {
				continue
			}
			if j, dup := seen[rel]; dup {
				c.fail(RuleReferencePathInvalid, path, ptr, "%s names the same file as /%s/%d", quoteShort(rel), key, j)
				continue
			}
			seen[rel] = i
			out = append(out, rel)
		}
		sort.Strings(out)
		return out, true
	}
	if s := meta.source; s != nil {
		if inv, ok := list(sourcePath, s, "reference_files"); ok {
			listed := map[string]bool{}
			for i, rel := range inv {
				listed[rel] = true
				if onDisk[rel] == nil {
					c.fail(RuleReferenceMissing, sourcePath, "/reference_files", "%s/%s is not in the package (item %d of the sorted inventory)", referencesDir, rel, i)
				}
			}
			for _, p := range files {
				if !listed[p] {
					c.fail(RuleReferenceUnlisted, referencesDir+"/"+p, "", "the file is not in source.json's reference_files")
				}
			}
		} else {
			for _, p := range files {
				c.fail(RuleReferenceUnlisted, referencesDir+"/"+p, "", "source.json declares no reference_files, so the package carries no references")
			}
		}
		if n, ok := s["copied_reference_count"].(json.Number); ok {
			if got, _ := js.Int64(n); got != int64(len(files)) {
				c.fail(RuleReferenceCountMismatch, sourcePath, "/copied_reference_count", "%s, but source/references/ holds %d files", n, len(files))
			}
		}
	}
	if b := meta.brief; b != nil {
		if refs, ok := list(briefPath, b, "references"); ok && !sameStrings(refs, files) {
			c.fail(RuleReferenceListMismatch, briefPath, "/references", "%v is not the package's references %v", refs, files)
		}
	}
	for i, e := range meta.events {
		if n, ok := e["reference_count"].(json.Number); ok {
			if got, _ := js.Int64(n); got != int64(len(files)) {
				c.fail(RuleReferenceCountMismatch, sessionPath+":"+strconv.Itoa(meta.eventLines[i]), "/reference_count", "%s, but source/references/ holds %d files", n, len(files))
			}
		}
	}
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// collectFiles maps each file below n to its path relative to prefix.
func collectFiles(n *node, prefix string, out map[string]*node) {
	for _, k := range n.children() {
		if k.dir {
			collectFiles(k, prefix, out)
		} else {
			out[strings.TrimPrefix(k.path, prefix)] = k
		}
	}
}

// checkFullSource: skill-full-source is the trusted profile (section 7).
// source.json's schema already requires its full visual source,
// preview_only false, the timing metadata and no materializer; the other
// documents may not contradict it (brief generation's preview_only is
// held to source.json's by metadata_generation_mismatch).
func checkFullSource(c *checker, meta *metadata) {
	s := meta.source
	if s == nil || s["provenance"] != ProvenanceSkillFullSource {
		return
	}
	if v := meta.validation; v != nil {
		if v["preview_only"] == true {
			c.fail(RuleProvenancePreviewOnly, validationPath, "/preview_only", "skill-full-source frames are not a preview")
		}
		if _, ok := v["materialized_by"]; ok {
			c.fail(RuleProvenanceMaterialized, validationPath, "/materialized_by", "skill-full-source frames are authored, not materialized")
		}
	}
}
