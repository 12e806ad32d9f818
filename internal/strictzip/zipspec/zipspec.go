// Package zipspec holds the numbers of the ZIP format (PKWARE's APPNOTE,
// section 4) that internal/strictzip reads and its test writer
// (internal/strictzip/ziptest) writes, so each is written down once.
package zipspec

// Record signatures.
const (
	SigLocal        = 0x04034b50 // local file header
	SigCentral      = 0x02014b50 // central directory record
	SigEnd          = 0x06054b50 // end of central directory record
	SigEnd64Locator = 0x07064b50 // Zip64 end of central directory locator
	SigEnd64        = 0x06064b50 // Zip64 end of central directory record
	SigDescriptor   = 0x08074b50 // the optional signature of a data descriptor
)

// Fixed record lengths.
const (
	LocalLen   = 30 // local file header, before name and extra field
	CentralLen = 46 // central directory record, before name, extra field and comment
	EndLen     = 22 // end record, before its comment
	End64Len   = 56 // Zip64 end record without extensible data
	LocatorLen = 20 // Zip64 end record locator
)

// General purpose flag bits.
const (
	FlagEncrypted       = 0x0001 // traditional encryption
	FlagDescriptor      = 0x0008 // CRC and sizes follow the data
	FlagStrongEncrypted = 0x0040 // strong encryption
	FlagUTF8            = 0x0800 // name and comment are UTF-8
	FlagMaskedHeaders   = 0x2000 // local header values masked (central directory encryption)
)

// ExtraZip64 is the header ID of the Zip64 extended information extra field.
const ExtraZip64 = 0x0001

// Hosts in the high byte of "version made by" whose external attributes
// hold a Unix mode in their high half.
const (
	CreatorUnix   = 3  // UNIX
	CreatorMacOSX = 19 // OS X (Darwin)
)

// External attribute bits: Unix file types (of the mode in the high half)
// and MS-DOS attributes (in the low byte, for every host).
const (
	UnixTypeMask  = 0xf000 // S_IFMT
	UnixRegular   = 0x8000 // S_IFREG
	UnixDirectory = 0x4000 // S_IFDIR
	UnixSymlink   = 0xa000 // S_IFLNK
	DOSDirectory  = 0x10   // FILE_ATTRIBUTE_DIRECTORY
	DOSReparse    = 0x400  // FILE_ATTRIBUTE_REPARSE_POINT: a Windows symbolic link or junction
)
