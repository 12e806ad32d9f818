package gazelle

import "github.com/bazelbuild/bazel-gazelle/rule"

// The rules the extension writes and the file they are loaded from, in one
// place: switching to other rule names (or back to the individual rules) is
// a change of this file and of the test cases' BUILD.out files.
const (
	// kindAssetSet is the whole PETP asset set macro (rules/private/pet.bzl).
	kindAssetSet = "pet_asset_set"
	// kindPetpack is the whole .petpack pet macro (rules/private/pet.bzl).
	kindPetpack = "petpack_set"
	// defsLabel is the public entry point that re-exports both macros.
	defsLabel = "@rules_pet//rules:defs.bzl"
)

// petKinds tells Gazelle how to merge what it generates into an existing
// rule. Mergeable attributes are the ones derived from files (the sprites a
// manifest names) or from the pet's spec; everything else a user writes by
// hand (golden, prefix, cc_symbol, tags, visibility, motions, ...) is left
// alone on update, and a `# keep` comment protects a mergeable one too.
var petKinds = map[string]rule.KindInfo{
	kindAssetSet: {
		NonEmptyAttrs:  map[string]bool{"images": true},
		MergeableAttrs: map[string]bool{"images": true, "manifest": true},
	},
	kindPetpack: {
		NonEmptyAttrs: map[string]bool{"pet_id": true},
		MergeableAttrs: map[string]bool{
			"created_at":   true,
			"description":  true,
			"display_name": true,
			"pet_id":       true,
			"prompt":       true,
			"quality":      true,
			"style":        true,
		},
	},
}

// handWrittenAssetKinds and handWrittenPetpackKinds are the individual rules
// a package may already declare its pet with. Such a package is left alone:
// generating the macro beside them would declare the same pet twice.
var (
	handWrittenAssetKinds = map[string]bool{
		"pet_manifest":       true,
		"pet_runtime_assets": true,
		"pet_asset_pack":     true,
		"pet_pack":           true, // the deprecated name of pet_asset_pack
	}
	handWrittenPetpackKinds = map[string]bool{
		"petpack_archive": true,
	}
)

// loads lists the symbols the generated rules need.
var loads = []rule.LoadInfo{{
	Name:    defsLabel,
	Symbols: []string{kindAssetSet, kindPetpack},
}}
