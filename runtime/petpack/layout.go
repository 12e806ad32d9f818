package petpack

import (
	"sort"
	"strings"
)

// requiredFiles and requiredDirs are the layout of section 3. The nine
// frames directories are required too; they come from Actions().
var (
	requiredFiles = []string{
		"manifest.json",
		"brief.json",
		"assets/preview/cover.png",
		"assets/preview/animated_preview.webp",
		"source/prompt.md",
		"source/source.json",
		"source/skill_session.jsonl",
		"build/validation.json",
	}
	requiredDirs = []string{"source/references"}
)

// compatibilityNames are the root names of other package formats that
// section 3 rejects, compared case-insensitively as file systems may.
var compatibilityNames = []string{".codex-plugin", "hooks", "skills", "codex-pet.json", "codex_pet.json", "pet.json"}

// knownChildren closes the layout's directories: each maps a child name to
// whether it is a directory. Directories absent here are either open
// (source/references, extensions/<reverse-domain>) or handled specially
// (the root, extensions, the frames directories).
var knownChildren = map[string]map[string]bool{
	"assets":         {"frames": true, "preview": true},
	"assets/frames":  framesChildren(),
	"assets/preview": {"cover.png": false, "animated_preview.webp": false},
	"source":         {"prompt.md": false, "source.json": false, "skill_session.jsonl": false, "references": true},
	"build":          {"validation.json": false},
}

func framesChildren() map[string]bool {
	m := map[string]bool{}
	for _, a := range Actions() {
		m[string(a)] = true
	}
	return m
}

// rootKnown are the root names of the layout, with whether each is a
// directory; any other root file is unknown data, which section 3 permits.
var rootKnown = map[string]bool{
	"manifest.json": false, "brief.json": false,
	"assets": true, "source": true, "build": true, "extensions": true,
}

// checkLayout is the layout of section 3: required files and directories,
// rejected compatibility names, closed known directories, reverse-domain
// extension containers and flat state directories. Unknown root data files
// are permitted.
func checkLayout(c *checker, fs *fileSet) {
	for _, p := range requiredFiles {
		requireNode(c, fs, p, false)
	}
	for _, a := range Actions() {
		requireNode(c, fs, a.FramesDir(), true)
	}
	for _, p := range requiredDirs {
		requireNode(c, fs, p, true)
	}
	for _, n := range fs.root.children() {
		if isCompatibilityName(n.name) {
			c.fail(RuleCompatibilityName, n.path, "", "%s is a name of another package format; a .petpack must not carry it", n.name)
			continue
		}
		isDir, known := rootKnown[n.name]
		switch {
		case n.name == "extensions" && !n.dir:
			c.fail(RuleExtensionNameInvalid, n.path, "", "extensions must be a directory of reverse-domain directories")
		case !known && n.dir:
			// Stricter than the contract, which permits unknown root data
			// files only: an unknown root directory (macOS's __MACOSX/) is
			// refused, since extension data belongs below extensions/.
			c.fail(RuleUnexpectedEntry, n.path, "", "unknown root directory %s: only root data files are permitted; extension data belongs below extensions/<reverse-domain>/", n.name)
		case !known, isDir != n.dir:
			// unknown root data, or a required name of the wrong type,
			// which requireNode has reported
		case n.name == "extensions":
			checkExtensions(c, n)
		case n.dir:
			checkClosed(c, n)
		}
	}
	for _, a := range Actions() {
		n := fs.lookup(a.FramesDir())
		if n == nil || !n.dir {
			continue
		}
		for _, k := range n.children() {
			switch {
			case k.dir:
				c.fail(RuleStateDirectoryNotFlat, k.path, "", "state directories are flat; %s is a subdirectory", k.name)
			case !isFrameName(k.name):
				c.warn(RuleFrameDirIgnoredFile, k.path, "", "%s is not a .png frame and is ignored", k.name)
			}
		}
	}
}

func requireNode(c *checker, fs *fileSet, path string, dir bool) {
	n := fs.lookup(path)
	switch {
	case n == nil:
		c.fail(RuleRequiredMissing, path, "", "the required %s %s is missing", kindWord(dir), path)
	case n.dir != dir:
		c.fail(RuleRequiredWrongType, path, "", "%s must be a %s", path, kindWord(dir))
	}
}

func kindWord(dir bool) string {
	if dir {
		return "directory"
	}
	return "file"
}

func isCompatibilityName(name string) bool {
	for _, n := range compatibilityNames {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// checkClosed walks a known directory of the layout and reports every
// child the layout does not name. The frames directories' own contents are
// checked by checkLayout, source/references is open.
func checkClosed(c *checker, n *node) {
	kids, closed := knownChildren[n.path]
	if !closed {
		return
	}
	for _, k := range n.children() {
		isDir, known := kids[k.name]
		switch {
		case !known && n.path == "assets/frames" && isRemovedAction(k.name):
			c.fail(RuleUnexpectedEntry, k.path, "", "%s is a removed state and is not migrated: recreate the pet with the nine V3 actions", k.name)
		case !known:
			c.fail(RuleUnexpectedEntry, k.path, "", "%s is not part of the package layout", k.path)
		case isDir != k.dir:
			// requireNode reported the wrong type
		case k.dir:
			checkClosed(c, k)
		}
	}
}

// checkExtensions accepts any data below extensions/<reverse-domain>/ and
// nothing else directly in extensions/.
func checkExtensions(c *checker, n *node) {
	for _, k := range n.children() {
		if !k.dir || !isReverseDomain(k.name) {
			c.fail(RuleExtensionNameInvalid, k.path, "", "extension data belongs in a directory named by a lower-case reverse domain such as com.example.tool, not %s", k.name)
		}
	}
}

// isReverseDomain reports whether s is a lower-case reverse-DNS name of at
// least two labels: letters, digits and inner hyphens, a letter first in
// the top-level label.
func isReverseDomain(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for i, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		if i == 0 && !(l[0] >= 'a' && l[0] <= 'z') {
			return false
		}
		for j := 0; j < len(l); j++ {
			c := l[j]
			if !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '-' {
				return false
			}
		}
	}
	return true
}

// isFrameName reports whether a file in a state directory is a frame: any
// name with a case-insensitive .png suffix (section 3).
func isFrameName(name string) bool {
	return len(name) >= 4 && strings.EqualFold(name[len(name)-4:], ".png")
}

// stateFrames returns each action's frames, ordered by the natural
// comparator, for the actions whose directory exists.
func stateFrames(fs *fileSet) map[Action][]*node {
	out := map[Action][]*node{}
	for _, a := range Actions() {
		n := fs.lookup(a.FramesDir())
		if n == nil || !n.dir {
			continue
		}
		var frames []*node
		for _, k := range n.kids {
			if !k.dir && isFrameName(k.name) {
				frames = append(frames, k)
			}
		}
		sort.Slice(frames, func(i, j int) bool { return NaturalLess(frames[i].name, frames[j].name) })
		out[a] = frames
	}
	return out
}
