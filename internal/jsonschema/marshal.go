package jsonschema

import (
	"bytes"
	"encoding/json"
)

// Draft is the $schema of every Document.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// MarshalJSON writes the document as a JSON Schema file: $schema, $id,
// title, the root's keywords, then $defs with every named schema the root
// reaches, in the order first reached. Output is indented and
// deterministic.
func (d *Document) MarshalJSON() ([]byte, error) {
	c := &collector{seen: map[*Schema]bool{}}
	root := c.node(d.Root)
	top := ordered{{"$schema", Draft}, {"$id", d.ID}, {"title", d.Title}}
	top = append(top, root...)
	if len(c.defs) > 0 {
		var defs ordered
		for i := 0; i < len(c.defs); i++ { // node appends as it walks
			defs = append(defs, member{c.defs[i].Name, c.node(c.defs[i])})
		}
		top = append(top, member{"$defs", defs})
	}
	raw, err := json.Marshal(top)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

type collector struct {
	defs []*Schema
	seen map[*Schema]bool
}

// ref writes a child: a named schema as a reference, anything else inline.
func (c *collector) ref(s *Schema) interface{} {
	if s.Name != "" {
		return ordered{{"$ref", c.defRef(s)}}
	}
	return c.node(s)
}

func (c *collector) defRef(s *Schema) string {
	if !c.seen[s] {
		c.seen[s] = true
		c.defs = append(c.defs, s)
	}
	return "#/$defs/" + s.Name
}

func (c *collector) refs(list []*Schema) []interface{} {
	out := make([]interface{}, len(list))
	for i, s := range list {
		out[i] = c.ref(s)
	}
	return out
}

// node writes s's own keywords (for a definition, its body).
func (c *collector) node(s *Schema) ordered {
	var o ordered
	add := func(k string, v interface{}) { o = append(o, member{k, v}) }
	if s.Description != "" {
		add("description", s.Description)
	}
	if s.Ref != nil {
		add("$ref", c.defRef(s.Ref))
	}
	switch len(s.Type) {
	case 0:
	case 1:
		add("type", s.Type[0])
	default:
		add("type", s.Type)
	}
	if s.HasConst {
		add("const", s.Const)
	}
	if s.Enum != nil {
		add("enum", s.Enum)
	}
	if s.MinLength > 0 {
		add("minLength", s.MinLength)
	}
	if s.MaxLength > 0 {
		add("maxLength", s.MaxLength)
	}
	if s.Pattern != "" {
		add("pattern", s.Pattern)
	}
	if s.Format != "" {
		add("format", s.Format)
	}
	if s.Minimum != nil {
		add("minimum", *s.Minimum)
	}
	if s.Maximum != nil {
		add("maximum", *s.Maximum)
	}
	if s.MinItems > 0 {
		add("minItems", s.MinItems)
	}
	if s.MaxItems > 0 {
		add("maxItems", s.MaxItems)
	}
	if s.UniqueItems {
		add("uniqueItems", true)
	}
	if s.Items != nil {
		add("items", c.ref(s.Items))
	}
	if s.Contains != nil {
		add("contains", c.ref(s.Contains))
	}
	if s.MinContains != nil {
		add("minContains", *s.MinContains)
	}
	if s.MaxContains != nil {
		add("maxContains", *s.MaxContains)
	}
	if s.Closed {
		add("additionalProperties", false)
	}
	if s.Required != nil {
		add("required", s.Required)
	}
	if s.Properties != nil {
		var props ordered
		for _, p := range s.Properties {
			props = append(props, member{p.Name, c.ref(p.Schema)})
		}
		add("properties", props)
	}
	if s.MaxProperties > 0 {
		add("maxProperties", s.MaxProperties)
	}
	if s.PropertyNames != nil {
		add("propertyNames", c.ref(s.PropertyNames))
	}
	if s.AllOf != nil {
		add("allOf", c.refs(s.AllOf))
	}
	if s.AnyOf != nil {
		add("anyOf", c.refs(s.AnyOf))
	}
	if s.OneOf != nil {
		add("oneOf", c.refs(s.OneOf))
	}
	if s.Not != nil {
		add("not", c.ref(s.Not))
	}
	if s.If != nil {
		add("if", c.ref(s.If))
	}
	if s.Then != nil {
		add("then", c.ref(s.Then))
	}
	if o == nil {
		o = ordered{}
	}
	return o
}

// ordered is a JSON object that keeps its member order.
type ordered []member

type member struct {
	k string
	v interface{}
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.k)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
