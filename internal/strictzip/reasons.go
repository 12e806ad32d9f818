package strictzip

// Reason is the stable identifier of one problem. The strings are the rule
// identifiers runtime/petpack reports for the same problems, which tools
// and apps already match on.
type Reason string

// Reasons Open reports.
const (
	// Unreadable: the archive reports a negative size, or reading it
	// failed (Problem.Err holds the I/O error).
	Unreadable Reason = "package_unreadable"
	// EndMissing: no end-of-central-directory record; not a ZIP archive.
	EndMissing Reason = "zip_end_missing"
	// TrailingData: bytes follow the end record's comment.
	TrailingData Reason = "zip_trailing_data"
	// CommentMismatch: the end record's comment runs past the end of the
	// file.
	CommentMismatch Reason = "zip_comment_mismatch"
	// Zip64Unsupported: a Zip64 record, extra field or placeholder that
	// disagrees with the rest of the archive (the message names Zip64).
	Zip64Unsupported Reason = "zip64_unsupported"
	// MultiDisk: a disk number other than 0, or per-disk and total entry
	// counts that differ.
	MultiDisk Reason = "zip_multi_disk"
	// DirectoryOutOfRange: the central directory lies outside the file or
	// runs past its end record.
	DirectoryOutOfRange Reason = "zip_directory_out_of_range"
	// EntryCountMismatch: the central directory holds more or fewer
	// records than the end record declares.
	EntryCountMismatch Reason = "zip_entry_count_mismatch"
	// DirectoryMalformed: a central record without its signature, or an
	// extra field that does not parse.
	DirectoryMalformed Reason = "zip_directory_malformed"
	// Encrypted: an entry is encrypted or its headers are masked.
	Encrypted Reason = "zip_encrypted"
	// FlagsUnsupported: an entry sets flag bits other than deflate
	// options, data descriptor and UTF-8.
	FlagsUnsupported Reason = "zip_flags_unsupported"
	// MethodUnsupported: an entry is neither stored nor deflated.
	MethodUnsupported Reason = "zip_method_unsupported"
	// StoredSizeMismatch: a stored entry declares different compressed
	// and uncompressed sizes.
	StoredSizeMismatch Reason = "zip_stored_size_mismatch"
	// Symlink: an entry is a symbolic link (Unix or macOS mode, Windows
	// reparse point).
	Symlink Reason = "entry_symlink"
	// SpecialFile: an entry is a device, FIFO, socket or of unknown type.
	SpecialFile Reason = "entry_special_file"
	// TypeMismatch: an entry's mode says file or directory and its name
	// says the other, or a directory holds bytes.
	TypeMismatch Reason = "entry_type_mismatch"
	// LocalHeaderMalformed: no local header signature where the central
	// record points, or a local extra field that does not parse.
	LocalHeaderMalformed Reason = "zip_local_header_malformed"
	// LocalHeaderMismatch: a local header disagrees with its central
	// record on name, flags, method, CRC or sizes.
	LocalHeaderMismatch Reason = "zip_local_header_mismatch"
	// DataDescriptorMismatch: no data descriptor agreeing with the central
	// record follows an entry that announces one.
	DataDescriptorMismatch Reason = "zip_data_descriptor_mismatch"
	// EntryIntoDirectory: a local header or an entry's data runs into the
	// central directory.
	EntryIntoDirectory Reason = "zip_entry_into_directory"
	// PrependedData: bytes precede the first local header (a
	// self-extracting stub, say).
	PrependedData Reason = "zip_prepended_data"
	// EntryOverlap: two entries share bytes.
	EntryOverlap Reason = "zip_entry_overlap"
	// Gap: unaccounted bytes between two entries or around the central
	// directory.
	Gap Reason = "zip_gap"
	// ArchiveTooLarge: the archive is over Limits.MaxArchiveBytes.
	ArchiveTooLarge Reason = "archive_too_large"
	// TooManyEntries: the end record declares more than Limits.MaxEntries.
	TooManyEntries Reason = "too_many_entries"
)

// Reasons reading an entry reports, as a *Problem from the reader
// Entry.Open returns.
const (
	// SizeMismatch: the content is longer or shorter than declared.
	SizeMismatch Reason = "entry_size_mismatch"
	// CRCMismatch: the content's CRC-32 differs from the declared one.
	CRCMismatch Reason = "entry_crc_mismatch"
	// DataCorrupt: the deflate stream is corrupt or does not end exactly
	// at the compressed size.
	DataCorrupt Reason = "entry_data_corrupt"
)

// Reasons returns every reason: Open's, then those of reading an entry.
func Reasons() []Reason {
	return []Reason{
		Unreadable, EndMissing, TrailingData, CommentMismatch, Zip64Unsupported, MultiDisk,
		DirectoryOutOfRange, EntryCountMismatch, DirectoryMalformed, Encrypted, FlagsUnsupported,
		MethodUnsupported, StoredSizeMismatch, Symlink, SpecialFile, TypeMismatch,
		LocalHeaderMalformed, LocalHeaderMismatch, DataDescriptorMismatch, EntryIntoDirectory,
		PrependedData, EntryOverlap, Gap, ArchiveTooLarge, TooManyEntries,
		SizeMismatch, CRCMismatch, DataCorrupt,
	}
}
