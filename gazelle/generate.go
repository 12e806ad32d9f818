package gazelle

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/petpack/model"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

const (
	manifestFile = "manifest.petasset"
	framesDir    = "frames"
)

// actions are the fixed folders of frames/: the model's nine actions.
var actions = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range model.Actions() {
		m[string(a)] = true
	}
	return m
}()

// promptFiles are where a .petpack source tree keeps its prompt, in order of
// preference.
var promptFiles = []string{"source/prompt.md", "prompt.md"}

// petIDPattern is petpack_archive's pet_id.
var petIDPattern = regexp.MustCompile(`^pet_[a-z0-9]+$`)

var qualities = map[string]bool{"low": true, "standard": true, "high": true}

// GenerateRules writes one pet_asset_set for a manifest.petasset and one
// petpack_set for a .petpack source tree in the directory. A pet whose files
// are malformed or incomplete is reported and left out whole, so nothing
// half-made reaches the BUILD file; the other pet of the directory, if any,
// is still generated.
func (*petLang) GenerateRules(args language.GenerateArgs) language.GenerateResult {
	var res language.GenerateResult
	pc := getConfig(args.Config)
	if pc.disabled || underTestdata(args.Rel) {
		return res
	}
	var asset, petpack *rule.Rule
	if hasFile(args.RegularFiles, manifestFile) {
		r, err := generateAssetSet(args, pc)
		if err != nil {
			warnf("%v; no %s generated for it", err, kindAssetSet)
		}
		asset = r
	}
	if hasFile(args.Subdirs, framesDir) {
		r, err := generatePetpack(args, pc)
		if err != nil {
			warnf("%v; no %s generated for it", err, kindPetpack)
		}
		petpack = r
	}
	if asset != nil && petpack != nil && asset.Name() == petpack.Name() {
		// Both macros derive <name>_golden: keep the petpack's name, which
		// is also its archive's file name.
		asset.SetName(asset.Name() + "_assets")
	}
	for _, r := range []*rule.Rule{asset, petpack} {
		if r != nil {
			res.Gen = append(res.Gen, r)
			res.Imports = append(res.Imports, nil)
		}
	}
	return res
}

// generateAssetSet returns the pet_asset_set of the directory's manifest,
// nil without error when the package declares the set with the individual
// rules already.
func generateAssetSet(args language.GenerateArgs, pc *petConfig) (*rule.Rule, error) {
	if existingOfKinds(args.File, handWrittenAssetKinds) {
		return nil, nil
	}
	rel := path.Join(args.Rel, manifestFile)
	m, err := manifest.ReadFile(filepath.Join(args.Dir, manifestFile))
	if err != nil {
		var fe *manifest.FileError
		if errors.As(err, &fe) {
			fe.Path = rel // repository-relative, as Gazelle prints BUILD paths
			return nil, fe
		}
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	seen := map[string]bool{}
	var images []string
	for _, img := range m.Images {
		if seen[img.Path] {
			continue
		}
		seen[img.Path] = true
		if fi, err := os.Stat(filepath.Join(args.Dir, filepath.FromSlash(img.Path))); err != nil || !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: image %s names %s, which is not a file of %s", rel, img.ID, img.Path, dirName(args.Rel))
		}
		images = append(images, img.Path)
	}
	sort.Strings(images)

	name := pc.namePrefix + baseName(args.Rel)
	if existing := existingRule(args.File, kindAssetSet, func(r *rule.Rule) bool {
		mf := r.AttrString("manifest")
		return mf == "" || mf == manifestFile || mf == ":"+manifestFile
	}); existing != nil {
		name = existing.Name()
	}
	r := rule.NewRule(kindAssetSet, name)
	r.SetAttr("images", images)
	if pc.embedGo {
		importPath, ok := pc.importPath(args.Rel)
		if !ok {
			return nil, fmt.Errorf("%s: # gazelle:pet_embed go needs a # gazelle:prefix above %s for the Go import path", rel, dirName(args.Rel))
		}
		r.SetAttr("go_importpath", path.Join(importPath, name))
	}
	return r, nil
}

