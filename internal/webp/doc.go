// Package webp is the strict reader of untrusted WebP files, used for a
// .petpack's assets/preview/animated_preview.webp (petpack contract
// sections 6 and 11).
//
// Parse walks the RIFF container and every bitstream header and decodes no
// pixels; DecodeFrames (or DecodeEach, one frame at a time) then decodes
// each frame with golang.org/x/image/webp (v0.24.0, the newest that builds
// with Go 1.19) from a standalone RIFF WEBP built around that frame's
// VP8L, or VP8 plus ALPH behind a synthetic VP8X alpha flag. Frames are
// returned as stored, with offset and duration, not composited.
//
// Before x/image sees a VP8L stream (or VP8L-compressed ALPH), a pre-pass
// reads it up to the entropy image and computes the number of prefix-code
// groups, because x/image allocates the group table from the largest index
// (CVE-2026-46603: ~175 MiB from a 160 KiB stream). A decoder panic
// (GO-2026-5061) is recovered and becomes a rejection.
//
// # Acceptance rules
//
// Every rejection is an *Error naming one rule. The parser walks the file
// front to back, so the rule named is the first broken in file order; the
// table lists the rules in the order of Rules().
//
//	| rule                      | rejected when                                                           |
//	| ------------------------- | ----------------------------------------------------------------------- |
//	| webp_truncated            | under 12 bytes, a chunk header cut short, or no chunk at all            |
//	| webp_bad_magic            | the file does not start RIFF....WEBP                                    |
//	| webp_riff_size_mismatch   | the RIFF size is not exactly the bytes that follow it                   |
//	| webp_chunk_overrun        | a chunk (or ANMF sub-chunk) declares more bytes than remain             |
//	| webp_chunk_padding        | an odd-sized chunk lacks its pad byte, or the pad byte is not zero      |
//	| webp_unknown_chunk        | a top-level FourCC outside VP8X ICCP ANIM ANMF ALPH VP8 VP8L EXIF XMP   |
//	| webp_chunk_order          | chunks out of the spec's order, repeated, or extra in a simple file     |
//	| webp_chunk_size           | VP8X not 10 bytes, ANIM not 6, ANMF shorter than its 16-byte header     |
//	| webp_vp8x_flags           | reserved VP8X bits set, or flags and present chunks disagree            |
//	| webp_canvas_too_large     | canvas or any image over Budget.MaxPixels (16,777,216)                  |
//	| webp_frame_count          | no image, or more ANMF frames than Budget.MaxFrames (120)               |
//	| webp_frame_outside_canvas | X+W or Y+H of a frame exceeds the canvas                                |
//	| webp_frame_data           | ANMF reserved flags, a sub-chunk not ALPH/VP8/VP8L, no image, bad ALPH  |
//	| webp_bitstream_header     | VP8L signature/version wrong, VP8 not a key frame or header short       |
//	| webp_bitstream_size       | bitstream dimensions differ from the ANMF frame or the canvas           |
//	| webp_bitstream_invalid    | the VP8L pre-pass finds transforms or entropy image malformed/truncated |
//	| webp_huffman_groups       | the entropy image declares more groups than Budget.MaxHuffmanGroups     |
//	| webp_decoder_memory       | the estimated x/image allocation exceeds Budget.MaxDecoderBytes         |
//	| webp_decoded_bytes        | all frames' RGBA exceeds Budget.MaxDecodedBytes (128 MiB)               |
//	| webp_decode_failed        | x/image returns an error, or a size other than the header's             |
//	| webp_decoder_panic        | x/image panics                                                          |
//
// Metadata chunks (ICCP, EXIF, XMP) are accepted only where the container
// spec puts them and only when their VP8X flag is set; they are not read.
// Unknown chunks, which the spec tells readers to skip, are refused: nothing
// of ours reads them, and skipped bytes are where readers disagree.
package webp
