// Package motionqa is the authored-timing motion QA and the production gate
// of the .petpack V3 contract's section 6, in the evidence formats of the
// contract's authors (apc.pet-motion-qa.v1, apc.pet-motion-review.v1,
// apc.pet-visual-production-verification.v1), so a pet made with their
// maker is verified here and ours there.
//
// Run audits a validated package (archive or directory) and writes a QA
// directory outside it: report.json, the runtime-size keyframes.png, one
// previews/<state>-authored-timing.webp per audited state at its exact
// declared durations, the nine-state previews/presence-preview.webp, copies
// of the audited frames and index.html, the review page. BuildReview writes
// the review that binds a report by its SHA-256; VerifyProduction runs every
// hard check and returns the verification and the failures.
//
// # Determinism
//
// report.json is byte-identical wherever it is built: generated_at is the
// manifest's created_at, keys are written in a fixed order (the authors'),
// paths are relative to the QA directory, and every measurement is computed
// from integer sums over pixels and rounded once, exactly (math/big), to a
// fixed number of decimals with halves to even; square roots are rounded the
// same way from an integer square root. No result passes through a float, so
// none can depend on fused multiply-add or summation order. The report holds
// no hash of an artifact, so it does not depend on the PNG or WebP encoder.
//
// # Readings of the authors' formats
//
// Measurements are made on the full-size decoded frames (the authors
// resample to 192x208 first; this project never resamples), so
// preview_size, preview_width and preview_height are the render size, and
// the keyframe sheet has runtime-size cells. The blend fit uses the raw
// decoded RGBA, as the authors' verifier does; the adjacent and seam deltas
// use the normalised pixels, as their QA does. QA never refuses a pet for
// what it measures: clipping, blends and timing bounds are verify-production
// failures, so the evidence of a failing pet can still be looked at. Fields
// of a report or review beyond schema_version and the ones checked are
// accepted; ours carries no reviewed_at (it would break byte identity).
//
// # verify-production rules
//
// Each failure is `FILE: RULE: message`, naming the state, the frame and the
// measurement where there is one.
//
//	| rule                           | fails when                                                                 |
//	| ------------------------------ | -------------------------------------------------------------------------- |
//	| package_invalid                | the validator rejects SRC (its finding follows: manifest, tier, layout, media) |
//	| full_source_alpha_coverage     | skill-full-source: a frame under 1% visible (alpha >= 16) or transparent (<= 239) |
//	| full_source_frame_duplicate    | skill-full-source: a frame decodes like the one before it                 |
//	| full_source_loop_seam_duplicate| skill-full-source: a loop state's last frame decodes like its first        |
//	| evidence_unsafe                | report or review missing, a symlink, not regular or over 512 KiB          |
//	| evidence_malformed             | report or review is not one JSON object                                   |
//	| report_schema, review_schema   | schema_version is not apc.pet-motion-qa.v1 / apc.pet-motion-review.v1     |
//	| review_not_approved            | the review's status is not approved                                       |
//	| review_stale                   | report_sha256 is not the SHA-256 of report.json's bytes                   |
//	| audited_states_invalid         | audited_states empty, repeated or not action names                        |
//	| audited_states_mismatch        | report and review audit different states                                  |
//	| audit_coverage                 | not all nine in the fixed order (no --baseline), or not exactly the changed states |
//	| manifest_id_mismatch           | the report's manifest_id is not the package's (evidence of another pet)  |
//	| timing_digest_stale            | timing_digest is not the manifest's                                       |
//	| motion_digest_stale            | a state's motion_digest is not its current frames'                        |
//	| frame_set_digest_stale         | the report's or the review's frame_set_digest is not the audited frames'  |
//	| presence_digest_stale          | the presence preview's frame_set_digest is not the nine actions'          |
//	| review_note_invalid            | an audited state's note is not approved or not 12 to 500 characters       |
//	| artifact_invalid               | keyframes, a preview or the presence preview unsafe, missing, over 32 MiB, undecodable or at other durations |
//	| frame_clipped                  | a pixel with alpha >= 16 on a frame's outer row or column                 |
//	| synthetic_blend                | two or more frames of a state are linear blends of their neighbours       |
//	| state_static                   | a state has under two distinct frames                                     |
//	| states_not_distinct            | all nine audited, under four distinct first frames                        |
//	| active_playback_out_of_range   | thinking, tool, waiting, done or failed active outside 1000 to 3200 ms    |
//	| presence_duration              | the presence preview outside 8000 to 12000 ms, or other declared bounds  |
//	| presence_rests                 | under three idle rests, or the late-motion boundary outside [1000, duration) |
//	| presence_sequence              | the sequence does not add up, has another kind, or skips a played action |
//	| revision_unchanged             | --baseline: no state's decoded frames changed                             |
//	| timing_changed_without_frames  | --baseline: a state's timing changed but not its frames                   |
//	| baseline_mismatch              | --baseline is another pet (manifest id)                                    |
//	| baseline_invalid               | --baseline does not validate                                               |
//
// A synthetic blend is decided exactly: for each middle frame, over the raw
// RGBA of every max(1, N/50000)-th of its N pixels, with d = right - left
// and o = middle - left per channel, den = sum d^2, num = sum o*d and
// soo = sum o^2 over the c channel samples: motion RMS >= 2 is den >= 4c,
// 0.05 <= w <= 0.95 is den <= 20*num <= 19*den, and relative residual <=
// 0.06 is (soo*den - num^2) * 10000 <= 36 * den^2.
package motionqa
