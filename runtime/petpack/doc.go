// Package petpack reads and validates .petpack V3 packages (contract
// apc.petpack.v3): the untrusted archive a desktop pet arrives in, and the
// unpacked directory a build validates before it writes one.
//
// Validate (an archive), ValidateDir (a directory) and ValidatePath (either,
// by what the path is) share one core over an abstract file set and return
// a *Verdict: every error and warning found, each with its rule, the path
// inside the package (and a JSON pointer inside a JSON file) and a message,
// listed stage by stage in the order of contract section 8. ValidateManifest
// checks manifest.json bytes alone. Nothing in a package is executed,
// followed as a link, or written anywhere.
//
// # Stages
//
// Each stage runs over the whole package and reports everything it finds.
// A stage-1 error ends validation (the bytes are not a trustworthy
// archive); so does a broken budget (what follows would spend what the
// budget bounds) and a stage-3 error (typed decoding must not happen).
// Path errors do not: a rejected name is left out of the package tree, so
// it can neither satisfy nor break a later rule. The media gate checks
// frames against a manifest only when that manifest broke no rule.
//
//  1. Container: a regular ZIP file or a real directory. The ZIP records are
//     read by internal/strictzip, not by archive/zip: the end record and the
//     entry count first, then the central directory streamed record by
//     record, every local header compared with its record, and the entries
//     required to tile the bytes before the central directory exactly;
//     archive.go reports each problem it finds under this package's rule.
//  2. Paths and budgets: every path rule; the declared sizes against the
//     budgets; then every archive entry read once through a bounded,
//     CRC-checked stream; frame counts; each PNG's IHDR for the pixel and
//     decoded-RGBA budgets; animated_preview.webp's container, bitstream
//     headers and VP8L allocation pre-pass (internal/webp) for the preview
//     budgets. Nothing is decoded in this stage.
//  3. Version: manifest.json is one JSON object with no duplicate key, and
//     its schema_version is exactly apc.petpack.v3; V1 and V2 get the
//     message to recreate the pet with a V3 maker.
//  4. Content: the manifest field by field, the layout of section 3, and
//     the media gate of section 6: one frame per duration, each exactly
//     render_size by its IHDR; the animated preview decoded frame by frame;
//     cover.png decoded, with an alpha colour type, at least 1% visible and
//     1% transparent pixels and no baked checkerboard; then each state's
//     frames decoded in natural order, one at a time, for alpha coverage
//     and against the frame before (and a loop's last against its first).
//     Those two are warnings, and errors when source.json's provenance is
//     skill-full-source, so metadata is decoded before the gate runs.
//  5. Metadata (Safe Producer schemas, cross-file consistency, privacy):
//     source/source.json, brief.json, each line of
//     source/skill_session.jsonl and build/validation.json checked against
//     the contract authors' published V3 schemas, every keyword with JSON
//     Schema's meaning (metaschema.go describes them, internal/jsonschema
//     evaluates them, the repository's schemas/ directory publishes them);
//     source/prompt.md and a non-empty session log; then identity, name,
//     style, quality, render size, the nine timing contracts, frame
//     counts, the copied manifest, the generation claim, the reference
//     inventory and the skill-full-source profile against the manifest and
//     the file set; then the recursive privacy check: every key and
//     string value of the four documents (each session record its own
//     document) through one detector per bullet of section 7's list
//     (package internal/privacy: keys.go for keys, values.go for values;
//     its kinds are this package's rule IDs), with the
//     contract authors' key names, path and locator rules and bounds
//     as its baseline.
//
// # Rules
//
// The identifiers are stable. Rules lists them in this order, which is the
// order findings are reported in across stages. Rules marked (warning)
// never reject a package.
//
//	| stage | rule                               | reported when                                                                  |
//	| ----- | ---------------------------------- | ------------------------------------------------------------------------------ |
//	| 1     | package_unreadable                 | the archive, the directory or one of its files cannot be read                  |
//	| 1     | package_not_regular                | the path is a symbolic link, device or FIFO, not a regular file or directory   |
//	| 1     | zip_end_missing                    | no end-of-central-directory record: not a ZIP archive                          |
//	| 1     | zip_trailing_data                  | bytes follow the end record's comment                                          |
//	| 1     | zip_comment_mismatch               | the end record's comment length runs past the end of the file                  |
//	| 1     | zip64_unsupported                  | a Zip64 record, extra field or placeholder that disagrees with the rest of the archive |
//	| 1     | zip_multi_disk                     | a disk number is not 0, or the per-disk and total entry counts differ          |
//	| 1     | zip_directory_out_of_range         | the central directory runs past its end record                                 |
//	| 1     | zip_entry_count_mismatch           | the central directory holds more or fewer records than the end record says     |
//	| 1     | zip_directory_malformed            | a central record without its signature, or an extra field that does not parse  |
//	| 1     | zip_encrypted                      | an encryption flag (traditional, strong, or masked headers)                    |
//	| 1     | zip_flags_unsupported              | a flag bit other than deflate options, data descriptor and UTF-8               |
//	| 1     | zip_method_unsupported             | a compression method other than stored (0) and deflate (8)                     |
//	| 1     | zip_stored_size_mismatch           | a stored entry's compressed and uncompressed sizes differ                      |
//	| 1     | entry_symlink                      | a symbolic link: Unix mode, Windows reparse point, or a link on disk           |
//	| 1     | entry_special_file                 | a FIFO, device, socket or other special file                                   |
//	| 1     | entry_type_mismatch                | directory attributes on a name without /, file ones on a name with /, or a directory entry with data |
//	| 1     | zip_local_header_malformed         | no local header signature, or a local extra field that does not parse          |
//	| 1     | zip_local_header_mismatch          | the local header's name, flags, method, CRC or sizes differ from the central record |
//	| 1     | zip_data_descriptor_mismatch       | no data descriptor agreeing with the central record follows the data           |
//	| 1     | zip_entry_into_directory           | a local header or its data runs into the central directory                     |
//	| 1     | zip_prepended_data                 | bytes precede the first local header                                           |
//	| 1     | zip_entry_overlap                  | two entries share bytes (the overlapping-files zip bomb)                       |
//	| 1     | zip_gap                            | unaccounted bytes between entries, before the directory or before the end record |
//	| 2     | archive_too_large                  | the archive is over 1 GiB (checked before a byte is read)                      |
//	| 2     | too_many_entries                   | over 5000 entries (checked before the central directory is read)               |
//	| 2     | path_empty                         | an empty name                                                                  |
//	| 2     | entry_path_too_long                | a name over 1024 bytes                                                         |
//	| 2     | path_nul                           | a NUL byte                                                                     |
//	| 2     | path_control_byte                  | another control byte (below 0x20, or 0x7F)                                     |
//	| 2     | path_backslash                     | a backslash                                                                    |
//	| 2     | path_absolute                      | a leading / (including //server UNC names)                                     |
//	| 2     | path_drive_prefix                  | a leading drive prefix such as C: or c:x                                       |
//	| 2     | path_dot_dot                       | a .. segment                                                                   |
//	| 2     | path_dot_segment                   | a . segment                                                                    |
//	| 2     | path_empty_segment                 | an empty segment (a//b)                                                        |
//	| 2     | path_device_name                   | a Windows device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, CONIN$...) with any extension |
//	| 2     | path_not_portable                  | invalid UTF-8, one of <>:"\|?*, a combining mark, or a segment ending in a dot or space |
//	| 2     | path_duplicate                     | the same name twice                                                            |
//	| 2     | path_case_collision                | two names equal under Unicode simple case folding                              |
//	| 2     | path_file_directory_conflict       | a name used as a file and as a directory (a beside a/ or a/b)                  |
//	| 2     | entry_too_large                    | an entry declares over 256 MiB                                                 |
//	| 2     | expanded_too_large                 | the entries declare over 4 GiB in all                                          |
//	| 2     | manifest_too_large                 | manifest.json is over 1 MiB                                                    |
//	| 2     | entry_size_mismatch                | an entry inflates past, or stops short of, its declared size                   |
//	| 2     | entry_crc_mismatch                 | an entry's CRC-32 differs from its record (checked even when that is zero)     |
//	| 2     | entry_data_corrupt                 | a deflate stream is corrupt, truncated, or does not end at the compressed size |
//	| 2     | too_many_frames_in_state           | a frames directory holds over 40 .png files                                    |
//	| 2     | too_many_frames_in_package         | the nine frames directories hold over 360 .png files                           |
//	| 2     | png_header_invalid                 | a frame or the cover does not start with a PNG signature and a valid IHDR      |
//	| 2     | image_too_many_pixels              | an IHDR declares over 16,777,216 pixels                                        |
//	| 2     | state_decoded_too_large            | an action's frames would decode to over 420 MiB (8 bytes a pixel at 16 bits)   |
//	| 2     | preview_header_invalid             | animated_preview.webp breaks a internal/webp container or bitstream rule (named) |
//	| 2     | preview_frame_count                | the preview has no image, or over 120 frames (webp_frame_count)                |
//	| 2     | preview_too_many_pixels            | the preview canvas or a frame is over 16,777,216 pixels (webp_canvas_too_large) |
//	| 2     | preview_frame_outside_canvas       | a preview frame reaches outside the canvas (webp_frame_outside_canvas)         |
//	| 2     | preview_decoder_memory             | a VP8L stream would make x/image allocate over webp.DecoderBytesFor the budgets (346 MiB), or over 4096 prefix-code groups |
//	| 2     | preview_decoded_too_large          | the preview frames decode to over 128 MiB of RGBA (webp_decoded_bytes)         |
//	| 3     | manifest_missing                   | no manifest.json file                                                          |
//	| 3     | manifest_malformed                 | not exactly one well-formed JSON object in UTF-8                               |
//	| 3     | manifest_duplicate_key             | a key twice in one object (compared after unescaping)                          |
//	| 3     | schema_version_missing             | no schema_version string                                                       |
//	| 3     | schema_version_legacy              | apc.petpack.v1 or v2: recreate the pet with a V3 maker                         |
//	| 3     | schema_version_unknown             | any other schema_version                                                       |
//	| 4     | manifest_unknown_field             | a field the schema does not define, in any object (keys are exact, not case-folded) |
//	| 4     | manifest_field_type                | a field of the wrong JSON type, null, or a number that is not an integer       |
//	| 4     | manifest_field_missing             | a required field is absent                                                     |
//	| 4     | id_invalid                         | id does not match ^pet_[a-z0-9]+$                                              |
//	| 4     | id_too_long                        | id is over 128 characters                                                      |
//	| 4     | name_blank                         | name is empty or white space                                                   |
//	| 4     | style_blank                        | style is empty or white space                                                  |
//	| 4     | quality_unknown                    | quality is not low, standard or high                                           |
//	| 4     | render_size_mismatch               | render_size is not the quality's canvas (192x208, 384x416, 576x624)            |
//	| 4     | created_at_invalid                 | created_at is not an RFC 3339 date-time                                        |
//	| 4     | state_unknown                      | a state that is not a fixed action (removed start and review say so)           |
//	| 4     | state_duplicate                    | a second state for one action                                                  |
//	| 4     | state_missing                      | a fixed action without a state                                                 |
//	| 4     | state_frames_dir_mismatch          | frames_dir is not assets/frames/<action>                                       |
//	| 4     | frame_durations_count_out_of_range | frame_durations_ms holds under 2 or over 40 entries                            |
//	| 4     | state_frame_duration_out_of_range  | a duration outside 50 to 2000 ms                                               |
//	| 4     | state_duration_too_long            | a state's durations add up to over 5000 ms                                     |
//	| 4     | playback_mode_unknown              | mode is not one of the five modes                                              |
//	| 4     | playback_mode_mismatch             | mode is not the action's required mode                                         |
//	| 4     | playback_field_missing             | a field the mode requires is absent                                            |
//	| 4     | playback_field_forbidden           | a field the mode forbids is present                                            |
//	| 4     | entry_repeat_count_out_of_range    | entry_repeat_count outside 1 to 8                                              |
//	| 4     | settle_index_out_of_range          | settle_frame_index outside the frame sequence                                  |
//	| 4     | cooldown_malformed                 | cooldown_ms is not [minimum_ms, maximum_ms]                                    |
//	| 4     | cooldown_out_of_range              | a cooldown bound outside 0 to 86,400,000 ms                                    |
//	| 4     | cooldown_inverted                  | the cooldown minimum is greater than the maximum                               |
//	| 4     | reduced_motion_index_out_of_range  | reduced_motion_frame_index outside the frame sequence                          |
//	| 4     | frame_count_unusual                | (warning) a state has under 4 or over 8 frames                                 |
//	| 4     | action_duration_long               | (warning) a non-periodic state lasts over 1500 ms                              |
//	| 4     | frame_rate_unusual                 | (warning) a non-periodic state averages under 4 or over 12 frames a second     |
//	| 4     | required_missing                   | a file or directory of the section 3 layout is absent                          |
//	| 4     | required_wrong_type                | a layout file is a directory, or a layout directory a file                     |
//	| 4     | compatibility_name                 | a root .codex-plugin, hooks, skills, codex-pet.json, codex_pet.json or pet.json (any case) |
//	| 4     | unexpected_entry                   | an unknown root directory, or an entry the layout's closed directories do not name |
//	| 4     | extension_name_invalid             | something in extensions/ that is not a lower-case reverse-domain directory    |
//	| 4     | state_directory_not_flat           | a subdirectory in a frames directory                                           |
//	| 4     | frame_dir_ignored_file             | (warning) a file in a frames directory without a .png suffix                   |
//	| 4     | frame_count_mismatch               | a frames directory's .png count differs from the state's durations             |
//	| 4     | frame_size_mismatch                | a frame's IHDR size is not render_size                                         |
//	| 4     | preview_decode_failed              | a preview frame does not decode (the message names the webp rule)              |
//	| 4     | preview_size_unusual               | (warning) cover.png or the animated preview's canvas is not the recommended 384x416 |
//	| 4     | cover_no_alpha                     | cover.png's colour type is not 4 or 6 (a tRNS chunk is not an alpha channel)   |
//	| 4     | cover_decode_failed                | cover.png does not decode completely with image/png                            |
//	| 4     | cover_alpha_coverage               | under 1% of the cover's pixels are visible, or under 1% transparent            |
//	| 4     | cover_checkerboard                 | two corners of the cover alternate in two tones, a baked checkerboard (internal/imagecheck) |
//	| 4     | frame_decode_failed                | a frame does not decode completely with image/png                              |
//	| 4     | frame_alpha_coverage_low           | (warning) under 1% of a frame's pixels are visible, or under 1% transparent    |
//	| 4     | frame_duplicate_adjacent           | (warning) a frame decodes to the pixels of the one before it (or a loop's last to its first) |
//	| 4     | full_source_alpha_coverage_low     | frame_alpha_coverage_low in a skill-full-source package                        |
//	| 4     | full_source_frame_duplicate        | adjacent frames decode identically in a skill-full-source package              |
//	| 4     | full_source_loop_seam_duplicate    | a loop state's last and first frames decode identically (skill-full-source)    |
//	| 5     | metadata_malformed                 | a metadata document or JSONL line is not one UTF-8 JSON object; a metadata file (prompt.md too) over 1 MiB |
//	| 5     | metadata_duplicate_key             | a key twice in one metadata object (compared after unescaping) |
//	| 5     | metadata_schema_version            | a metadata document without exactly its schema identity (apc.pet-source.v1 ...), read first |
//	| 5     | schema_type                        | JSON Schema type: a value of another JSON type (an integer is a number without fraction) |
//	| 5     | schema_const                       | JSON Schema const: not the one allowed value (ok true, preview_only false ...) |
//	| 5     | schema_enum                        | JSON Schema enum: not one of the allowed values (quality, action names, visual_source ...) |
//	| 5     | schema_required                    | JSON Schema required: a required member is missing (the pointer names it) |
//	| 5     | schema_additional_properties       | JSON Schema additionalProperties false: a member a closed object does not define |
//	| 5     | schema_property_names              | JSON Schema propertyNames: an extensions key that is not a reverse-domain name |
//	| 5     | schema_max_properties              | JSON Schema maxProperties: too many extensions or ai_brief members |
//	| 5     | schema_min_length                  | JSON Schema minLength: a string shorter than allowed, in code points |
//	| 5     | schema_max_length                  | JSON Schema maxLength: a string longer than allowed, in code points |
//	| 5     | schema_pattern                     | JSON Schema pattern (ECMA-262): a string that does not match, such as a blank name |
//	| 5     | schema_format                      | JSON Schema format date-time: not an RFC 3339 date-time |
//	| 5     | schema_minimum                     | JSON Schema minimum: a number below its bound |
//	| 5     | schema_maximum                     | JSON Schema maximum: a number above its bound (validation frame_count over 240 ...) |
//	| 5     | schema_min_items                   | JSON Schema minItems: an array with too few items (nine states ...) |
//	| 5     | schema_max_items                   | JSON Schema maxItems: an array with too many items |
//	| 5     | schema_unique_items                | JSON Schema uniqueItems: two equal items |
//	| 5     | schema_contains                    | JSON Schema contains/minContains/maxContains: a brief without exactly one state brief per action |
//	| 5     | schema_any_of                      | JSON Schema anyOf: a value matching none of the forms (a reference path in neither form ...) |
//	| 5     | schema_one_of                      | JSON Schema oneOf: not exactly one alternative (a state brief with both name and state ...) |
//	| 5     | schema_not                         | JSON Schema not: a forbidden form (traversal, a playback field the mode forbids, materialized_by under skill-full-source) |
//	| 5     | prompt_empty                       | source/prompt.md is empty or white space |
//	| 5     | prompt_not_utf8                    | source/prompt.md is not UTF-8 text, or holds NUL |
//	| 5     | event_log_empty                    | source/skill_session.jsonl holds no record |
//	| 5     | metadata_id_mismatch               | a manifest_id (source, event, validation) that is not the manifest id |
//	| 5     | metadata_name_mismatch             | brief name, source pet_name or an event name that is not the manifest name |
//	| 5     | metadata_style_mismatch            | a restated style that is not the manifest style |
//	| 5     | metadata_quality_mismatch          | a restated quality that is not the manifest quality |
//	| 5     | metadata_render_size_mismatch      | a restated render_size (brief runtime, event) that is not the manifest render_size |
//	| 5     | metadata_timing_mismatch           | a restated states array (source, brief runtime, event state_timings, validation) that is not the manifest states array in its order; a state brief with other timing; states.rendered without all nine actions |
//	| 5     | metadata_frame_count_mismatch      | a state_frame_counts that is not the package frame counts |
//	| 5     | metadata_total_frame_count_mismatch | validation.json frame_count that is not the package frame count |
//	| 5     | metadata_manifest_mismatch         | a manifest copied into validation.json that is invalid or differs from manifest.json |
//	| 5     | metadata_generation_mismatch       | brief generation generator, provenance, skill_helper or preview_only that is not source.json one |
//	| 5     | reference_path_invalid             | a reference path that breaks a package path rule, or names a file already listed (in either form) |
//	| 5     | reference_missing                  | a reference_files entry with no file in source/references/ |
//	| 5     | reference_unlisted                 | a file in source/references/ that source.json reference_files does not list |
//	| 5     | reference_list_mismatch            | brief references that are not the files of source/references/ |
//	| 5     | reference_count_mismatch           | copied_reference_count or an event reference_count that is not the number of reference files |
//	| 5     | provenance_preview_only            | skill-full-source with preview_only true in validation.json or brief generation |
//	| 5     | provenance_materialized            | skill-full-source with materialized_by in validation.json |
//	| 5     | privacy_document_too_complex       | a metadata document of more than 65,536 values, or nested deeper than 64      |
//	| 5     | privacy_credential                 | (7.1) a key naming, or a value holding, a credential, token, cookie, API key, authorization header or secret |
//	| 5     | privacy_absolute_path              | (7.2) a value holding an absolute, home, drive, UNC or host-configuration path |
//	| 5     | privacy_file_url                   | (7.2) a value holding a file: URL                                              |
//	| 5     | privacy_external_locator           | (7.2) a value holding a scheme:// locator                                      |
//	| 5     | privacy_agent_identifier           | (7.3) a key naming, or a value holding, an agent thread, session, turn, job, tool-call, connector or runtime identifier |
//	| 5     | privacy_command_line               | (7.4) a key naming, or a value holding, a command line, tool input or output, transcript, hidden reasoning or internal prompt |
//	| 5     | privacy_environment                | (7.4) a key naming, or a value holding, an environment dump or variables      |
//	| 5     | privacy_executable_or_override     | (7.5) a value holding executable code, or text meant to override an importer, agent or user |
//
// # Readings of the contract
//
// The contract names the manifest's fields but not every shape: render_size
// is read as {"width": W, "height": H} and cooldown_ms as a two-integer
// array. The V1 and V2 manifests are recognised by their schema_version
// string only. Unknown files are permitted at the root only, as section 3
// says; elsewhere the layout is closed except for source/references/ and
// extensions/<reverse-domain>/, and a frames directory's non-PNG files,
// which section 3 says are ignored and which therefore warn. The timing
// targets of section 5 exempt periodic idle from the duration and rate
// warnings, which its creation default would otherwise break.
//
// Section 7 names the metadata schemas but not their fields; the shapes
// are ours and published in schemas/ with a README. The timing contracts
// are restated verbatim in source.json rather than digested, so a mismatch
// names its field. Metadata frame counts are compared with the manifest's
// durations, which the media gate holds against the frames directories, so
// a missing frame is reported once, as frame_count_mismatch; and the
// cross-checks run only against a manifest that broke no rule. Every
// provenance must restate complete timing and exact counts, which leaves
// skill-full-source needing only preview_only false and a visual_source;
// no provenance value claims bundled identity (section 8). Metadata is
// bounded like the manifest, at 1 MiB a file.
//
// The media gate reads section 6 this way. A colour type "with Alpha" is
// PNG colour type 4 or 6, the types with an alpha channel; a tRNS chunk on
// a palette or RGB image does not count, as tools/assetpackbuild reads it too.
// Visible means alpha 16 or more and transparent alpha 239 or less (the
// contract authors' thresholds; an edge pixel can be both), each at least
// 1% of the pixels. Frames are compared as decoded, 8-bit non-premultiplied
// RGBA with every pixel under alpha 16 zeroed, so a frame re-encoded or
// with different colour under near-zero alpha is still a duplicate. "A loop's last and first
// decoded frames" is the seam of the loop playback mode only: periodic
// idle rests between plays, and the contract calls a burst's repeats a
// burst. An ordinary package's seam duplicate warns as an adjacent one
// does. 384x416 is the recommended size of both previews, so the cover
// and the animated preview's canvas each warn at another size. The
// checkerboard detector, the contract authors' corner-patch reading, is
// defined in internal/imagecheck/checkerboard.go. The preview's
// header pre-pass belongs to stage 2 with the other decoded-resource
// budgets, and its findings say which internal/webp rule the file broke;
// section 11's preview budgets each have a rule, and the remaining
// container and bitstream rules share preview_header_invalid.
//
// Two bounds are ours, not section 11's: a name is at most 1024 bytes
// (5000 names of 64 KiB would be 320 MiB before any rule could reject
// them), and manifest.json at most 1 MiB (it is decoded into memory).
// Paths must also be portable, because a package is extracted on macOS and
// Windows: Windows' reserved characters, device names and stripped
// trailing dots are rejected, and so are combining marks, since macOS
// would store a decomposed and a composed spelling as one name and simple
// case folding cannot see that.
//
// A data descriptor is accepted (archive/zip's writer uses one for every
// file) when it agrees with the central record. Zip64 is accepted, though
// a package never needs it, because writers produce it unasked (Python's
// zipfile with force_zip64, Info-ZIP's zip -fz) and the contract's
// authors read it: a Zip64 end record and locator, and Zip64 extra
// fields in central and local records, each exactly where and as long as
// the placeholders it replaces call for and equal to every classic field
// that is not a placeholder; the budgets then apply to the values it
// holds. A Zip64 data descriptor (8-byte sizes) is still refused. The frames-per-package
// budget of 360 equals nine states of 40, so it never fires without
// too_many_frames_in_state; it is kept because the contract states it.
package petpack
