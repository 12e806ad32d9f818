package petpack

import (
	"fmt"
	"sort"
	"strings"

	js "github.com/agentpet/rules_pet/internal/jsonschema"
)

// readmeIntro is schemas/README.md's prose; ~ stands for a backquote,
// which a Go raw string cannot hold.
const readmeIntro = `# Safe Producer metadata schemas

The four metadata documents of a ~.petpack~ V3 package (contract section
7), as the contract's authors publish them for V3. ~runtime/petpack~
enforces them and these files are generated from its declarative
description (~runtime/petpack/metaschema.go~, written with
~internal/jsonschema~): ~go test ./runtime/petpack -run
TestSchemaFilesCurrent -update-schemas~ rewrites them and this README, and
the plain test run fails when they are stale. Every keyword has JSON
Schema's meaning (Draft 2020-12, formats asserted); a generated test breaks
each keyword of each schema alone and checks both this validator and an
independent JSON Schema implementation reject it.

| Document | schema_version | Schema |
| -------- | -------------- | ------ |
| source/source.json | apc.pet-source.v1 | pet-source.schema.json |
| brief.json | apc.pet-brief.v1 | pet-brief.schema.json |
| each line of source/skill_session.jsonl | apc.pet-source-event.v1 | pet-source-event.schema.json |
| build/validation.json | apc.pet-validation.v1 | pet-validation.schema.json |

Reading rules:

- ~schema_version~ is read first and must be exactly the document's
  identity (~metadata_schema_version~); there is no untagged, older or newer
  branch. Then every keyword is checked and each failure is reported as
  ~FILE: schema_KEYWORD: POINTER message~, for example
  ~source/source.json: schema_required: /states/3/frames_dir is required~.
- A document is one JSON object, UTF-8, with no key twice, at most 1 MiB.
  The session log is JSONL: one record per line, LF or CRLF, no empty line
  but the final newline, and at least one record.
- Lengths are counted in code points; ~\S~ and ~\s~ in patterns are
  ECMA-262's (Unicode white space, not only ASCII); an integer is any number
  without a fraction (~50.0~ is one).
- ~extensions~ (at most 32 members in source and brief, 16 in events and
  validation) is keyed by names matching the reverse-domain pattern, such as
  ~dev.agentpet.validation/fixture~; values are any JSON the validator does
  not interpret beyond the privacy check.

What the schemas cannot express, the validator cross-checks (stage 5):

- ~manifest_id~, ~pet_name~ / ~name~, ~style~, ~quality~ and ~render_size~
  equal the manifest's wherever a document carries them (source, brief,
  every event, validation).
- Every restated ~states~ array (source ~states~, brief
  ~runtime.states~, event ~state_timings~, validation ~states~) equals the
  manifest's ~states~ array, in the manifest's order, as the contract's
  authors compare it; every ~state_frame_counts~ equals the package's frame
  counts; validation ~frame_count~ their sum; each brief state's timing its
  action's; a ~states.rendered~ event names all nine actions.
- A ~manifest~ copied into validation.json is a valid V3 manifest equal to
  manifest.json.
- brief ~generation~'s generator, provenance, skill_helper and
  preview_only equal source.json's where both carry them.
- References: a path is written relative to ~source/references/~ or with
  that prefix, both naming the same file, and obeys the package path rules.
  source ~reference_files~, when present, lists exactly the files of
  ~source/references/~ (without it the directory must be empty); brief
  ~references~ names the same set; ~copied_reference_count~ and each
  event's ~reference_count~ equal the number of files.
- ~provenance: skill-full-source~: the source schema already requires
  ~visual_source~ image-generation or user-reference-derived, ~states~,
  ~state_frame_counts~ and ~preview_only: false~, and forbids
  ~materialized_by~; validation.json and brief ~generation~ may not claim
  ~preview_only: true~ and validation.json no ~materialized_by~; the
  media gate's coverage and duplicate checks become errors.
- ~source/prompt.md~ (not JSON) is non-empty UTF-8 text without NUL.
- Every key and string value of every document passes the recursive privacy
  check.
`

// schemaReadme documents each schema's members from the descriptions the
// validator enforces.
func schemaReadme() string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(readmeIntro, "~", "`"))
	defs := map[string]*js.Schema{}
	for _, d := range metaDocuments {
		fmt.Fprintf(&b, "\n## %s (`%s`, %s)\n\n", d.title, d.version, d.file)
		b.WriteString("| Member | Required | Schema |\n| ------ | -------- | ------ |\n")
		members(&b, "", d.schema, defs)
		if c := conditions(d.schema); c != "" {
			b.WriteString("\n" + c)
		}
	}
	b.WriteString("\n## Definitions\n\n| Definition | Schema |\n| ---------- | ------ |\n")
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "| `%s` | %s |\n", n, strings.ReplaceAll(summary(defs[n], defs, true), "|", "\\|"))
	}
	return b.String()
}

func members(b *strings.Builder, prefix string, s *js.Schema, defs map[string]*js.Schema) {
	for _, p := range s.Properties {
		req := "no"
		for _, r := range s.Required {
			if r == p.Name {
				req = "yes"
			}
		}
		fmt.Fprintf(b, "| `%s%s` | %s | %s |\n", prefix, p.Name, req, strings.ReplaceAll(summary(p.Schema, defs, false), "|", "\\|"))
		if p.Schema.Name == "" && len(p.Schema.Properties) > 0 && len(p.Schema.Type) > 0 {
			members(b, prefix+p.Name+".", p.Schema, defs)
		}
	}
}

