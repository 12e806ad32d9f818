package gazelle

import (
	"flag"
	"fmt"
	"log"
	"path"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// languageName is the extension's name in Gazelle (the key of its
// configuration, and the `# gazelle:pet` directive).
const languageName = "pet"

// Directives the extension reads. Every one applies to the directory of the
// BUILD file that holds it and to the directories below it.
const (
	dirPet          = "pet"               // enable | disable
	dirNamingPrefix = "pet_naming_prefix" // prefix of every generated target name
	dirEmbed        = "pet_embed"         // comma list of cc, go
	dirGoPrefix     = "prefix"            // Gazelle's own Go prefix, read for the Go embedding
)

// specKeys are the petpack strings that cannot be derived from the frames,
// in the order the documentation lists them. Each can come from the pet's
// spec file or from a `# gazelle:pet_<key>` directive.
var specKeys = []string{"display_name", "style", "quality", "created_at", "description"}

// requiredSpecKeys must have a value before a petpack_set is generated
// (petpack_archive declares them mandatory; description may be empty).
var requiredSpecKeys = map[string]bool{"display_name": true, "style": true, "quality": true, "created_at": true}

// petConfig is the extension's configuration of one directory.
type petConfig struct {
	disabled   bool
	namePrefix string
	embedGo    bool
	// strings holds the `# gazelle:pet_<key>` values by key.
	strings map[string]string
	// goPrefix is the Go import path of goPrefixRel, from `# gazelle:prefix`.
	goPrefix, goPrefixRel string
	hasGoPrefix           bool
}

func (pc *petConfig) clone() *petConfig {
	c := *pc
	c.strings = make(map[string]string, len(pc.strings))
	for k, v := range pc.strings {
		c.strings[k] = v
	}
	return &c
}

// importPath returns the Go import path of the package rel, derived from
// the nearest `# gazelle:prefix` the way Gazelle's Go extension does.
func (pc *petConfig) importPath(rel string) (string, bool) {
	if !pc.hasGoPrefix {
		return "", false
	}
	tail := strings.TrimPrefix(strings.TrimPrefix(rel, pc.goPrefixRel), "/")
	if pc.goPrefixRel != "" && rel != pc.goPrefixRel && !strings.HasPrefix(rel, pc.goPrefixRel+"/") {
		return "", false
	}
	return path.Join(pc.goPrefix, tail), true
}

func getConfig(c *config.Config) *petConfig {
	if pc, ok := c.Exts[languageName].(*petConfig); ok {
		return pc
	}
	return &petConfig{strings: map[string]string{}}
}

// RegisterFlags registers no flags: everything is set by directives.
func (*petLang) RegisterFlags(fs *flag.FlagSet, cmd string, c *config.Config) {}

// CheckFlags has no flags to check.
func (*petLang) CheckFlags(fs *flag.FlagSet, c *config.Config) error { return nil }

// KnownDirectives lists the `# gazelle:` directives the extension reads.
func (*petLang) KnownDirectives() []string {
	ds := []string{dirPet, dirNamingPrefix, dirEmbed, dirGoPrefix}
	for _, k := range specKeys {
		ds = append(ds, "pet_"+k)
	}
	return ds
}

// Configure derives the configuration of the directory rel from its
// parent's and the directives of its BUILD file f. A bad directive value is
// reported with the file and ignored, so the parent's setting stays.
func (*petLang) Configure(c *config.Config, rel string, f *rule.File) {
	pc := getConfig(c).clone()
	c.Exts[languageName] = pc
	if f == nil {
		return
	}
	for _, d := range f.Directives {
		value := strings.TrimSpace(d.Value)
		switch d.Key {
		case dirPet:
			switch value {
			case "enable":
				pc.disabled = false
			case "disable":
				pc.disabled = true
			default:
				warnf("%s: # gazelle:%s %q: want enable or disable", f.Path, d.Key, value)
			}
		case dirNamingPrefix:
			pc.namePrefix = value
		case dirEmbed:
			embedGo, err := parseEmbed(value)
			if err != nil {
				warnf("%s: # gazelle:%s %q: %v", f.Path, d.Key, value, err)
				continue
			}
			pc.embedGo = embedGo
		case dirGoPrefix:
			pc.goPrefix, pc.goPrefixRel, pc.hasGoPrefix = value, rel, true
		default:
			if key := strings.TrimPrefix(d.Key, "pet_"); key != d.Key && isSpecKey(key) {
				pc.strings[key] = value
			}
		}
	}
}

// parseEmbed reads the `pet_embed` list. The C library is always part of
// pet_asset_set, so `cc` is accepted but changes nothing; `go` adds the Go
// embedding.
func parseEmbed(value string) (embedGo bool, err error) {
	for _, e := range strings.Split(value, ",") {
		switch strings.TrimSpace(e) {
		case "", "cc":
		case "go":
			embedGo = true
		default:
			return false, fmt.Errorf("unknown embedding %q (known: cc, go)", strings.TrimSpace(e))
		}
	}
	return embedGo, nil
}

func isSpecKey(key string) bool {
	for _, k := range specKeys {
		if k == key {
			return true
		}
	}
	return false
}

// warnf reports a problem the user must fix; Gazelle prefixes "gazelle: ".
func warnf(format string, args ...interface{}) {
	log.Printf("pet: "+format, args...)
}

// sortedKeys returns m's keys in order, for deterministic messages.
func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
