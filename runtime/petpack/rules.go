package petpack

// Rule is the stable identifier of one rule a package can break. The
// identifiers are part of the tools' interface (`PATH: RULE: message`) and
// the app's, and never change meaning; new rules are added, old ones are not
// renamed.
type Rule string

// Stage is one step of the validation order of contract section 8. Every
// rule belongs to exactly one stage, and a verdict lists its findings stage
// by stage.
type Stage int

// The stages, in the order section 8 applies them.
const (
	// StageContainer resolves a regular ZIP file or a real directory
	// (section 8 step 1, section 2).
	StageContainer Stage = 1
	// StageBudgets applies the path rules of sections 3 and 11 and every
	// budget of section 11 before anything is decoded (step 2).
	StageBudgets Stage = 2
	// StageVersion reads exactly apc.petpack.v3 and rejects V1 and V2
	// before typed decoding (step 3, section 10).
	StageVersion Stage = 3
	// StageContent validates the manifest, its fixed actions and timing,
	// the layout of section 3 and the media of section 6 (step 4).
	StageContent Stage = 4
	// StageMetadata validates the Safe Producer metadata (step 5).
	StageMetadata Stage = 5
)

// Rules of stage 1, the container.
const (
	RulePackageUnreadable          Rule = "package_unreadable"
	RulePackageNotRegular          Rule = "package_not_regular"
	RuleZipEndMissing              Rule = "zip_end_missing"
	RuleZipTrailingData            Rule = "zip_trailing_data"
	RuleZipCommentMismatch         Rule = "zip_comment_mismatch"
	RuleZip64Unsupported           Rule = "zip64_unsupported"
	RuleZipMultiDisk               Rule = "zip_multi_disk"
	RuleZipDirectoryOutOfRange     Rule = "zip_directory_out_of_range"
	RuleZipEntryCountMismatch      Rule = "zip_entry_count_mismatch"
	RuleZipDirectoryMalformed      Rule = "zip_directory_malformed"
	RuleZipEncrypted               Rule = "zip_encrypted"
	RuleZipFlagsUnsupported        Rule = "zip_flags_unsupported"
	RuleZipMethodUnsupported       Rule = "zip_method_unsupported"
	RuleZipStoredSizeMismatch      Rule = "zip_stored_size_mismatch"
	RuleEntrySymlink               Rule = "entry_symlink"
	RuleEntrySpecialFile           Rule = "entry_special_file"
	RuleEntryTypeMismatch          Rule = "entry_type_mismatch"
	RuleZipLocalHeaderMalformed    Rule = "zip_local_header_malformed"
	RuleZipLocalHeaderMismatch     Rule = "zip_local_header_mismatch"
	RuleZipDataDescriptorMismatch  Rule = "zip_data_descriptor_mismatch"
	RuleZipEntryIntoDirectory      Rule = "zip_entry_into_directory"
	RuleZipPrependedData           Rule = "zip_prepended_data"
	RuleZipEntryOverlap            Rule = "zip_entry_overlap"
	RuleZipGap                     Rule = "zip_gap"
	RuleArchiveTooLarge            Rule = "archive_too_large"
	RuleTooManyEntries             Rule = "too_many_entries"
	RulePathEmpty                  Rule = "path_empty"
	RulePathTooLong                Rule = "entry_path_too_long"
	RulePathNUL                    Rule = "path_nul"
	RulePathControlByte            Rule = "path_control_byte"
	RulePathBackslash              Rule = "path_backslash"
	RulePathAbsolute               Rule = "path_absolute"
	RulePathDrivePrefix            Rule = "path_drive_prefix"
	RulePathDotDot                 Rule = "path_dot_dot"
	RulePathDotSegment             Rule = "path_dot_segment"
	RulePathEmptySegment           Rule = "path_empty_segment"
	RulePathDeviceName             Rule = "path_device_name"
	RulePathNotPortable            Rule = "path_not_portable"
	RulePathDuplicate              Rule = "path_duplicate"
	RulePathCaseCollision          Rule = "path_case_collision"
	RulePathFileDirectoryConflict  Rule = "path_file_directory_conflict"
	RuleEntryTooLarge              Rule = "entry_too_large"
	RuleExpandedTooLarge           Rule = "expanded_too_large"
	RuleManifestTooLarge           Rule = "manifest_too_large"
	RuleEntrySizeMismatch          Rule = "entry_size_mismatch"
	RuleEntryCRCMismatch           Rule = "entry_crc_mismatch"
	RuleEntryDataCorrupt           Rule = "entry_data_corrupt"
	RuleTooManyFramesInState       Rule = "too_many_frames_in_state"
	RuleTooManyFrames              Rule = "too_many_frames_in_package"
	RulePNGHeaderInvalid           Rule = "png_header_invalid"
	RuleImageTooManyPixels         Rule = "image_too_many_pixels"
	RuleStateDecodedTooLarge       Rule = "state_decoded_too_large"
	RulePreviewHeaderInvalid       Rule = "preview_header_invalid"
	RulePreviewFrameCount          Rule = "preview_frame_count"
	RulePreviewTooManyPixels       Rule = "preview_too_many_pixels"
	RulePreviewFrameOutsideCanvas  Rule = "preview_frame_outside_canvas"
	RulePreviewDecoderMemory       Rule = "preview_decoder_memory"
	RulePreviewDecodedTooLarge     Rule = "preview_decoded_too_large"
	RuleManifestMissing            Rule = "manifest_missing"
	RuleManifestMalformed          Rule = "manifest_malformed"
	RuleManifestDuplicateKey       Rule = "manifest_duplicate_key"
	RuleSchemaVersionMissing       Rule = "schema_version_missing"
	RuleSchemaVersionLegacy        Rule = "schema_version_legacy"
	RuleSchemaVersionUnknown       Rule = "schema_version_unknown"
	RuleManifestUnknownField       Rule = "manifest_unknown_field"
	RuleManifestFieldType          Rule = "manifest_field_type"
	RuleManifestFieldMissing       Rule = "manifest_field_missing"
	RuleIDInvalid                  Rule = "id_invalid"
	RuleIDTooLong                  Rule = "id_too_long"
	RuleNameBlank                  Rule = "name_blank"
	RuleStyleBlank                 Rule = "style_blank"
	RuleQualityUnknown             Rule = "quality_unknown"
	RuleRenderSizeMismatch         Rule = "render_size_mismatch"
	RuleCreatedAtInvalid           Rule = "created_at_invalid"
	RuleStateUnknown               Rule = "state_unknown"
	RuleStateDuplicate             Rule = "state_duplicate"
	RuleStateMissing               Rule = "state_missing"
	RuleStateFramesDirMismatch     Rule = "state_frames_dir_mismatch"
	RuleFrameDurationsCount        Rule = "frame_durations_count_out_of_range"
	RuleFrameDurationOutOfRange    Rule = "state_frame_duration_out_of_range"
	RuleStateDurationTooLong       Rule = "state_duration_too_long"
	RulePlaybackModeUnknown        Rule = "playback_mode_unknown"
	RulePlaybackModeMismatch       Rule = "playback_mode_mismatch"
	RulePlaybackFieldMissing       Rule = "playback_field_missing"
	RulePlaybackFieldForbidden     Rule = "playback_field_forbidden"
	RuleEntryRepeatCountOutOfRange Rule = "entry_repeat_count_out_of_range"
	RuleSettleIndexOutOfRange      Rule = "settle_index_out_of_range"
	RuleCooldownMalformed          Rule = "cooldown_malformed"
	RuleCooldownOutOfRange         Rule = "cooldown_out_of_range"
	RuleCooldownInverted           Rule = "cooldown_inverted"
	RuleReducedMotionOutOfRange    Rule = "reduced_motion_index_out_of_range"
	RuleFrameCountUnusual          Rule = "frame_count_unusual"
	RuleActionDurationLong         Rule = "action_duration_long"
	RuleFrameRateUnusual           Rule = "frame_rate_unusual"
	RuleRequiredMissing            Rule = "required_missing"
	RuleRequiredWrongType          Rule = "required_wrong_type"
	RuleCompatibilityName          Rule = "compatibility_name"
	RuleUnexpectedEntry            Rule = "unexpected_entry"
	RuleExtensionNameInvalid       Rule = "extension_name_invalid"
	RuleStateDirectoryNotFlat      Rule = "state_directory_not_flat"
	RuleFrameDirIgnoredFile        Rule = "frame_dir_ignored_file"
	RuleFrameCountMismatch         Rule = "frame_count_mismatch"
	RuleFrameSizeMismatch          Rule = "frame_size_mismatch"
	RulePreviewDecodeFailed        Rule = "preview_decode_failed"
	RulePreviewSizeUnusual         Rule = "preview_size_unusual"
	RuleCoverNoAlpha               Rule = "cover_no_alpha"
	RuleCoverDecodeFailed          Rule = "cover_decode_failed"
	RuleCoverAlphaCoverage         Rule = "cover_alpha_coverage"
	RuleCoverCheckerboard          Rule = "cover_checkerboard"
	RuleFrameDecodeFailed          Rule = "frame_decode_failed"
	RuleFrameAlphaCoverageLow      Rule = "frame_alpha_coverage_low"
	RuleFrameDuplicateAdjacent     Rule = "frame_duplicate_adjacent"
	RuleFullSourceAlphaCoverage    Rule = "full_source_alpha_coverage_low"
	RuleFullSourceFrameDuplicate   Rule = "full_source_frame_duplicate"
	RuleFullSourceLoopSeam         Rule = "full_source_loop_seam_duplicate"
)

