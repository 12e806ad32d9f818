package pack

import "fmt"

// Rule is the stable identifier of one acceptance rule of pack contract
// section 10. The identifiers are shared with the C reader and the docs and
// never change meaning; new rules are added, old ones are not renamed.
type Rule string

// The acceptance rules, in the order the reader applies them. Each rule is
// applied to the whole pack before the next one, so the rule a rejection
// names is the first one, in this order, that the pack breaks.
const (
	// RuleTruncatedHeader: fewer bytes than the 28-byte header.
	RuleTruncatedHeader Rule = "truncated_header"
	// RuleBadMagic: the first four bytes are not `PETP`.
	RuleBadMagic Rule = "bad_magic"
	// RuleUnsupportedVersion: the format version is not 1.
	RuleUnsupportedVersion Rule = "unsupported_version"
	// RuleBadHeaderLength: the header length field is not 28.
	RuleBadHeaderLength Rule = "bad_header_length"
	// RulePackLengthMismatch: the declared pack length is not the supplied
	// length.
	RulePackLengthMismatch Rule = "pack_length_mismatch"
	// RulePackLengthUnaligned: the pack length is not a multiple of 4.
	RulePackLengthUnaligned Rule = "pack_length_unaligned"
	// RulePackLengthOutOfRange: under 32 bytes (header plus check) or over 16
	// MiB.
	RulePackLengthOutOfRange Rule = "pack_length_out_of_range"
	// RuleCheckMismatch: the CRC-32 (IEEE 802.3) of the bytes before the check
	// differs from it.
	RuleCheckMismatch Rule = "check_mismatch"
	// RuleUnsupportedEncoding: pixel encoding or transparency is not 1.
	RuleUnsupportedEncoding Rule = "unsupported_encoding"
	// RuleCountOutOfRange: over 32 images, 32 animations, 128 frames or 64
	// roles.
	RuleCountOutOfRange Rule = "count_out_of_range"
	// RulePayloadOffsetMismatch: the declared payload offset is not where the
	// counts put it.
	RulePayloadOffsetMismatch Rule = "payload_offset_mismatch"
	// RulePayloadOffsetOutOfRange: the tables run into the check.
	RulePayloadOffsetOutOfRange Rule = "payload_offset_out_of_range"
	// RuleFallbackOutOfRange: the fallback role is outside the role table.
	RuleFallbackOutOfRange Rule = "fallback_out_of_range"
	// RuleAnimationRunOutOfRange: a run of 0 or over 16 frames, or one leaving
	// the frame table.
	RuleAnimationRunOutOfRange Rule = "animation_run_out_of_range"
	// RuleFrameImageOutOfRange: a frame names an image outside the image
	// table.
	RuleFrameImageOutOfRange Rule = "frame_image_out_of_range"
	// RuleFrameDurationOutOfRange: a frame lasts under 1 or over 60000 ms.
	RuleFrameDurationOutOfRange Rule = "frame_duration_out_of_range"
	// RuleRoleAnimationOutOfRange: a role names an animation outside the
	// animation table.
	RuleRoleAnimationOutOfRange Rule = "role_animation_out_of_range"
	// RuleRolePaddingNonzero: a role's padding bytes are not zero.
	RuleRolePaddingNonzero Rule = "role_padding_nonzero"
	// RuleIdentifierUnterminated: an identifier has no zero byte in its 32
	// bytes.
	RuleIdentifierUnterminated Rule = "identifier_unterminated"
	// RuleIdentifierPaddingNonzero: a byte after an identifier's terminator is
	// not zero.
	RuleIdentifierPaddingNonzero Rule = "identifier_padding_nonzero"
	// RuleEntryDimensionOutOfRange: a width or height outside 1 to 1024.
	RuleEntryDimensionOutOfRange Rule = "entry_dimension_out_of_range"
	// RuleEntryLengthMismatch: a colour length not w*h*2 or a mask length not
	// ((w+7)/8)*h.
	RuleEntryLengthMismatch Rule = "entry_length_mismatch"
	// RulePayloadMisaligned: a payload offset not a multiple of 4.
	RulePayloadMisaligned Rule = "payload_misaligned"
	// RulePayloadOutOfRegion: a payload outside [payload offset, pack length -
	// 4).
	RulePayloadOutOfRegion Rule = "payload_out_of_region"
	// RulePayloadLayoutMismatch: a payload not where section 7 places it
	// (overlaps, gaps, trailing bytes).
	RulePayloadLayoutMismatch Rule = "payload_layout_mismatch"
	// RulePayloadPaddingNonzero: padding between or after payloads not zero.
	RulePayloadPaddingNonzero Rule = "payload_padding_nonzero"
)

// Rules returns every acceptance rule in the order the reader applies them.
func Rules() []Rule {
	return []Rule{
		RuleTruncatedHeader,
		RuleBadMagic,
		RuleUnsupportedVersion,
		RuleBadHeaderLength,
		RulePackLengthMismatch,
		RulePackLengthUnaligned,
		RulePackLengthOutOfRange,
		RuleCheckMismatch,
		RuleUnsupportedEncoding,
		RuleCountOutOfRange,
		RulePayloadOffsetMismatch,
		RulePayloadOffsetOutOfRange,
		RuleFallbackOutOfRange,
		RuleAnimationRunOutOfRange,
		RuleFrameImageOutOfRange,
		RuleFrameDurationOutOfRange,
		RuleRoleAnimationOutOfRange,
		RuleRolePaddingNonzero,
		RuleIdentifierUnterminated,
		RuleIdentifierPaddingNonzero,
		RuleEntryDimensionOutOfRange,
		RuleEntryLengthMismatch,
		RulePayloadMisaligned,
		RulePayloadOutOfRegion,
		RulePayloadLayoutMismatch,
		RulePayloadPaddingNonzero,
	}
}

// Error is a rejected pack: the rule it broke and a human message.
type Error struct {
	// Rule is the first acceptance rule the pack breaks.
	Rule Rule
	// Msg says where and how, for a person reading a build log.
	Msg string
}

// Error formats the rejection as `RULE: message`.
func (e *Error) Error() string { return string(e.Rule) + ": " + e.Msg }

func reject(rule Rule, format string, args ...interface{}) *Error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
