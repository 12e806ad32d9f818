package petpack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// metadata is what stage 5 decoded; a document is nil when it is absent or
// broke a schema rule, and the cross-checks then leave it out.
type metadata struct {
	source     *Source
	brief      *Brief
	events     []SourceEvent
	eventsOK   bool
	validation *ValidationReport
}

// checkMetadata is the Safe Producer part of stage 5 (section 7): the four
// schemas, source/prompt.md, then each cross-file check in the contract's
// order. m is nil when the manifest broke a rule; the checks against it are
// then skipped, since stage 4 has already rejected the package. It returns
// source.json's provenance, "" when that document is absent or broke a
// schema rule, for the media gate's skill-full-source rules.
func checkMetadata(c *checker, fs *fileSet, m *Manifest) Provenance {
	var meta metadata
	if data, ok := readMetadataFile(c, fs, sourcePath); ok {
		if v, ok := decodeMetadata(c, sourcePath, data, &sourceDoc); ok {
			meta.source = v.(*Source)
		}
	}
	if data, ok := readMetadataFile(c, fs, briefPath); ok {
		if v, ok := decodeMetadata(c, briefPath, data, &briefDoc); ok {
			meta.brief = v.(*Brief)
		}
	}
	if data, ok := readMetadataFile(c, fs, sessionPath); ok {
		meta.events, meta.eventsOK = decodeEvents(c, data)
	}
	if data, ok := readMetadataFile(c, fs, validationPath); ok {
		if v, ok := decodeMetadata(c, validationPath, data, &validationDoc); ok {
			meta.validation = v.(*ValidationReport)
		}
	}
	checkPrompt(c, fs)
	if m != nil {
		checkIdentity(c, m, &meta)
		checkTiming(c, m, &meta)
	}
	checkReferences(c, fs, &meta)
	checkProvenance(c, &meta)
	if meta.validation != nil && !meta.validation.OK {
		c.fail(RuleValidationNotOK, validationPath, "/ok", "ok is false; a package is written only after it validates, so ok must be exactly true")
	}
	if meta.eventsOK {
		checkLifecycle(c, meta.events)
	}
	if meta.source == nil {
		return ""
	}
	return meta.source.Provenance
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

// decodeMetadata decodes one document strictly: the manifest's token pass
// (one object, UTF-8, no duplicate key), the exact schema identity first so
// an unknown version fails closed before anything else is read, the shape
// walk, and finally encoding/json with unknown fields disallowed into the
// Go type. where is the path findings name (a JSONL record adds :line).
func decodeMetadata(c *checker, where string, data []byte, doc *metaDocument) (interface{}, bool) {
	mark := c.count()
	for _, p := range scanObject(data) {
		rule := RuleMetadataMalformed
		if p.rule == RuleManifestDuplicateKey {
			rule = RuleMetadataDuplicateKey
		}
		c.fail(rule, where, p.pointer, "%s", p.msg)
	}
	if c.errorsSince(mark) {
		return nil, false
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		c.fail(RuleMetadataMalformed, where, "", "%v", err)
		return nil, false
	}
	var version string
	raw, present := top["schema_version"]
	if !present || kind(raw) != kindString || json.Unmarshal(raw, &version) != nil || version != doc.version {
		got := "no schema_version"
		if present {
			got = "schema_version " + describeVersion(raw)
		}
		c.fail(RuleMetadataSchemaVersion, where, "/schema_version", "%s: %s declares exactly %s (there is no untagged or other version)", got, doc.title, doc.version)
		return nil, false
	}
	w := &metaWalker{c: c, path: where}
	w.value(data, "", doc.t)
	if c.errorsSince(mark) {
		return nil, false
	}
	v := doc.newGo()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// The walk accepted the document; a disagreement is a bug here
		// or a shape encoding/json reads differently, and fails closed.
		c.fail(RuleMetadataMalformed, where, "", "the strict decoder disagrees with the field checks (%v)", err)
		return nil, false
	}
	return v, true
}

func describeVersion(raw json.RawMessage) string {
	var s string
	if kind(raw) == kindString && json.Unmarshal(raw, &s) == nil {
		return strconv.Quote(truncate(s, 64))
	}
	return "of type " + string(kind(raw))
}

