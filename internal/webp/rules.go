package webp

import "fmt"

// Rule is the stable identifier of one acceptance rule for an untrusted WebP
// file. Identifiers never change meaning; new rules are added, old ones are
// not renamed, so verdicts and tests can match on them.
type Rule string

// The acceptance rules, in the order the parser meets them while walking a
// file front to back. doc.go holds the table of what each one rejects.
const (
	RuleTruncated          Rule = "webp_truncated"
	RuleBadMagic           Rule = "webp_bad_magic"
	RuleRIFFSizeMismatch   Rule = "webp_riff_size_mismatch"
	RuleChunkOverrun       Rule = "webp_chunk_overrun"
	RuleChunkPadding       Rule = "webp_chunk_padding"
	RuleUnknownChunk       Rule = "webp_unknown_chunk"
	RuleChunkOrder         Rule = "webp_chunk_order"
	RuleChunkSize          Rule = "webp_chunk_size"
	RuleVP8XFlags          Rule = "webp_vp8x_flags"
	RuleCanvasTooLarge     Rule = "webp_canvas_too_large"
	RuleFrameCount         Rule = "webp_frame_count"
	RuleFrameOutsideCanvas Rule = "webp_frame_outside_canvas"
	RuleFrameData          Rule = "webp_frame_data"
	RuleBitstreamHeader    Rule = "webp_bitstream_header"
	RuleBitstreamSize      Rule = "webp_bitstream_size"
	RuleBitstreamInvalid   Rule = "webp_bitstream_invalid"
	RuleHuffmanGroups      Rule = "webp_huffman_groups"
	RuleDecoderMemory      Rule = "webp_decoder_memory"
	RuleDecodedBytes       Rule = "webp_decoded_bytes"
	RuleDecodeFailed       Rule = "webp_decode_failed"
	RuleDecoderPanic       Rule = "webp_decoder_panic"
)

// Rules returns every acceptance rule in the order the parser applies them.
func Rules() []Rule {
	return []Rule{
		RuleTruncated,
		RuleBadMagic,
		RuleRIFFSizeMismatch,
		RuleChunkOverrun,
		RuleChunkPadding,
		RuleUnknownChunk,
		RuleChunkOrder,
		RuleChunkSize,
		RuleVP8XFlags,
		RuleCanvasTooLarge,
		RuleFrameCount,
		RuleFrameOutsideCanvas,
		RuleFrameData,
		RuleBitstreamHeader,
		RuleBitstreamSize,
		RuleBitstreamInvalid,
		RuleHuffmanGroups,
		RuleDecoderMemory,
		RuleDecodedBytes,
		RuleDecodeFailed,
		RuleDecoderPanic,
	}
}

// Error is a rejected WebP file: the rule it broke and a human message.
type Error struct {
	// Rule is the acceptance rule the file breaks.
	Rule Rule
	// Msg says where and how, for a person reading a verdict.
	Msg string
	// Err is the underlying cause when the rejection wraps one (a decoder
	// error), or nil.
	Err error
}

// Error formats the rejection as `RULE: message`.
func (e *Error) Error() string { return string(e.Rule) + ": " + e.Msg }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

func reject(rule Rule, format string, args ...interface{}) *Error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
