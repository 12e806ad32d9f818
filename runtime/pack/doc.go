// Package pack reads PETP v1, the embedded asset pack (pack contract
// sections 3 to 10), and holds the layout facts its writer,
// tools/assetpackbuild, shares with it.
//
// A pack is validated whole before anything is decoded: Read and ReadInto
// either return every table and a view of every payload, or an *Error naming
// the first acceptance rule broken and nothing else. Payloads are not
// copied; Entry.Colour and Entry.Mask alias the bytes passed in, so a
// caller that keeps a Pack keeps those bytes alive and unchanged.
//
// # Acceptance rules
//
// The reader applies these rules in this order, each to the whole pack
// before the next, and a rejection names the first one broken. The list
// refines the one in contract section 10; where a contract line holds two
// conditions they are two rules, so a rejection says which.
//
//	| rule                         | rejected when                                                        |
//	| ---------------------------- | -------------------------------------------------------------------- |
//	| truncated_header             | fewer bytes are supplied than the 28-byte header                     |
//	| bad_magic                    | the first four bytes are not P, E, T, P                              |
//	| unsupported_version          | the format version is not 1                                          |
//	| bad_header_length            | the header length field is not 28                                    |
//	| pack_length_mismatch         | the declared pack length is not the supplied length                  |
//	| pack_length_unaligned        | the pack length is not a multiple of 4                               |
//	| pack_length_out_of_range     | the pack length is under 32 (header plus check) or over 16 MiB       |
//	| check_mismatch               | the CRC-32 (IEEE) of every byte before the check is not the check    |
//	| unsupported_encoding         | the pixel encoding or the transparency field is not 1                |
//	| count_out_of_range           | over 32 images, 32 animations, 128 frames or 64 roles                |
//	| payload_offset_mismatch      | the payload offset is not where the counts put the end of the tables |
//	| payload_offset_out_of_range  | the tables run past the start of the check                           |
//	| fallback_out_of_range        | the fallback role is not inside the role table                       |
//	| animation_run_out_of_range   | a run holds 0 or over 16 frames, or leaves the frame table           |
//	| frame_image_out_of_range     | a frame names an image outside the image table                       |
//	| frame_duration_out_of_range  | a frame lasts under 1 or over 60000 ms                               |
//	| role_animation_out_of_range  | a role names an animation outside the animation table                |
//	| role_padding_nonzero         | a role record's two padding bytes are not zero                       |
//	| identifier_unterminated      | an identifier field holds no zero byte in its 32 bytes               |
//	| identifier_padding_nonzero   | a byte after an identifier's terminator is not zero                  |
//	| entry_dimension_out_of_range | an entry width or height is outside 1 to 1024                        |
//	| entry_length_mismatch        | a colour length is not w*h*2 or a mask length not ((w+7)/8)*h        |
//	| payload_misaligned           | a colour or mask offset is not a multiple of 4                       |
//	| payload_out_of_region        | a payload leaves [payload offset, pack length - 4)                   |
//	| payload_layout_mismatch      | a payload is not where section 7 places it, or bytes trail the last  |
//	| payload_padding_nonzero      | a padding byte between or after the payloads is not zero             |
//
// # Decisions the contract leaves open
//
// Counts have only upper bounds here. A count of zero needs no rule of its
// own: with no roles the fallback index fails, with no animations a role
// fails, with no frames an animation fails, and with no images a frame
// does, so every accepted pack has at least one of each.
//
// The per-animation limit of 16 frames belongs to the animation rule, next
// to the run it bounds, rather than to the header counts.
//
// Frame durations are checked as their own rule, right after the frame
// image rule, because section 5.3 bounds them and a widened zero duration
// would stall playback.
//
// The 16 MiB limit is checked with the pack length, before the CRC, so the
// reader never hashes more than it would accept.
//
// Payloads may not overlap, and more: section 7 fixes the layout (image
// order, colour then mask, each on the next four-byte boundary, zero
// padding, the check straight after), so the reader recomputes where every
// payload must be and accepts only that. An accepted pack therefore has
// exactly one byte form, which is what lets a test re-encode a read pack and
// get the same bytes.
//
// The reader does not look inside payloads. A transparent pixel's colour
// and the unused bits at the end of a mask row are the writer's to zero
// (sections 7.1 and 7.2); they change no pixel a frontend draws, and
// checking them would make validation cost grow with the sprites.
//
// Identifier bytes before the terminator are not re-checked against the
// manifest grammar (section 10): an empty identifier or a non-ASCII byte is
// the converter's responsibility.
package pack