// decodeEvents decodes each line of the session log as one record; ok is
// false when any record failed, so the lifecycle is only judged on a log
// that decoded whole. Only the final line may be empty (the trailing
// newline).
func decodeEvents(c *checker, data []byte) ([]SourceEvent, bool) {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	var out []SourceEvent
	ok := true
	for i, line := range lines {
		where := sessionPath + ":" + strconv.Itoa(i+1)
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			c.fail(RuleMetadataMalformed, where, "", "an empty line: every line of the session log is one record")
			ok = false
			continue
		}
		v, good := decodeMetadata(c, where, line, &eventDoc)
		if !good {
			ok = false
			continue
		}
		out = append(out, *v.(*SourceEvent))
	}
	return out, ok
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

// checkIdentity compares each document's identity fields with the
// manifest's, rule by rule in the contract's order.
func checkIdentity(c *checker, m *Manifest, meta *metadata) {
	type claim struct {
		path, ptr string
		got, want string
		rule      Rule
	}
	var claims []claim
	if s := meta.source; s != nil {
		claims = append(claims,
			claim{sourcePath, "/id", s.ID, m.ID, RuleMetadataIDMismatch},
			claim{sourcePath, "/name", s.Name, m.Name, RuleMetadataNameMismatch},
			claim{sourcePath, "/style", s.Style, m.Style, RuleMetadataStyleMismatch},
			claim{sourcePath, "/quality", string(s.Quality), string(m.Quality), RuleMetadataQualityMismatch},
		)
	}
	if b := meta.brief; b != nil {
		claims = append(claims,
			claim{briefPath, "/id", b.ID, m.ID, RuleMetadataIDMismatch},
			claim{briefPath, "/name", b.Name, m.Name, RuleMetadataNameMismatch},
			claim{briefPath, "/style", b.Style, m.Style, RuleMetadataStyleMismatch},
			claim{briefPath, "/quality", string(b.Quality), string(m.Quality), RuleMetadataQualityMismatch},
		)
	}
	if v := meta.validation; v != nil {
		claims = append(claims, claim{validationPath, "/pet_id", v.PetID, m.ID, RuleMetadataIDMismatch})
	}
	// Report in rule order, then document order, like the rest of the stage.
	sort.SliceStable(claims, func(i, j int) bool { return ruleIndex[claims[i].rule] < ruleIndex[claims[j].rule] })
	for _, cl := range claims {
		if cl.got != cl.want {
			c.fail(cl.rule, cl.path, cl.ptr, "%s is not the manifest's %s", strconv.Quote(truncate(cl.got, 64)), strconv.Quote(truncate(cl.want, 64)))
		}
	}
	if s := meta.source; s != nil && s.RenderSize != m.RenderSize {
		c.fail(RuleMetadataRenderSizeMismatch, sourcePath, "/render_size", "%dx%d is not the manifest's %dx%d", s.RenderSize.Width, s.RenderSize.Height, m.RenderSize.Width, m.RenderSize.Height)
	}
}