// Rules of stage 5, the Safe Producer metadata of section 7 in its order:
// the four schemas (each schema_* rule is the JSON Schema keyword of the
// same name: schema_required is "required", schema_additional_properties
// is additionalProperties false), the prompt and the session log, the
// cross-file checks, then the recursive privacy check over keys and string
// values.
const (
	RuleMetadataMalformed               Rule = "metadata_malformed"
	RuleMetadataDuplicateKey            Rule = "metadata_duplicate_key"
	RuleMetadataSchemaVersion           Rule = "metadata_schema_version"
	RuleSchemaType                      Rule = "schema_type"
	RuleSchemaConst                     Rule = "schema_const"
	RuleSchemaEnum                      Rule = "schema_enum"
	RuleSchemaRequired                  Rule = "schema_required"
	RuleSchemaAdditionalProperties      Rule = "schema_additional_properties"
	RuleSchemaPropertyNames             Rule = "schema_property_names"
	RuleSchemaMaxProperties             Rule = "schema_max_properties"
	RuleSchemaMinLength                 Rule = "schema_min_length"
	RuleSchemaMaxLength                 Rule = "schema_max_length"
	RuleSchemaPattern                   Rule = "schema_pattern"
	RuleSchemaFormat                    Rule = "schema_format"
	RuleSchemaMinimum                   Rule = "schema_minimum"
	RuleSchemaMaximum                   Rule = "schema_maximum"
	RuleSchemaMinItems                  Rule = "schema_min_items"
	RuleSchemaMaxItems                  Rule = "schema_max_items"
	RuleSchemaUniqueItems               Rule = "schema_unique_items"
	RuleSchemaContains                  Rule = "schema_contains"
	RuleSchemaAnyOf                     Rule = "schema_any_of"
	RuleSchemaOneOf                     Rule = "schema_one_of"
	RuleSchemaNot                       Rule = "schema_not"
	RulePromptEmpty                     Rule = "prompt_empty"
	RulePromptNotUTF8                   Rule = "prompt_not_utf8"
	RuleEventLogEmpty                   Rule = "event_log_empty"
	RuleMetadataIDMismatch              Rule = "metadata_id_mismatch"
	RuleMetadataNameMismatch            Rule = "metadata_name_mismatch"
	RuleMetadataStyleMismatch           Rule = "metadata_style_mismatch"
	RuleMetadataQualityMismatch         Rule = "metadata_quality_mismatch"
	RuleMetadataRenderSizeMismatch      Rule = "metadata_render_size_mismatch"
	RuleMetadataTimingMismatch          Rule = "metadata_timing_mismatch"
	RuleMetadataFrameCountMismatch      Rule = "metadata_frame_count_mismatch"
	RuleMetadataTotalFrameCountMismatch Rule = "metadata_total_frame_count_mismatch"
	RuleMetadataManifestMismatch        Rule = "metadata_manifest_mismatch"
	RuleMetadataGenerationMismatch      Rule = "metadata_generation_mismatch"
	RuleReferencePathInvalid            Rule = "reference_path_invalid"
	RuleReferenceMissing                Rule = "reference_missing"
	RuleReferenceUnlisted               Rule = "reference_unlisted"
	RuleReferenceListMismatch           Rule = "reference_list_mismatch"
	RuleReferenceCountMismatch          Rule = "reference_count_mismatch"
	RuleProvenancePreviewOnly           Rule = "provenance_preview_only"
	RuleProvenanceMaterialized          Rule = "provenance_materialized"

	RulePrivacyTooComplex      Rule = "privacy_document_too_complex"
	RulePrivacyCredential      Rule = "privacy_credential"
	RulePrivacyAbsolutePath    Rule = "privacy_absolute_path"
	RulePrivacyFileURL         Rule = "privacy_file_url"
	RulePrivacyExternalLocator Rule = "privacy_external_locator"
	RulePrivacyAgentIdentifier Rule = "privacy_agent_identifier"
	RulePrivacyCommandLine     Rule = "privacy_command_line"
	RulePrivacyEnvironment     Rule = "privacy_environment"
	RulePrivacyExecutable      Rule = "privacy_executable_or_override"
)

