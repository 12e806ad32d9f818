package manifest

import (
	"fmt"
	"strings"
)

// Limits of the pet presentation schema v1 (manifest contract section 8).
// The pack contract inherits the counts and durations.
const (
	MaxFileBytes          = 16 * 1024
	MaxLineBytes          = 384
	MaxImages             = 32
	MaxAnimations         = 32
	MaxRoles              = 64
	MaxFrames             = 128
	MaxFramesPerAnimation = 16
	MinDurationMS         = 1
	MaxDurationMS         = 60000
	MaxPathBytes          = 255
)

// PetLimits are the grammar limits of `manifest pet 1`.
var PetLimits = Limits{MaxFileBytes: MaxFileBytes, MaxLineBytes: MaxLineBytes}

// Rules of the pet schema v1 (sections 5 to 9 and the list of section 12).
const (
	// RuleUnknownSection: a section other than images, animations, roles,
	// fallback.
	RuleUnknownSection Rule = "unknown_section"
	// RuleSectionOutOfOrder: a section repeated, out of order, or one skipped.
	RuleSectionOutOfOrder Rule = "section_out_of_order"
	// RuleSectionMissing: the file ends before all four sections appeared.
	RuleSectionMissing Rule = "section_missing"
	// RuleDirectiveForm: a directive's fields do not match its section's form
	// (including extra fields).
	RuleDirectiveForm Rule = "directive_form"
	// RuleDuplicateImageID: an image identifier defined twice in `[images]`.
	RuleDuplicateImageID Rule = "duplicate_image_id"
	// RuleDuplicateAnimationID: an animation identifier defined twice in
	// `[animations]`.
	RuleDuplicateAnimationID Rule = "duplicate_animation_id"
	// RuleDuplicateRoleID: a role identifier defined twice in `[roles]`.
	RuleDuplicateRoleID Rule = "duplicate_role_id"
	// RuleUnresolvedImage: a frame names an image `[images]` does not define.
	RuleUnresolvedImage Rule = "unresolved_image"
	// RuleUnresolvedAnimation: a role names an animation `[animations]` does
	// not define.
	RuleUnresolvedAnimation Rule = "unresolved_animation"
	// RuleUnresolvedRole: `[fallback]` names a role `[roles]` does not define.
	RuleUnresolvedRole Rule = "unresolved_role"
	// RuleFallbackCount: `[fallback]` names no role, or a second one.
	RuleFallbackCount Rule = "fallback_count"
	// RuleDurationInvalid: a duration that is not a decimal number.
	RuleDurationInvalid Rule = "duration_invalid"
	// RuleDurationRange: a duration outside 1 to 60000 ms.
	RuleDurationRange Rule = "duration_out_of_range"
	// RuleTooManyImages: over 32 images.
	RuleTooManyImages Rule = "too_many_images"
	// RuleTooManyAnimations: over 32 animations.
	RuleTooManyAnimations Rule = "too_many_animations"
	// RuleTooManyRoles: over 64 roles.
	RuleTooManyRoles Rule = "too_many_roles"
	// RuleTooManyFrames: the shared frame pool over 128.
	RuleTooManyFrames Rule = "too_many_frames"
	// RuleTooManyFramesInAnimation: an animation over 16 frames.
	RuleTooManyFramesInAnimation Rule = "too_many_frames_in_animation"
	// RulePathTooLong: a path over 255 bytes.
	RulePathTooLong Rule = "path_too_long"
	// RulePathAbsolute: an absolute path (section 7).
	RulePathAbsolute Rule = "path_absolute"
	// RulePathDotDot: a `..` path segment (section 7).
	RulePathDotDot Rule = "path_dot_dot"
	// RulePathEmptySegment: an empty path segment, as in `a//b.png` (section
	// 7).
	RulePathEmptySegment Rule = "path_empty_segment"
	// RulePathBackslash: a backslash in a path (section 7).
	RulePathBackslash Rule = "path_backslash"
	// RulePathColon: a colon in a path, as in a drive letter (section 7).
	RulePathColon Rule = "path_colon"
	// RulePathNotPNG: a path not ending in `.png`.
	RulePathNotPNG Rule = "path_not_png"
	// RulePathBarePNG: a path whose last segment is a bare `.png`.
	RulePathBarePNG Rule = "path_bare_png"
)

// Manifest is an accepted `manifest pet 1`. Every slice keeps declaration
// order, and Frames is the shared frame pool exactly as the pack's frame
// table lays it out: animation i owns Frames[FirstFrame : FirstFrame+FrameCount].
type Manifest struct {
	// Images are the [images] entries.
	Images []Image
	// Animations are the [animations] entries.
	Animations []Animation
	// Frames is the pool shared by every animation.
	Frames []Frame
	// Roles are the [roles] entries.
	Roles []Role
	// Fallback is the index in Roles of the [fallback] role.
	Fallback int
}

// Image is one [images] entry.
type Image struct {
	// ID is the image identifier.
	ID string
	// Path is relative to the asset set's root (section 7). A manifest
	// materialised from a pack has no paths.
	Path string
}

