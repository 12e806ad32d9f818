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
	RuleTruncatedHeader          Rule = "truncated_header"
	RuleBadMagic                 Rule = "bad_magic"
	RuleUnsupportedVersion       Rule = "unsupported_version"
	RuleBadHeaderLength          Rule = "bad_header_length"
	RulePackLengthMismatch       Rule = "pack_length_mismatch"
	RulePackLengthUnaligned      Rule = "pack_length_unaligned"
	RulePackLengthOutOfRange     Rule = "pack_length_out_of_range"
	RuleCheckMismatch            Rule = "check_mismatch"
	RuleUnsupportedEncoding      Rule = "unsupported_encoding"
	RuleCountOutOfRange          Rule = "count_out_of_range"
	RulePayloadOffsetMismatch    Rule = "payload_offset_mismatch"
	RulePayloadOffsetOutOfRange  Rule = "payload_offset_out_of_range"
	RuleFallbackOutOfRange       Rule = "fallback_out_of_range"
	RuleAnimationRunOutOfRange   Rule = "animation_run_out_of_range"
	RuleFrameImageOutOfRange     Rule = "frame_image_out_of_range"
	RuleFrameDurationOutOfRange  Rule = "frame_duration_out_of_range"
	RuleRoleAnimationOutOfRange  Rule = "role_animation_out_of_range"
	RuleRolePaddingNonzero       Rule = "role_padding_nonzero"
	RuleIdentifierUnterminated   Rule = "identifier_unterminated"
	RuleIdentifierPaddingNonzero Rule = "identifier_padding_nonzero"
	RuleEntryDimensionOutOfRange Rule = "entry_dimension_out_of_range"
	RuleEntryLengthMismatch      Rule = "entry_length_mismatch"
	RulePayloadMisaligned        Rule = "payload_misaligned"
	RulePayloadOutOfRegion       Rule = "payload_out_of_region"
	RulePayloadLayoutMismatch    Rule = "payload_layout_mismatch"
	RulePayloadPaddingNonzero    Rule = "payload_padding_nonzero"
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