// ruleTable is the single ordered list of rules: Rules, Rule.Stage and the
// table in doc.go all follow it, and a test keeps doc.go in step.
var ruleTable = []struct {
	rule  Rule
	stage Stage
	warn  bool // reported as a warning, never as an error
}{
	{RulePackageUnreadable, StageContainer, false},
	{RulePackageNotRegular, StageContainer, false},
	{RuleZipEndMissing, StageContainer, false},
	{RuleZipTrailingData, StageContainer, false},
	{RuleZipCommentMismatch, StageContainer, false},
	{RuleZip64Unsupported, StageContainer, false},
	{RuleZipMultiDisk, StageContainer, false},
	{RuleZipDirectoryOutOfRange, StageContainer, false},
	{RuleZipEntryCountMismatch, StageContainer, false},
	{RuleZipDirectoryMalformed, StageContainer, false},
	{RuleZipEncrypted, StageContainer, false},
	{RuleZipFlagsUnsupported, StageContainer, false},
	{RuleZipMethodUnsupported, StageContainer, false},
	{RuleZipStoredSizeMismatch, StageContainer, false},
	{RuleEntrySymlink, StageContainer, false},
	{RuleEntrySpecialFile, StageContainer, false},
	{RuleEntryTypeMismatch, StageContainer, false},
	{RuleZipLocalHeaderMalformed, StageContainer, false},
	{RuleZipLocalHeaderMismatch, StageContainer, false},
	{RuleZipDataDescriptorMismatch, StageContainer, false},
	{RuleZipEntryIntoDirectory, StageContainer, false},
	{RuleZipPrependedData, StageContainer, false},
	{RuleZipEntryOverlap, StageContainer, false},
	{RuleZipGap, StageContainer, false},
	{RuleArchiveTooLarge, StageBudgets, false},
	{RuleTooManyEntries, StageBudgets, false},
	{RulePathEmpty, StageBudgets, false},
	{RulePathTooLong, StageBudgets, false},
	{RulePathNUL, StageBudgets, false},
	{RulePathControlByte, StageBudgets, false},
	{RulePathBackslash, StageBudgets, false},
	{RulePathAbsolute, StageBudgets, false},
	{RulePathDrivePrefix, StageBudgets, false},
	{RulePathDotDot, StageBudgets, false},
	{RulePathDotSegment, StageBudgets, false},
	{RulePathEmptySegment, StageBudgets, false},
	{RulePathDeviceName, StageBudgets, false},
	{RulePathNotPortable, StageBudgets, false},
	{RulePathDuplicate, StageBudgets, false},
	{RulePathCaseCollision, StageBudgets, false},
	{RulePathFileDirectoryConflict, StageBudgets, false},
	{RuleEntryTooLarge, StageBudgets, false},
	{RuleExpandedTooLarge, StageBudgets, false},
	{RuleManifestTooLarge, StageBudgets, false},
	{RuleEntrySizeMismatch, StageBudgets, false},
	{RuleEntryCRCMismatch, StageBudgets, false},
	{RuleEntryDataCorrupt, StageBudgets, false},
	{RuleTooManyFramesInState, StageBudgets, false},
	{RuleTooManyFrames, StageBudgets, false},
	{RulePNGHeaderInvalid, StageBudgets, false},
	{RuleImageTooManyPixels, StageBudgets, false},
	{RuleStateDecodedTooLarge, StageBudgets, false},
	{RulePreviewHeaderInvalid, StageBudgets, false},
	{RulePreviewFrameCount, StageBudgets, false},
	{RulePreviewTooManyPixels, StageBudgets, false},
	{RulePreviewFrameOutsideCanvas, StageBudgets, false},
	{RulePreviewDecoderMemory, StageBudgets, false},
	{RulePreviewDecodedTooLarge, StageBudgets, false},
	{RuleManifestMissing, StageVersion, false},
	{RuleManifestMalformed, StageVersion, false},
	{RuleManifestDuplicateKey, StageVersion, false},
	{RuleSchemaVersionMissing, StageVersion, false},
	{RuleSchemaVersionLegacy, StageVersion, false},
	{RuleSchemaVersionUnknown, StageVersion, false},
	{RuleManifestUnknownField, StageContent, false},
	{RuleManifestFieldType, StageContent, false},
	{RuleManifestFieldMissing, StageContent, false},
	{RuleIDInvalid, StageContent, false},
	{RuleIDTooLong, StageContent, false},
	{RuleNameBlank, StageContent, false},
	{RuleStyleBlank, StageContent, false},
	{RuleQualityUnknown, StageContent, false},
	{RuleRenderSizeMismatch, StageContent, false},
	{RuleCreatedAtInvalid, StageContent, false},
	{RuleStateUnknown, StageContent, false},
	{RuleStateDuplicate, StageContent, false},
	{RuleStateMissing, StageContent, false},
	{RuleStateFramesDirMismatch, StageContent, false},
	{RuleFrameDurationsCount, StageContent, false},
	{RuleFrameDurationOutOfRange, StageContent, false},
	{RuleStateDurationTooLong, StageContent, false},
	{RulePlaybackModeUnknown, StageContent, false},
	{RulePlaybackModeMismatch, StageContent, false},
	{RulePlaybackFieldMissing, StageContent, false},
	{RulePlaybackFieldForbidden, StageContent, false},
	{RuleEntryRepeatCountOutOfRange, StageContent, false},
	{RuleSettleIndexOutOfRange, StageContent, false},
	{RuleCooldownMalformed, StageContent, false},
	{RuleCooldownOutOfRange, StageContent, false},
	{RuleCooldownInverted, StageContent, false},
	{RuleReducedMotionOutOfRange, StageContent, false},
	{RuleFrameCountUnusual, StageContent, true},
	{RuleActionDurationLong, StageContent, true},
	{RuleFrameRateUnusual, StageContent, true},
	{RuleRequiredMissing, StageContent, false},
	{RuleRequiredWrongType, StageContent, false},
	{RuleCompatibilityName, StageContent, false},
	{RuleUnexpectedEntry, StageContent, false},
	{RuleExtensionNameInvalid, StageContent, false},
	{RuleStateDirectoryNotFlat, StageContent, false},
	{RuleFrameDirIgnoredFile, StageContent, true},
	{RuleFrameCountMismatch, StageContent, false},
	{RuleFrameSizeMismatch, StageContent, false},
	{RulePreviewDecodeFailed, StageContent, false},
	{RulePreviewSizeUnusual, StageContent, true},
	{RuleCoverNoAlpha, StageContent, false},
	{RuleCoverDecodeFailed, StageContent, false},
	{RuleCoverAlphaCoverage, StageContent, false},
	{RuleCoverCheckerboard, StageContent, false},
	{RuleFrameDecodeFailed, StageContent, false},
	{RuleFrameAlphaCoverageLow, StageContent, true},
	{RuleFrameDuplicateAdjacent, StageContent, true},
	{RuleFullSourceAlphaCoverage, StageContent, false},
	{RuleFullSourceFrameDuplicate, StageContent, false},
	{RuleFullSourceLoopSeam, StageContent, false},
	{RuleMetadataMalformed, StageMetadata, false},
	{RuleMetadataDuplicateKey, StageMetadata, false},
	{RuleMetadataSchemaVersion, StageMetadata, false},
	{RuleSchemaType, StageMetadata, false},
	{RuleSchemaConst, StageMetadata, false},
	{RuleSchemaEnum, StageMetadata, false},
	{RuleSchemaRequired, StageMetadata, false},
	{RuleSchemaAdditionalProperties, StageMetadata, false},
	{RuleSchemaPropertyNames, StageMetadata, false},
	{RuleSchemaMaxProperties, StageMetadata, false},
	{RuleSchemaMinLength, StageMetadata, false},
	{RuleSchemaMaxLength, StageMetadata, false},
	{RuleSchemaPattern, StageMetadata, false},
	{RuleSchemaFormat, StageMetadata, false},
	{RuleSchemaMinimum, StageMetadata, false},
	{RuleSchemaMaximum, StageMetadata, false},
	{RuleSchemaMinItems, StageMetadata, false},
	{RuleSchemaMaxItems, StageMetadata, false},
	{RuleSchemaUniqueItems, StageMetadata, false},
	{RuleSchemaContains, StageMetadata, false},
	{RuleSchemaAnyOf, StageMetadata, false},
	{RuleSchemaOneOf, StageMetadata, false},
	{RuleSchemaNot, StageMetadata, false},
	{RulePromptEmpty, StageMetadata, false},
	{RulePromptNotUTF8, StageMetadata, false},
	{RuleEventLogEmpty, StageMetadata, false},
	{RuleMetadataIDMismatch, StageMetadata, false},
	{RuleMetadataNameMismatch, StageMetadata, false},
	{RuleMetadataStyleMismatch, StageMetadata, false},
	{RuleMetadataQualityMismatch, StageMetadata, false},
	{RuleMetadataRenderSizeMismatch, StageMetadata, false},
	{RuleMetadataTimingMismatch, StageMetadata, false},
	{RuleMetadataFrameCountMismatch, StageMetadata, false},
	{RuleMetadataTotalFrameCountMismatch, StageMetadata, false},
	{RuleMetadataManifestMismatch, StageMetadata, false},
	{RuleMetadataGenerationMismatch, StageMetadata, false},
	{RuleReferencePathInvalid, StageMetadata, false},
	{RuleReferenceMissing, StageMetadata, false},
	{RuleReferenceUnlisted, StageMetadata, false},
	{RuleReferenceListMismatch, StageMetadata, false},
	{RuleReferenceCountMismatch, StageMetadata, false},
	{RuleProvenancePreviewOnly, StageMetadata, false},
	{RuleProvenanceMaterialized, StageMetadata, false},
	{RulePrivacyTooComplex, StageMetadata, false},
	{RulePrivacyCredential, StageMetadata, false},
	{RulePrivacyAbsolutePath, StageMetadata, false},
	{RulePrivacyFileURL, StageMetadata, false},
	{RulePrivacyExternalLocator, StageMetadata, false},
	{RulePrivacyAgentIdentifier, StageMetadata, false},
	{RulePrivacyCommandLine, StageMetadata, false},
	{RulePrivacyEnvironment, StageMetadata, false},
	{RulePrivacyExecutable, StageMetadata, false},
}

