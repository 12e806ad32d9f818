// Package strictzip reads untrusted ZIP archives strictly: an archive is
// either read exactly one way, within the caller's limits, or refused with
// every problem found, each with a stable Reason.
//
// Open reads the end record (and the Zip64 end record and locator when
// there are any), applies the archive size and entry count limits before
// any per-entry work or allocation, streams the central directory record
// by record, compares every local header with its central record, and
// requires the entries to tile the bytes before the central directory
// exactly. Entry.Open then returns an entry's content through a bounded
// reader that checks the size, the CRC-32 and the end of the deflate
// stream.
//
// # Accepted
//
//   - One disk, stored (0) or deflate (8) entries, the flag bits for deflate
//     options, data descriptors (with or without their signature) and UTF-8
//     names.
//   - An archive comment, and entry comments and extra fields of any kind
//     that tile their field.
//   - Zip64 records, extra fields and placeholders when every Zip64 value
//     agrees with the rest of the archive: small archives written with
//     Python's force_zip64 or Info-ZIP's zip -fz read like any other.
//   - Regular files and directories, whatever host wrote them.
//
// # Refused
//
// Anything that lets two readers see different files: trailing or
// prepended bytes, a comment length that disagrees with the file, gaps
// between records, entries that overlap (the overlapping-files zip bomb
// points many records at one compressed stream) or run into the central
// directory, a local header that disagrees with its central record on
// name, flags, method, CRC or sizes, a data descriptor that disagrees with
// either, a central directory that holds more or fewer records than the end
// record declares, an inconsistent Zip64 record; and what it cannot read
// safely: encryption, unknown flags, methods other than stored and
// deflate, multi-disk archives, symbolic links (Unix, macOS or Windows
// reparse points), devices, FIFOs and sockets, and entries whose type
// disagrees with their name. Reading an entry refuses content that is
// longer or shorter than declared, a CRC that differs (also when the
// directory says zero), and a deflate stream that is corrupt or does not
// end exactly at the compressed size.
//
// # Why not archive/zip
//
// archive/zip is a fine reader for trusted archives, but not for these:
// it allocates by the declared entry count before a caller could apply a
// budget, reads only a local header's lengths (so a name, size or CRC that
// differs there is seen by one reader and not another), does not look for
// overlapping entries or unaccounted bytes, and skips the CRC check when
// the directory says zero. The fuzz test runs archive/zip over every
// archive this package accepts, as a second opinion: the two must agree on
// names, sizes, methods, offsets and content.
//
// # Reasons
//
// Reasons lists every Reason in the order the checks run. The identifiers
// are those runtime/petpack has always reported for the same problems (its
// rules map onto them one to one), so they never change meaning.
package strictzip