// summary describes a node in a few words; a definition is named and
// described once in the Definitions table.
func summary(s *js.Schema, defs map[string]*js.Schema, self bool) string {
	if s.Name != "" && !self {
		defs[s.Name] = s
		return "[" + s.Name + "](#definitions)"
	}
	var parts []string
	if s.Ref != nil {
		parts = append(parts, summary(s.Ref, defs, false))
	}
	if len(s.Type) > 0 {
		parts = append(parts, strings.Join(s.Type, " or "))
	}
	if s.HasConst {
		parts = append(parts, fmt.Sprintf("exactly `%v`", s.Const))
	}
	if s.Enum != nil {
		var e []string
		for _, v := range s.Enum {
			e = append(e, fmt.Sprint(v))
		}
		parts = append(parts, "one of `"+strings.Join(e, "`, `")+"`")
	}
	if s.MinLength > 0 || s.MaxLength > 0 {
		parts = append(parts, fmt.Sprintf("%d to %d characters", s.MinLength, s.MaxLength))
	}
	if s.Pattern != "" {
		parts = append(parts, "matches `"+s.Pattern+"`")
	}
	if s.Format != "" {
		parts = append(parts, "format "+s.Format)
	}
	if s.Minimum != nil && s.Maximum != nil {
		parts = append(parts, fmt.Sprintf("%d to %d", *s.Minimum, *s.Maximum))
	} else if s.Minimum != nil {
		parts = append(parts, fmt.Sprintf("at least %d", *s.Minimum))
	}
	if s.MinItems > 0 || s.MaxItems > 0 {
		parts = append(parts, fmt.Sprintf("%d to %d items", s.MinItems, s.MaxItems))
	}
	if s.UniqueItems {
		parts = append(parts, "unique")
	}
	if s.Items != nil {
		parts = append(parts, "each "+summary(s.Items, defs, false))
	}
	if s.Contains != nil {
		parts = append(parts, "contains "+summary(s.Contains, defs, false))
	}
	if s.Closed {
		parts = append(parts, "closed")
	}
	if s.Name != "" && len(s.Properties) > 0 {
		var ps []string
		for _, p := range s.Properties {
			ps = append(ps, "`"+p.Name+"`: "+summary(p.Schema, defs, false))
		}
		parts = append(parts, "members "+strings.Join(ps, "; "))
	}
	if len(s.Required) > 0 && s.Name != "" {
		parts = append(parts, "requires `"+strings.Join(s.Required, "`, `")+"`")
	}
	if s.MaxProperties > 0 {
		parts = append(parts, fmt.Sprintf("at most %d members", s.MaxProperties))
	}
	if s.PropertyNames != nil {
		parts = append(parts, "names match `"+s.PropertyNames.Pattern+"`")
	}
	for _, a := range s.AnyOf {
		parts = append(parts, "any of: "+summary(a, defs, false))
	}
	for i, a := range s.OneOf {
		if i == 0 {
			parts = append(parts, "exactly one of:")
		}
		parts = append(parts, summary(a, defs, false))
	}
	if s.Not != nil {
		parts = append(parts, "not "+summary(s.Not, defs, false))
	}
	if len(s.AllOf) > 0 && s.Name != "" {
		parts = append(parts, conditionsInline(s))
	}
	return strings.Join(parts, "; ")
}

// conditions lists a schema's if/then clauses as sentences.
func conditions(s *js.Schema) string {
	var b strings.Builder
	for _, a := range s.AllOf {
		if a.If == nil {
			continue
		}
		fmt.Fprintf(&b, "- When %s: %s.\n", condition(a.If), thenText(a.Then))
	}
	return b.String()
}

func conditionsInline(s *js.Schema) string {
	var parts []string
	for _, a := range s.AllOf {
		if a.If != nil {
			parts = append(parts, "when "+condition(a.If)+": "+thenText(a.Then))
		}
	}
	return strings.Join(parts, "; ")
}

func condition(s *js.Schema) string {
	for _, p := range s.Properties {
		if p.Schema.HasConst {
			return fmt.Sprintf("`%s` is `%v`", p.Name, p.Schema.Const)
		}
	}
	return "the condition holds"
}

func thenText(s *js.Schema) string {
	var parts []string
	if len(s.Required) > 0 {
		parts = append(parts, "requires `"+strings.Join(s.Required, "`, `")+"`")
	}
	for _, p := range s.Properties {
		parts = append(parts, "`"+p.Name+"` "+summaryPlain(p.Schema))
	}
	if s.Not != nil {
		names := s.Not.Required
		for _, a := range s.Not.AnyOf {
			names = append(names, a.Required...)
		}
		parts = append(parts, "forbids `"+strings.Join(names, "`, `")+"`")
	}
	return strings.Join(parts, ", ")
}

func summaryPlain(s *js.Schema) string {
	if s.Name != "" {
		return "is " + s.Name
	}
	if len(s.Properties) == 1 {
		return "." + s.Properties[0].Name + " " + summaryPlain(s.Properties[0].Schema)
	}
	if s.HasConst {
		return fmt.Sprintf("is `%v`", s.Const)
	}
	if s.Enum != nil {
		var e []string
		for _, v := range s.Enum {
			e = append(e, fmt.Sprint(v))
		}
		return "is one of `" + strings.Join(e, "`, `") + "`"
	}
	return "matches"
}
