// Package jsonschema holds JSON Schema (draft 2020-12) documents as Go
// values and validates JSON against them. It implements exactly the
// keywords the .petpack V3 Safe Producer schemas use, with JSON Schema's
// meaning: type (including unions such as ["object","null"]), const, enum,
// the string keywords (minLength and maxLength counted in code points,
// pattern as an ECMA-262 regular expression, format date-time as RFC
// 3339), minimum and maximum, the array keywords (items, minItems,
// maxItems, uniqueItems, contains, minContains, maxContains), the object
// keywords (properties, required, additionalProperties false,
// maxProperties, propertyNames), $ref, allOf, anyOf, oneOf, not and
// if/then.
//
// A schema is written once, as a Go value, and serves three readers: the
// validator (Validate), the published schema file (Document.MarshalJSON)
// and the documentation generated from it. A keyword the package does not
// implement cannot be written, so a schema cannot say more than is
// enforced.
package jsonschema

// Schema is one schema node. The zero value accepts everything. Fields
// that are zero are absent, except where a pointer says otherwise (a bound
// of 0 is a real bound).
type Schema struct {
	// Name, when set, makes the node a definition: a document writes it
	// once under $defs/Name and every Ref to it as {"$ref": "#/$defs/Name"}.
	Name string
	// Description is documentation only; it is never enforced.
	Description string
	// Ref applies another schema in place, alongside this node's keywords.
	Ref *Schema

	// Type lists the allowed JSON types: object, array, string, integer,
	// number, boolean, null. Integer is any number with no fraction.
	Type []string
	// Const is the one allowed value (string, bool, int or nil with
	// HasConst for null); HasConst marks it present.
	Const    interface{}
	HasConst bool
	// Enum lists the allowed values.
	Enum []interface{}

	// MinLength and MaxLength bound a string's length in code points
	// (0: absent).
	MinLength, MaxLength int
	// Pattern is an ECMA-262 regular expression a string must match
	// somewhere (unanchored, as JSON Schema reads it).
	Pattern string
	// Format names a string format; only "date-time" is implemented, and it
	// is asserted.
	Format string

	// Minimum and Maximum bound a number, inclusive.
	Minimum, Maximum *int64

	// Items is the schema of every array element.
	Items *Schema
	// MinItems and MaxItems bound an array's length (0: absent).
	MinItems, MaxItems int
	// UniqueItems requires the elements to be pairwise unequal JSON values.
	UniqueItems bool
	// Contains must match at least MinContains (default 1) and at most
	// MaxContains (nil: any number) elements.
	Contains                 *Schema
	MinContains, MaxContains *int

	// Properties are the schemas of named members, in the order they are
	// written and reported.
	Properties []Property
	// Required lists the members that must be present.
	Required []string
	// Closed is additionalProperties: false: only Properties may appear.
	Closed bool
	// MaxProperties bounds an object's member count (0: absent).
	MaxProperties int
	// PropertyNames is the schema every member name must match.
	PropertyNames *Schema

	// AllOf, AnyOf and OneOf are the combinators; Not must fail.
	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema
	// If and Then: when the instance matches If, it must match Then.
	If, Then *Schema
}

// Property is one named member of an object schema.
type Property struct {
	// Name is the member's key.
	Name string
	// Schema is the member's schema.
	Schema *Schema
}

// Int returns a pointer to n, for Minimum, Maximum, MinContains and
// MaxContains.
func Int(n int64) *int64 { return &n }

// Count returns a pointer to n, for MinContains and MaxContains.
func Count(n int) *int { return &n }

// Document is a top-level schema with its identity.
type Document struct {
	// ID is the schema's $id.
	ID string
	// Title is the schema's title.
	Title string
	// Root is the schema itself; definitions it reaches through Ref are
	// collected into $defs.
	Root *Schema
}
