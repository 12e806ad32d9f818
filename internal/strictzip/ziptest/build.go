// Package ziptest writes ZIP archives byte by byte (Build) for the tests
// of internal/strictzip and runtime/petpack: honest ones in the shapes real
// producers write (Accepted) and hostile ones that each break one rule
// (Refused, Zip64Refused), made from a base archive the caller chooses.
// Both suites hold their readers against the same archives, and their
// fuzz targets share the comparison with archive/zip (AgreesWithArchiveZip).
package ziptest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"sync"

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/zipspec"
)

// Put16 writes a 2-byte little-endian field.
func Put16(b []byte, v uint16) { binary.LittleEndian.PutUint16(b, v) }

// Put32 writes a 4-byte little-endian field.
func Put32(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) }

// Put64 writes an 8-byte little-endian field.
func Put64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }

// Le16 reads a 2-byte little-endian field.
func Le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }

// Le32 reads a 4-byte little-endian field.
func Le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// Le64 reads an 8-byte little-endian field.
func Le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// Entry is one entry for Build; the zero value of each knob is the
// ordinary choice, and the hooks edit the encoded headers in place.
type Entry struct {
	Name       string
	Data       []byte
	Method     uint16
	Flags      uint16
	MadeBy     uint16 // the creator version, its host (zipspec.Creator*) in the high byte
	Ext        uint32
	Descriptor bool
	// Comp, when set, is written as the compressed data instead of
	// compressing Data (the CRC and size still describe Data).
	Comp       []byte
	Extra      []byte // central extra field
	LocalExtra []byte
	Comment    []byte // central entry comment
	// NoLocal writes no local record; the central record names Offset.
	NoLocal bool
	Offset  int
	Local   func(h []byte)        // the local header: 30 bytes, name, extra
	Central func(h []byte)        // the central record: 46 bytes, name, extra, comment
	Desc    func(d []byte) []byte // edits or replaces the 16-byte data descriptor
}

// Spec is a whole archive for Build; offsets in the central directory are
// the real positions, wherever Prefix and gaps put the records.
type Spec struct {
	Entries  []Entry
	Prefix   []byte
	GapAfter map[int][]byte
	BeforeCD []byte
	AfterCD  []byte
	Comment  []byte
	Trailing []byte
	End      func(e []byte) // the 22-byte end record
}

var (
	deflateMu    sync.Mutex
	deflateCache = map[string][]byte{}
)

// Deflate compresses data, remembering small results: the fixtures
// compress the same frames hundreds of times.
func Deflate(data []byte) []byte {
	if len(data) <= 1<<16 {
		deflateMu.Lock()
		defer deflateMu.Unlock()
		c, ok := deflateCache[string(data)]
		if !ok {
			c = deflateRaw(data)
			deflateCache[string(data)] = c
		}
		return c[:len(c):len(c)] // an append by the caller copies
	}
	return deflateRaw(data)
}