// generatePetpack returns the petpack_set of the directory's frames/ tree.
// A frames/ holding no action folder is not a pet: nil, no error.
func generatePetpack(args language.GenerateArgs, pc *petConfig) (*rule.Rule, error) {
	dir := filepath.Join(args.Dir, framesDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(args.Rel, framesDir), err)
	}
	var found, unknown []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if !actions[e.Name()] {
			unknown = append(unknown, e.Name())
			continue
		}
		pngs, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.png"))
		if err != nil {
			return nil, err
		}
		if len(pngs) > 0 {
			found = append(found, e.Name())
		}
	}
	if len(found) == 0 || existingOfKinds(args.File, handWrittenPetpackKinds) {
		return nil, nil
	}
	where := dirName(args.Rel)
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s: %s/ holds %s, which %s no action (known: %s)", where, framesDir,
			strings.Join(unknown, ", "), plural(len(unknown), "is", "are"), strings.Join(sortedKeys(actions), ", "))
	}
	prompt := ""
	for _, p := range promptFiles {
		if fi, err := os.Stat(filepath.Join(args.Dir, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
			prompt = p
			break
		}
	}
	if prompt == "" {
		return nil, fmt.Errorf("%s: a .petpack source tree (%s/%s/) needs a prompt: %s", where, framesDir, found[0], strings.Join(promptFiles, " or "))
	}

	// The values, strongest first: the spec file, the directives, and the
	// hand-written rule already in the BUILD file.
	spec := map[string]string{}
	specRel := path.Join(args.Rel, specFile)
	if data, err := os.ReadFile(filepath.Join(args.Dir, specFile)); err == nil {
		if spec, err = parseSpec(specRel, data); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", specRel, err)
	}
	existing := existingRule(args.File, kindPetpack, func(*rule.Rule) bool { return true })
	value := func(key string) string {
		if v, ok := spec[key]; ok {
			return v
		}
		if v, ok := pc.strings[key]; ok && key != "pet_id" {
			return v
		}
		if existing != nil {
			return existing.AttrString(key)
		}
		return ""
	}
	petID := value("pet_id")
	if petID == "" {
		petID = "pet_" + idPart(path.Base("/"+args.Rel))
	}
	if !petIDPattern.MatchString(petID) {
		return nil, fmt.Errorf("%s: pet_id %q does not match %s; set pet_id in %s", where, petID, petIDPattern, specRel)
	}
	name := pc.namePrefix + petID
	if existing != nil {
		name = existing.Name()
	}
	r := rule.NewRule(kindPetpack, name)
	r.SetAttr("pet_id", petID)
	r.SetAttr("prompt", prompt)
	for _, key := range specKeys {
		v := value(key)
		if v == "" {
			if requiredSpecKeys[key] {
				return nil, fmt.Errorf("%s: no %s for the .petpack: add `%s = ...` to %s or a # gazelle:pet_%s directive", where, key, key, specRel, key)
			}
			continue
		}
		if key == "quality" && !qualities[v] {
			return nil, fmt.Errorf("%s: quality %q: want low, standard or high", where, v)
		}
		r.SetAttr(key, v)
	}
	return r, nil
}

// existingRule returns the first rule of kind in f that match accepts.
func existingRule(f *rule.File, kind string, match func(*rule.Rule) bool) *rule.Rule {
	if f == nil {
		return nil
	}
	for _, r := range f.Rules {
		if r.Kind() == kind && match(r) {
			return r
		}
	}
	return nil
}

func existingOfKinds(f *rule.File, kinds map[string]bool) bool {
	if f == nil {
		return false
	}
	for _, r := range f.Rules {
		if kinds[r.Kind()] {
			return true
		}
	}
	return false
}

// underTestdata reports whether rel is, or is below, a testdata directory:
// fixtures there (broken manifests among them) are not pets.
func underTestdata(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if part == "testdata" {
			return true
		}
	}
	return false
}

func hasFile(names []string, want string) bool {
	for _, n := range names {
		if n == want {
			return true
		}
	}
	return false
}

// baseName is the directory's last element, the default target name.
func baseName(rel string) string {
	if rel == "" {
		return "pet"
	}
	return path.Base(rel)
}

// idPart reduces a directory name to pet_id's alphabet; a directory named
// like a pet_id already (pet_fox) gives that ID.
func idPart(s string) string {
	var b strings.Builder
	for _, c := range strings.TrimPrefix(strings.ToLower(s), "pet_") {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "pet"
	}
	return b.String()
}

// dirName names the directory in messages.
func dirName(rel string) string {
	if rel == "" {
		return "the repository root"
	}
	return rel
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