// checkTiming compares the nine timing contracts, then the frame counts.
// The counts are checked against the manifest's durations: the media gate
// has already proved (or rejected with frame_count_mismatch) that each
// frames directory holds exactly that many PNG files, so a missing frame is
// reported once, by the rule that names it.
func checkTiming(c *checker, m *Manifest, meta *metadata) {
	if s := meta.source; s != nil {
		seen := map[Action]int{}
		for i, st := range s.States {
			ptr := "/states/" + strconv.Itoa(i)
			if first, dup := seen[st.Name]; dup {
				c.fail(RuleMetadataTimingMismatch, sourcePath, ptr+"/name", "a second timing contract for %s (the first is /states/%d)", st.Name, first)
				continue
			}
			seen[st.Name] = i
			ms := m.State(st.Name)
			if ms == nil {
				continue // the manifest itself is missing the state
			}
			switch {
			case !reflect.DeepEqual(st.FrameDurationsMS, ms.FrameDurationsMS):
				c.fail(RuleMetadataTimingMismatch, sourcePath, ptr+"/frame_durations_ms", "%s durations %v are not the manifest's %v", st.Name, st.FrameDurationsMS, ms.FrameDurationsMS)
			case !reflect.DeepEqual(st.Playback, ms.Playback):
				c.fail(RuleMetadataTimingMismatch, sourcePath, ptr+"/playback", "%s playback differs from the manifest's", st.Name)
			case st.ReducedMotionFrameIndex != ms.ReducedMotionFrameIndex:
				c.fail(RuleMetadataTimingMismatch, sourcePath, ptr+"/reduced_motion_frame_index", "%s reduced-motion index %d is not the manifest's %d", st.Name, st.ReducedMotionFrameIndex, ms.ReducedMotionFrameIndex)
			}
		}
		for _, a := range Actions() {
			if _, ok := seen[a]; !ok {
				c.fail(RuleMetadataTimingMismatch, sourcePath, "/states", "no timing contract for %s: source.json restates all nine", a)
			}
		}
	}
	total := 0
	for _, st := range m.States {
		total += len(st.FrameDurationsMS)
	}
	if s := meta.source; s != nil {
		for i, st := range s.States {
			if ms := m.State(st.Name); ms != nil && st.FrameCount != len(ms.FrameDurationsMS) {
				c.fail(RuleMetadataFrameCountMismatch, sourcePath, "/states/"+strconv.Itoa(i)+"/frame_count", "%s has %d frames, not %d", st.Name, len(ms.FrameDurationsMS), st.FrameCount)
			}
		}
	}
	if v := meta.validation; v != nil {
		for _, a := range Actions() {
			if ms := m.State(a); ms != nil && v.FrameCounts.Of(a) != len(ms.FrameDurationsMS) {
				c.fail(RuleMetadataFrameCountMismatch, validationPath, "/frame_counts/"+string(a), "%s has %d frames, not %d", a, len(ms.FrameDurationsMS), v.FrameCounts.Of(a))
			}
		}
	}
	if s := meta.source; s != nil && s.TotalFrameCount != total {
		c.fail(RuleMetadataTotalFrameCountMismatch, sourcePath, "/total_frame_count", "the package has %d frames, not %d", total, s.TotalFrameCount)
	}
	if v := meta.validation; v != nil && v.TotalFrameCount != total {
		c.fail(RuleMetadataTotalFrameCountMismatch, validationPath, "/total_frame_count", "the package has %d frames, not %d", total, v.TotalFrameCount)
	}
}

