// Package gazelle is the Gazelle language extension `pet`: it finds
// manifest.petasset files and .petpack source trees and writes the
// pet_asset_set and petpack_set targets a user would otherwise write by
// hand. See docs/gazelle.md.
package gazelle

import (
	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

type petLang struct{}

// NewLanguage returns the extension; gazelle_binary calls it.
func NewLanguage() language.Language { return &petLang{} }

// Name is the extension's name.
func (*petLang) Name() string { return languageName }

// Kinds returns how Gazelle merges the generated rules.
func (*petLang) Kinds() map[string]rule.KindInfo { return petKinds }

// Loads returns the load statement the generated rules need.
func (*petLang) Loads() []rule.LoadInfo { return loads }

// Fix changes nothing: there is no older form to migrate.
func (*petLang) Fix(c *config.Config, f *rule.File) {}

// Imports returns nothing: no other rule finds a pet by an import.
func (*petLang) Imports(c *config.Config, r *rule.Rule, f *rule.File) []resolve.ImportSpec {
	return nil
}

// Embeds returns nothing.
func (*petLang) Embeds(r *rule.Rule, from label.Label) []label.Label { return nil }

// Resolve has nothing to resolve: the generated rules name files only.
func (*petLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports interface{}, from label.Label) {
}