var ruleIndex = func() map[Rule]int {
	m := make(map[Rule]int, len(ruleTable))
	for i, r := range ruleTable {
		m[r.rule] = i
	}
	return m
}()

// Rules returns every rule in the order of the table in the package
// documentation, which is the order of section 8.
func Rules() []Rule {
	out := make([]Rule, len(ruleTable))
	for i, r := range ruleTable {
		out[i] = r.rule
	}
	return out
}

// Stage returns the validation stage the rule belongs to, or 0 for a string
// that is not a rule of this package.
func (r Rule) Stage() Stage {
	i, ok := ruleIndex[r]
	if !ok {
		return 0
	}
	return ruleTable[i].stage
}

// IsWarning reports whether the rule is a production target that warns
// rather than rejects (sections 5 and 6).
func (r Rule) IsWarning() bool {
	i, ok := ruleIndex[r]
	return ok && ruleTable[i].warn
}

// IsTimingWarning reports whether the rule is one of section 5's
// production-target warnings about authored timing (frame count, action
// duration, frame rate). A producer records these in build/validation.json
// timing_warnings and every other warning in warnings.
func (r Rule) IsTimingWarning() bool {
	switch r {
	case RuleFrameCountUnusual, RuleActionDurationLong, RuleFrameRateUnusual:
		return true
	}
	return false
}