// checkReferences holds source.json's inventory against source/references/
// (exact set, sizes, SHA-256) and the brief's and validation report's path
// lists against the inventory.
func checkReferences(c *checker, fs *fileSet, meta *metadata) {
	s := meta.source
	if s == nil {
		return
	}
	onDisk := map[string]*node{}
	if dir := fs.lookup(referencesDir); dir != nil && dir.dir {
		collectFiles(dir, referencesDir+"/", onDisk)
	}
	listed := map[string]bool{}
	for i, r := range s.References {
		ptr := "/references/" + strconv.Itoa(i) + "/path"
		if probs := pathProblems(r.Path); len(probs) > 0 {
			c.fail(RuleReferencePathInvalid, sourcePath, ptr, "%s: %s", quoteShort(r.Path), probs[0].msg)
			continue
		}
		if listed[r.Path] {
			c.fail(RuleReferencePathInvalid, sourcePath, ptr, "%s is listed twice", quoteShort(r.Path))
			continue
		}
		listed[r.Path] = true
		n := onDisk[r.Path]
		if n == nil {
			c.fail(RuleReferenceMissing, sourcePath, ptr, "%s/%s is not in the package", referencesDir, r.Path)
		}
	}
	var unlisted []string
	for p := range onDisk {
		if !listed[p] {
			unlisted = append(unlisted, p)
		}
	}
	sort.Strings(unlisted)
	for _, p := range unlisted {
		c.fail(RuleReferenceUnlisted, referencesDir+"/"+p, "", "the file is not in source.json's reference inventory")
	}
	for i, r := range s.References {
		if n := onDisk[r.Path]; n != nil && listed[r.Path] && n.e.size != r.Size {
			c.fail(RuleReferenceSizeMismatch, sourcePath, "/references/"+strconv.Itoa(i)+"/size", "%s is %d bytes, not %d", r.Path, n.e.size, r.Size)
		}
	}
	for i, r := range s.References {
		n := onDisk[r.Path]
		if n == nil || !listed[r.Path] || n.e.size != r.Size {
			continue
		}
		sum, err := hashFile(fs, n)
		var ce *contentError
		switch {
		case errors.As(err, &ce):
			c.fail(ce.rule, n.path, "", "%s", ce.msg)
		case err != nil:
			c.fail(RulePackageUnreadable, n.path, "", "%v", err)
		case sum != r.SHA256:
			c.fail(RuleReferenceDigestMismatch, sourcePath, "/references/"+strconv.Itoa(i)+"/sha256", "%s has SHA-256 %s", r.Path, sum)
		}
	}
	want := make([]string, 0, len(listed))
	for p := range listed {
		want = append(want, p)
	}
	sort.Strings(want)
	if b := meta.brief; b != nil && !sameSet(b.References, want) {
		c.fail(RuleReferenceListMismatch, briefPath, "/references", "the reference paths are not source.json's inventory %v", want)
	}
	if v := meta.validation; v != nil && !sameSet(v.References, want) {
		c.fail(RuleReferenceListMismatch, validationPath, "/references", "the reference paths are not source.json's inventory %v", want)
	}
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

func hashFile(fs *fileSet, n *node) (string, error) {
	rc, err := fs.src.open(n.e)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, onlyReader{rc}); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sameSet reports whether got holds exactly the sorted, distinct want.
func sameSet(got, want []string) bool {
	g := append([]string(nil), got...)
	sort.Strings(g)
	return reflect.DeepEqual(g, want) || (len(g) == 0 && len(want) == 0)
}

// checkProvenance applies the generator/provenance rules of section 7.
// Every provenance already restates complete timing with exact frame
// counts, so skill-full-source adds only preview_only false and a full
// visual source; deterministic and materializer output has none to name.
func checkProvenance(c *checker, meta *metadata) {
	s := meta.source
	if s == nil {
		return
	}
	switch s.Provenance {
	case ProvenanceSkillFullSource:
		if s.PreviewOnly {
			c.fail(RuleProvenancePreviewOnly, sourcePath, "/preview_only", "skill-full-source provenance requires preview_only false")
		}
		if s.VisualSource == nil {
			c.fail(RuleProvenanceVisualSourceMissing, sourcePath, "/visual_source", "skill-full-source provenance requires a full visual source")
		}
	case ProvenanceDeterministic, ProvenanceMaterializer:
		if s.VisualSource != nil {
			c.fail(RuleProvenanceVisualSourceForbidden, sourcePath, "/visual_source", "%s provenance has no full visual source to declare", s.Provenance)
		}
	}
}

// checkLifecycle: records are numbered 1 to n, the first is started, the
// last completed, and neither appears anywhere else.
func checkLifecycle(c *checker, events []SourceEvent) {
	if len(events) == 0 {
		c.fail(RuleEventLifecycleInvalid, sessionPath, "", "the session log has no records; it runs from started to completed")
		return
	}
	for i, e := range events {
		if e.Sequence != i+1 {
			c.fail(RuleEventSequenceInvalid, sessionPath+":"+strconv.Itoa(i+1), "/sequence", "sequence %d on record %d; records are numbered 1 to n in order", e.Sequence, i+1)
		}
	}
	last := len(events) - 1
	for i, e := range events {
		where := sessionPath + ":" + strconv.Itoa(i+1)
		switch {
		case i == 0 && e.Type != EventStarted:
			c.fail(RuleEventLifecycleInvalid, where, "/type", "the first record is %s, not started", e.Type)
		case i == last && e.Type != EventCompleted:
			c.fail(RuleEventLifecycleInvalid, where, "/type", "the last record is %s, not completed", e.Type)
		case i != 0 && i != last && (e.Type == EventStarted || e.Type == EventCompleted):
			c.fail(RuleEventLifecycleInvalid, where, "/type", "%s in the middle of the session; it starts once and completes once", e.Type)
		}
	}
}