// Animation is one [animations] entry: a run of the frame pool.
type Animation struct {
	// ID is the animation identifier.
	ID string
	// FirstFrame is the index in Manifest.Frames of the first frame.
	FirstFrame int
	// FrameCount is the number of consecutive frames, at least 1.
	FrameCount int
}

// Frame is one image shown for a duration.
type Frame struct {
	// Image is the index in Manifest.Images.
	Image int
	// DurationMS is how long the frame shows, 1 to 60000 milliseconds.
	DurationMS uint32
}

// Role is one [roles] entry.
type Role struct {
	// ID is the presentation role identifier.
	ID string
	// Animation is the index in Manifest.Animations.
	Animation int
}

// AnimationFrames returns the frames of animation a.
func (m *Manifest) AnimationFrames(a int) []Frame {
	an := m.Animations[a]
	return m.Frames[an.FirstFrame : an.FirstFrame+an.FrameCount]
}

// RoleIndex returns the index of the role named id, or -1.
func (m *Manifest) RoleIndex(id string) int {
	for i, r := range m.Roles {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// Parse reads a `manifest pet 1` text. On rejection it returns nil and an
// *Error naming the first rule the text breaks.
func Parse(data []byte) (*Manifest, error) {
	var m Manifest
	if err := ParseInto(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// ParseInto parses data into dst, which is reset first. On rejection dst is
// left as the zero Manifest, never partly filled.
func ParseInto(data []byte, dst *Manifest) error {
	p := petSchema{}
	err := Scan(data, PetLimits, &p)
	if err != nil {
		*dst = Manifest{}
		return err
	}
	*dst = p.m
	return nil
}

var petSections = [...]string{"images", "animations", "roles", "fallback"}

// petSchema is the Schema of `manifest pet 1`.
type petSchema struct {
	m            Manifest
	section      int // index into petSections, -1 before the first
	fallbackSeen bool
	images       map[string]int
	animations   map[string]int
	roles        map[string]int
}

func (p *petSchema) Header(line int, kind string, version uint64) *Error {
	p.section = -1
	if kind != "pet" {
		return errorf(line, RuleUnsupportedKind, "kind %q; this reader accepts only `manifest pet 1`", kind)
	}
	if version != 1 {
		return errorf(line, RuleUnsupportedVersion, "pet manifest version %d; this reader accepts only version 1", version)
	}
	p.images = map[string]int{}
	p.animations = map[string]int{}
	p.roles = map[string]int{}
	return nil
}

func (p *petSchema) Section(line int, name string) *Error {
	idx := -1
	for i, s := range petSections {
		if s == name {
			idx = i
		}
	}
	switch {
	case idx < 0:
		return errorf(line, RuleUnknownSection, "[%s] is not a section of `manifest pet 1` (want [images], [animations], [roles], [fallback])", name)
	case idx <= p.section:
		return errorf(line, RuleSectionOutOfOrder, "[%s] appears again or after [%s]; each section appears once, in the order images, animations, roles, fallback", name, petSections[p.section])
	case idx > p.section+1:
		return errorf(line, RuleSectionOutOfOrder, "[%s] before [%s]; the sections are images, animations, roles, fallback, in that order", name, petSections[p.section+1])
	}
	p.section = idx
	return nil
}

func (p *petSchema) Directive(line int, f []string) *Error {
	switch petSections[p.section] {
	case "images":
		return p.image(line, f)
	case "animations":
		return p.animation(line, f)
	case "roles":
		return p.role(line, f)
	default:
		return p.fallback(line, f)
	}
}

func (p *petSchema) End(lastLine int) *Error {
	if p.section < len(petSections)-1 {
		return errorf(lastLine, RuleSectionMissing, "required section [%s] is missing", petSections[p.section+1])
	}
	if !p.fallbackSeen {
		return errorf(lastLine, RuleFallbackCount, "[fallback] must name exactly one role, it names none")
	}
	return nil
}

// define checks a new identifier and its uniqueness within its table.
func define(line int, id string, table map[string]int, dup Rule, what string) *Error {
	if rule, why := CheckIdentifier(id); rule != "" {
		return errorf(line, rule, "%s", why)
	}
	if _, ok := table[id]; ok {
		return errorf(line, dup, "%s %q is already defined", what, id)
	}
	return nil
}

func (p *petSchema) image(line int, f []string) *Error {
	if len(f) != 2 {
		return errorf(line, RuleDirectiveForm, "an [images] line is `<image-id> <relative-png-path>`, got %d fields", len(f))
	}
	if len(p.m.Images) == MaxImages {
		return errorf(line, RuleTooManyImages, "more than %d images", MaxImages)
	}
	if err := define(line, f[0], p.images, RuleDuplicateImageID, "image"); err != nil {
		return err
	}
	if rule, why := CheckPath(f[1]); rule != "" {
		return errorf(line, rule, "%s", why)
	}
	p.images[f[0]] = len(p.m.Images)
	p.m.Images = append(p.m.Images, Image{ID: f[0], Path: f[1]})
	return nil
}

func (p *petSchema) animation(line int, f []string) *Error {
	if len(f) < 3 || len(f)%2 == 0 {
		return errorf(line, RuleDirectiveForm, "an [animations] line is `<animation-id> (<image-id> <duration-ms>)+`, got %d fields", len(f))
	}
	if len(p.m.Animations) == MaxAnimations {
		return errorf(line, RuleTooManyAnimations, "more than %d animations", MaxAnimations)
	}
	if err := define(line, f[0], p.animations, RuleDuplicateAnimationID, "animation"); err != nil {
		return err
	}
	n := (len(f) - 1) / 2
	if n > MaxFramesPerAnimation {
		return errorf(line, RuleTooManyFramesInAnimation, "animation %q has %d frames, more than %d", f[0], n, MaxFramesPerAnimation)
	}
	if len(p.m.Frames)+n > MaxFrames {
		return errorf(line, RuleTooManyFrames, "animation %q takes the frame pool to %d frames, more than %d", f[0], len(p.m.Frames)+n, MaxFrames)
	}
	first := len(p.m.Frames)
	for i := 1; i < len(f); i += 2 {
		img, ok := p.images[f[i]]
		if !ok {
			return errorf(line, RuleUnresolvedImage, "animation %q names image %q, which [images] does not define", f[0], f[i])
		}
		d, ok := parseDecimal(f[i+1])
		if !ok {
			return errorf(line, RuleDurationInvalid, "duration %q is not a decimal number of milliseconds", f[i+1])
		}
		if d < MinDurationMS || d > MaxDurationMS {
			return errorf(line, RuleDurationRange, "duration %s ms is outside %d to %d", f[i+1], MinDurationMS, MaxDurationMS)
		}
		p.m.Frames = append(p.m.Frames, Frame{Image: img, DurationMS: uint32(d)})
	}
	p.animations[f[0]] = len(p.m.Animations)
	p.m.Animations = append(p.m.Animations, Animation{ID: f[0], FirstFrame: first, FrameCount: n})
	return nil
}

func (p *petSchema) role(line int, f []string) *Error {
	if len(f) != 2 {
		return errorf(line, RuleDirectiveForm, "a [roles] line is `<role-id> <animation-id>`, got %d fields", len(f))
	}
	if len(p.m.Roles) == MaxRoles {
		return errorf(line, RuleTooManyRoles, "more than %d roles", MaxRoles)
	}
	if err := define(line, f[0], p.roles, RuleDuplicateRoleID, "role"); err != nil {
		return err
	}
	a, ok := p.animations[f[1]]
	if !ok {
		return errorf(line, RuleUnresolvedAnimation, "role %q names animation %q, which [animations] does not define", f[0], f[1])
	}
	p.roles[f[0]] = len(p.m.Roles)
	p.m.Roles = append(p.m.Roles, Role{ID: f[0], Animation: a})
	return nil
}

func (p *petSchema) fallback(line int, f []string) *Error {
	if len(f) != 1 {
		return errorf(line, RuleDirectiveForm, "the [fallback] line is one `<role-id>`, got %d fields", len(f))
	}
	if p.fallbackSeen {
		return errorf(line, RuleFallbackCount, "[fallback] must name exactly one role, it names a second")
	}
	r, ok := p.roles[f[0]]
	if !ok {
		return errorf(line, RuleUnresolvedRole, "fallback role %q is not defined in [roles]", f[0])
	}
	p.fallbackSeen = true
	p.m.Fallback = r
	return nil
}

// CheckPath applies the path rules of section 7 and returns the broken rule
// and why, or "" when path is valid.
func CheckPath(path string) (Rule, string) {
	switch {
	case len(path) > MaxPathBytes:
		return RulePathTooLong, fmt.Sprintf("path is %d bytes, more than %d", len(path), MaxPathBytes)
	case strings.HasPrefix(path, "/"):
		return RulePathAbsolute, fmt.Sprintf("path %q is absolute; paths are relative to the asset set", path)
	case strings.Contains(path, "\\"):
		return RulePathBackslash, fmt.Sprintf("path %q contains a backslash; the forward slash is the only separator", path)
	case strings.Contains(path, ":"):
		return RulePathColon, fmt.Sprintf("path %q contains a colon (a drive prefix)", path)
	}
	segs := strings.Split(path, "/")
	for _, s := range segs {
		switch s {
		case "..":
			return RulePathDotDot, fmt.Sprintf("path %q has a .. segment", path)
		case "":
			return RulePathEmptySegment, fmt.Sprintf("path %q has an empty segment", path)
		}
	}
	last := segs[len(segs)-1]
	switch {
	case !strings.HasSuffix(last, ".png"):
		return RulePathNotPNG, fmt.Sprintf("path %q does not end in .png", path)
	case last == ".png":
		return RulePathBarePNG, fmt.Sprintf("path %q ends in a bare .png segment, which names no file", path)
	}
	return "", ""
}