func deflateRaw(data []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// Build writes the archive s describes.
func Build(s Spec) []byte {
	var out bytes.Buffer
	out.Write(s.Prefix)
	type rec struct {
		off          int
		crc          uint32
		csize, usize int
	}
	recs := make([]rec, len(s.Entries))
	for i, e := range s.Entries {
		comp := e.Comp
		if comp == nil {
			comp = e.Data
			if e.Method == strictzip.Deflate {
				comp = Deflate(e.Data)
			}
		}
		recs[i] = rec{off: out.Len(), crc: crc32.ChecksumIEEE(e.Data), csize: len(comp), usize: len(e.Data)}
		if e.NoLocal {
			recs[i].off = e.Offset
			continue
		}
		flags := e.Flags
		if e.Descriptor {
			flags |= zipspec.FlagDescriptor
		}
		h := make([]byte, zipspec.LocalLen+len(e.Name)+len(e.LocalExtra))
		Put32(h, zipspec.SigLocal)
		Put16(h[4:], 20)
		Put16(h[6:], flags)
		Put16(h[8:], e.Method)
		if !e.Descriptor {
			Put32(h[14:], recs[i].crc)
			Put32(h[18:], uint32(recs[i].csize))
			Put32(h[22:], uint32(recs[i].usize))
		}
		Put16(h[26:], uint16(len(e.Name)))
		Put16(h[28:], uint16(len(e.LocalExtra)))
		copy(h[zipspec.LocalLen:], e.Name)
		copy(h[zipspec.LocalLen+len(e.Name):], e.LocalExtra)
		if e.Local != nil {
			e.Local(h)
		}
		out.Write(h)
		out.Write(comp)
		if e.Descriptor {
			d := make([]byte, 16)
			Put32(d, zipspec.SigDescriptor)
			Put32(d[4:], recs[i].crc)
			Put32(d[8:], uint32(recs[i].csize))
			Put32(d[12:], uint32(recs[i].usize))
			if e.Desc != nil {
				d = e.Desc(d)
			}
			out.Write(d)
		}
		out.Write(s.GapAfter[i])
	}
	out.Write(s.BeforeCD)
	cdOff := out.Len()
	for i, e := range s.Entries {
		flags := e.Flags
		if e.Descriptor {
			flags |= zipspec.FlagDescriptor
		}
		madeBy := e.MadeBy
		if madeBy == 0 {
			madeBy = 20
		}
		h := make([]byte, zipspec.CentralLen+len(e.Name)+len(e.Extra)+len(e.Comment))
		Put32(h, zipspec.SigCentral)
		Put16(h[4:], madeBy)
		Put16(h[6:], 20)
		Put16(h[8:], flags)
		Put16(h[10:], e.Method)
		Put32(h[16:], recs[i].crc)
		Put32(h[20:], uint32(recs[i].csize))
		Put32(h[24:], uint32(recs[i].usize))
		Put16(h[28:], uint16(len(e.Name)))
		Put16(h[30:], uint16(len(e.Extra)))
		Put16(h[32:], uint16(len(e.Comment)))
		Put32(h[38:], e.Ext)
		Put32(h[42:], uint32(recs[i].off))
		copy(h[zipspec.CentralLen:], e.Name)
		copy(h[zipspec.CentralLen+len(e.Name):], e.Extra)
		copy(h[zipspec.CentralLen+len(e.Name)+len(e.Extra):], e.Comment)
		if e.Central != nil {
			e.Central(h)
		}
		out.Write(h)
	}
	cdSize := out.Len() - cdOff
	out.Write(s.AfterCD)
	end := make([]byte, zipspec.EndLen)
	Put32(end, zipspec.SigEnd)
	Put16(end[8:], uint16(len(s.Entries)))
	Put16(end[10:], uint16(len(s.Entries)))
	Put32(end[12:], uint32(cdSize))
	Put32(end[16:], uint32(cdOff))
	Put16(end[20:], uint16(len(s.Comment)))
	if s.End != nil {
		s.End(end)
	}
	out.Write(end)
	out.Write(s.Comment)
	out.Write(s.Trailing)
	return out.Bytes()
}

// ArchiveZip writes the entries' names and data with archive/zip, as most
// producers would: deflate with data descriptors, directories stored.
func ArchiveZip(es []Entry) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, e := range es {
		fw, err := w.Create(e.Name)
		if err != nil {
			panic(err) // only a closed writer fails
		}
		fw.Write(e.Data) // a bytes.Buffer does not fail
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Edit returns a copy of es with the entry named name edited.
func Edit(es []Entry, name string, edit func(e *Entry)) []Entry {
	out := append([]Entry(nil), es...)
	for i := range out {
		if out[i].Name == name {
			edit(&out[i])
			return out
		}
	}
	panic("no entry " + name)
}

// Lie makes e declare usize expanded bytes in both headers.
func Lie(e *Entry, usize uint32) {
	e.Local = func(h []byte) { Put32(h[22:], usize) }
	e.Central = func(h []byte) { Put32(h[24:], usize) }
}

// LocalRecord is e's local header and data as Build writes them.
func LocalRecord(e Entry) []byte {
	b := Build(Spec{Entries: []Entry{e}})
	comp := e.Comp
	if comp == nil {
		comp = e.Data
	}
	return b[:zipspec.LocalLen+len(e.Name)+len(e.LocalExtra)+len(comp)]
}
