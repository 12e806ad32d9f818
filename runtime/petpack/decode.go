package petpack

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/agentpet/rules_pet/internal/strictjson"
)

// ValidateManifest checks manifest.json bytes on their own: the size bound,
// stage 3 (exactly apc.petpack.v3, V1 and V2 recognised and rejected before
// typed decoding) and the manifest rules of stage 4 (sections 4, 5 and 10).
// The verdict's Manifest is set when no error was found.
func ValidateManifest(data []byte) *Verdict {
	c := newChecker()
	if len(data) > MaxManifestBytes {
		c.fail(RuleManifestTooLarge, manifestPath, "", "%d bytes is over the %d-byte manifest bound", len(data), MaxManifestBytes)
		return c.verdict(nil)
	}
	return c.verdict(checkManifest(c, data))
}

const manifestPath = "manifest.json"

// checkManifest runs stage 3 and the manifest part of stage 4 and returns
// the manifest when it broke no rule.
func checkManifest(c *checker, data []byte) *Manifest {
	mark := c.count()
	for _, p := range strictjson.CheckObject(data) {
		rule := RuleManifestMalformed
		if p.Kind == strictjson.DuplicateKey {
			rule = RuleManifestDuplicateKey
		}
		c.fail(rule, manifestPath, p.Pointer, "%s", p.Msg)
	}
	if c.errorsSince(mark) {
		return nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		// strictjson accepted the bytes; only nesting deeper than
		// encoding/json's limit gets here.
		c.fail(RuleManifestMalformed, manifestPath, "", "%v", err)
		return nil
	}
	if !checkVersion(c, top["schema_version"]) {
		return nil
	}
	d := &manifestDecoder{c: c}
	m := d.manifest(top)
	if c.errorsSince(mark) {
		return nil
	}
	// The walk above reads exact keys; encoding/json matches struct fields
	// case-insensitively, so the strict decoder only runs after the walk
	// has rejected every key it does not know, as a second opinion: it must
	// accept and agree.
	var again Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&again); err != nil || !reflect.DeepEqual(&again, m) {
		c.fail(RuleManifestMalformed, manifestPath, "", "the strict decoder disagrees with the field checks (%v)", err)
		return nil
	}
	timingWarnings(c, m)
	return m
}

// legacyVersions are recognised only to say that the pet must be recreated;
// they have no migration path (section 10).
var legacyVersions = []string{"apc.petpack.v1", "apc.petpack.v2"}

// checkVersion is stage 3: only the schema_version string is looked at, so
// a V1 or V2 manifest gets the recreate message whatever else it holds.
func checkVersion(c *checker, raw json.RawMessage) bool {
	if raw == nil {
		c.fail(RuleSchemaVersionMissing, manifestPath, "/schema_version", "the manifest has no schema_version; only %s is read", SchemaVersion)
		return false
	}
	var v string
	if kind(raw) != kindString || json.Unmarshal(raw, &v) != nil {
		c.fail(RuleSchemaVersionMissing, manifestPath, "/schema_version", "schema_version is a JSON %s, not a string; only %s is read", kind(raw), SchemaVersion)
		return false
	}
	for _, l := range legacyVersions {
		if v == l {
			c.fail(RuleSchemaVersionLegacy, manifestPath, "/schema_version",
				"%s packages are no longer supported and are not migrated: recreate the pet with a V3 maker (%s)", v, SchemaVersion)
			return false
		}
	}
	if v != SchemaVersion {
		c.fail(RuleSchemaVersionUnknown, manifestPath, "/schema_version", "schema_version %s is unknown; only %s is read", strconv.Quote(truncate(v, 64)), SchemaVersion)
		return false
	}
	return true
}
