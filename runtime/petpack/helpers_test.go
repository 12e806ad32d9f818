package petpack

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentpet/rules_pet/tools/webpenc"
)

// ---- packages as file lists ----

// pkgFile is one file of a test package; a name ending in / is a directory.
type pkgFile struct {
	name string
	data []byte
}

type pkg []pkgFile

// with returns a copy with name set to data, replacing or appending it.
func (p pkg) with(name string, data []byte) pkg {
	out := append(pkg(nil), p...)
	for i := range out {
		if out[i].name == name {
			out[i].data = data
			return out
		}
	}
	return append(out, pkgFile{name, data})
}

// without returns a copy without the files whose name has the prefix.
func (p pkg) without(prefix string) pkg {
	var out pkg
	for _, f := range p {
		if !strings.HasPrefix(f.name, prefix) {
			out = append(out, f)
		}
	}
	return out
}

func (p pkg) get(name string) []byte {
	for _, f := range p {
		if f.name == name {
			return f.data
		}
	}
	return nil
}

var (
	pngCacheMu sync.Mutex
	pngCache   = map[[3]int][]byte{}
)

// testPNG is a w by h RGBA PNG, transparent but for a disc placed by seed,
// so frames differ from their neighbours.
func testPNG(w, h, seed int) []byte {
	pngCacheMu.Lock()
	defer pngCacheMu.Unlock()
	key := [3]int{w, h, seed}
	if b, ok := pngCache[key]; ok {
		return b
	}
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	cx, cy, r := w/4+(seed*7)%(w/2), h/2, w/5
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r {
				im.SetNRGBA(x, y, color.NRGBA{uint8(200 - seed%50), 120, uint8(seed * 13), 255})
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		panic(err)
	}
	pngCache[key] = b.Bytes()
	return b.Bytes()
}

// tinyPNG is a w by h PNG, transparent but for a square an eighth of the
// larger side wide placed by seed (1.7% of the pixels, over the 1% the
// media gate wants): a valid frame in a few hundred bytes, for fuzz seeds.
func tinyPNG(w, h, seed int) []byte {
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	side := w / 8
	if h > w {
		side = h / 8
	}
	x0, y0 := (seed*5)%(w-side), (seed*3)%(h-side)
	for y := y0; y < y0+side; y++ {
		for x := x0; x < x0+side; x++ {
			im.SetNRGBA(x, y, color.NRGBA{255, 128, 0, 255})
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, im); err != nil {
		panic(err)
	}
	return b.Bytes()
}

var (
	previewOnce  sync.Once
	previewBytes []byte
)

// testPreview is a small valid animated_preview.webp: the recommended
// 384x416 canvas and two 12x13 frames on it, encoded by tools/webpenc (the
// writer's own encoder), so packages stay small and quick to validate.
func testPreview() []byte {
	previewOnce.Do(func() {
		chunks := [][]byte{animHeader(384, 416)}
		for i := 0; i < 2; i++ {
			im := image.NewNRGBA(image.Rect(0, 0, 12, 13))
			for y := 2; y < 10; y++ {
				for x := 2 + i; x < 8+i; x++ {
					im.SetNRGBA(x, y, color.NRGBA{200, 120, 40, 255})
				}
			}
			vp8l, err := webpenc.EncodeVP8L(im)
			if err != nil {
				panic(err)
			}
			chunks = append(chunks, anmfVP8L(100+10*i, 200, 12, 13, vp8l))
		}
		previewBytes = riffWebP(chunks...)
	})
	return previewBytes
}

// ihdrOnly is a file that begins with a valid PNG signature and IHDR chunk
// declaring w by h at the bit depth, followed by nothing a decoder could
// use: enough for the header pre-pass, which must reject it unread.
func ihdrOnly(w, h uint32, depth uint8) []byte {
	b := append([]byte(nil), pngSignature...)
	chunk := make([]byte, 4+13)
	copy(chunk, "IHDR")
	binary.BigEndian.PutUint32(chunk[4:], w)
	binary.BigEndian.PutUint32(chunk[8:], h)
	chunk[12], chunk[13] = depth, 6
	b = binary.BigEndian.AppendUint32(b, 13)
	b = append(b, chunk...)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(chunk))
	return append(b, "IDAT is not here"...)
}

// manifestJSON is the manifest of states at the low tier, as a generic
// value a test can edit before it is encoded.
func manifestValue(states []State) map[string]interface{} {
	var v map[string]interface{}
	m := Manifest{
		SchemaVersion: SchemaVersion,
		ID:            "pet_test01",
		Name:          "Test Cat",
		Style:         "flat pixel art",
		Quality:       QualityLow,
		RenderSize:    Size{192, 208},
		States:        states,
		CreatedAt:     "2025-01-02T03:04:05Z",
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

func encodeJSON(v interface{}) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// packageOf is a complete package for the states: the manifest, one frame
// per duration, previews and the four metadata documents agreeing with
// them (see metadataFor).
func packageOf(states []State) pkg { return packageDrawn(states, testPNG) }

// packageDrawn is packageOf with frames and cover drawn by draw.
func packageDrawn(states []State, draw func(w, h, seed int) []byte) pkg {
	p := pkg{{"manifest.json", encodeJSON(manifestValue(states))}}
	meta := metadataFor(states)
	p = append(p, pkgFile{"brief.json", meta.brief()})
	seed := 0
	for _, s := range states {
		for i := range s.FrameDurationsMS {
			p = append(p, pkgFile{fmt.Sprintf("%s/%04d.png", s.FramesDir, i), draw(192, 208, seed)})
			seed++
		}
	}
	p = append(p,
		pkgFile{"assets/preview/cover.png", draw(384, 416, 0)},
		pkgFile{"assets/preview/animated_preview.webp", testPreview()},
		pkgFile{"source/prompt.md", []byte("A small orange cat.\n")},
		pkgFile{"source/source.json", meta.source()},
		pkgFile{"source/references/", nil},
		pkgFile{"source/skill_session.jsonl", meta.session()},
		pkgFile{"build/validation.json", meta.validation()},
	)
	return p
}

// validPackage is the creation defaults of section 4 (50 frames).
func validPackage() pkg { return packageOf(DefaultStates()) }

// minimalStates is the smallest valid timing: two frames per action.
func minimalStates() []State {
	states := DefaultStates()
	for i := range states {
		s := &states[i]
		s.FrameDurationsMS = []int{200, 300}
		s.ReducedMotionFrameIndex = 1
		if s.Playback.SettleFrameIndex != nil {
			one := 1
			s.Playback.SettleFrameIndex = &one
		}
	}
	return states
}

// withManifest returns p with its manifest edited through the generic value.
func (p pkg) withManifest(edit func(m map[string]interface{})) pkg {
	var m map[string]interface{}
	if err := json.Unmarshal(p.get("manifest.json"), &m); err != nil {
		panic(err)
	}
	edit(m)
	return p.with("manifest.json", encodeJSON(m))
}

// stateOf returns the generic value of the state of action a.
func stateOf(m map[string]interface{}, a Action) map[string]interface{} {
	for _, s := range m["states"].([]interface{}) {
		if st := s.(map[string]interface{}); st["name"] == string(a) {
			return st
		}
	}
	panic("no state " + a)
}

// ---- archives ----

// zipStd writes p with archive/zip as most producers would: deflate with
// data descriptors, directories stored.
func zipStd(t testing.TB, p pkg) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range p {
		fw, err := w.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zent is one entry for buildZip; the zero value of each knob is the
// ordinary choice, and the hooks edit the encoded headers in place.
type zent struct {
	name       string
	data       []byte
	method     uint16
	flags      uint16
	madeBy     uint16 // the creator version, its host in the high byte
	ext        uint32
	descriptor bool
	// comp, when set, is written as the compressed data instead of
	// compressing data (the CRC and size still describe data).
	comp       []byte
	extra      []byte // central extra field
	localExtra []byte
	comment    []byte // central entry comment
	// noLocal writes no local record; the central record names offset.
	noLocal bool
	offset  int
	local   func(h []byte)        // the local header: 30 bytes, name, extra
	central func(h []byte)        // the central record: 46 bytes, name, extra, comment
	desc    func(d []byte) []byte // edits or replaces the 16-byte data descriptor
}

// zspec is a whole archive for buildZip; offsets in the central directory
// are the real positions, wherever prefix and gaps put the records.
type zspec struct {
	entries  []zent
	prefix   []byte
	gapAfter map[int][]byte
	beforeCD []byte
	afterCD  []byte
	comment  []byte
	trailing []byte
	end      func(e []byte) // the 22-byte end record
}

func put16(b []byte, v uint16) { binary.LittleEndian.PutUint16(b, v) }
func put32(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) }

var (
	deflateMu    sync.Mutex
	deflateCache = map[string][]byte{}
)

// deflate compresses data, remembering small results: the fixtures
// compress the same frames hundreds of times.
func deflate(data []byte) []byte {
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

// localOffsets are where buildZip put each local header, for tests that
// aim records at each other.
func buildZip(s zspec) []byte {
	var out bytes.Buffer
	out.Write(s.prefix)
	type rec struct {
		off          int
		crc          uint32
		csize, usize int
	}
	recs := make([]rec, len(s.entries))
	comps := make([][]byte, len(s.entries))
	for i, e := range s.entries {
		comp := e.comp
		if comp == nil {
			comp = e.data
			if e.method == methodDeflate {
				comp = deflate(e.data)
			}
		}
		comps[i] = comp
		recs[i] = rec{off: out.Len(), crc: crc32.ChecksumIEEE(e.data), csize: len(comp), usize: len(e.data)}
		if e.noLocal {
			recs[i].off = e.offset
			continue
		}
		flags := e.flags
		if e.descriptor {
			flags |= flagDescriptor
		}
		h := make([]byte, localLen+len(e.name)+len(e.localExtra))
		put32(h, sigLocal)
		put16(h[4:], 20)
		put16(h[6:], flags)
		put16(h[8:], e.method)
		if !e.descriptor {
			put32(h[14:], recs[i].crc)
			put32(h[18:], uint32(recs[i].csize))
			put32(h[22:], uint32(recs[i].usize))
		}
		put16(h[26:], uint16(len(e.name)))
		put16(h[28:], uint16(len(e.localExtra)))
		copy(h[localLen:], e.name)
		copy(h[localLen+len(e.name):], e.localExtra)
		if e.local != nil {
			e.local(h)
		}
		out.Write(h)
		out.Write(comp)
		if e.descriptor {
			d := make([]byte, 16)
			put32(d, sigDescriptor)
			put32(d[4:], recs[i].crc)
			put32(d[8:], uint32(recs[i].csize))
			put32(d[12:], uint32(recs[i].usize))
			if e.desc != nil {
				d = e.desc(d)
			}
			out.Write(d)
		}
		out.Write(s.gapAfter[i])
	}
	out.Write(s.beforeCD)
	cdOff := out.Len()
	for i, e := range s.entries {
		flags := e.flags
		if e.descriptor {
			flags |= flagDescriptor
		}
		madeBy := e.madeBy
		if madeBy == 0 {
			madeBy = 20
		}
		h := make([]byte, centralLen+len(e.name)+len(e.extra)+len(e.comment))
		put32(h, sigCentral)
		put16(h[4:], madeBy)
		put16(h[6:], 20)
		put16(h[8:], flags)
		put16(h[10:], e.method)
		put32(h[16:], recs[i].crc)
		put32(h[20:], uint32(recs[i].csize))
		put32(h[24:], uint32(recs[i].usize))
		put16(h[28:], uint16(len(e.name)))
		put16(h[30:], uint16(len(e.extra)))
		put16(h[32:], uint16(len(e.comment)))
		put32(h[38:], e.ext)
		put32(h[42:], uint32(recs[i].off))
		copy(h[centralLen:], e.name)
		copy(h[centralLen+len(e.name):], e.extra)
		copy(h[centralLen+len(e.name)+len(e.extra):], e.comment)
		if e.central != nil {
			e.central(h)
		}
		out.Write(h)
	}
	cdSize := out.Len() - cdOff
	out.Write(s.afterCD)
	end := make([]byte, endLen)
	put32(end, sigEnd)
	put16(end[8:], uint16(len(s.entries)))
	put16(end[10:], uint16(len(s.entries)))
	put32(end[12:], uint32(cdSize))
	put32(end[16:], uint32(cdOff))
	put16(end[20:], uint16(len(s.comment)))
	if s.end != nil {
		s.end(end)
	}
	out.Write(end)
	out.Write(s.comment)
	out.Write(s.trailing)
	return out.Bytes()
}

// entriesOf turns a package into buildZip entries: files deflated unless
// stored is set, directories stored.
func entriesOf(p pkg, stored bool) []zent {
	out := make([]zent, len(p))
	for i, f := range p {
		m := uint16(methodDeflate)
		if stored || strings.HasSuffix(f.name, "/") {
			m = methodStore
		}
		out[i] = zent{name: f.name, data: f.data, method: m}
	}
	return out
}

// rawZip is p as a plain archive from buildZip.
func rawZip(p pkg) []byte { return buildZip(zspec{entries: entriesOf(p, false)}) }

// editEntry returns the entries of p with the one named edited.
func editEntry(p pkg, name string, edit func(e *zent)) []zent {
	es := entriesOf(p, false)
	for i := range es {
		if es[i].name == name {
			edit(&es[i])
			return es
		}
	}
	panic("no entry " + name)
}

// ---- verdicts ----

var (
	coveredMu sync.Mutex
	covered   = map[Rule]bool{}
)

// errorRules returns the distinct error rules of v, in verdict order.
func errorRules(v *Verdict) []Rule {
	var out []Rule
	seen := map[Rule]bool{}
	for _, f := range v.Errors {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

// expectRules checks that v's errors are exactly the rules want (each at
// least once, no other), and records them as covered by a fixture.
func expectRules(t *testing.T, v *Verdict, want ...Rule) {
	t.Helper()
	got := errorRules(v)
	a := append([]Rule(nil), got...)
	b := append([]Rule(nil), want...)
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("errors %v, want %v\n%s", got, want, describeVerdict(v))
	}
	coveredMu.Lock()
	for _, r := range want {
		covered[r] = true
	}
	coveredMu.Unlock()
}

// expectWarning checks that v is valid and warns with rule.
func expectWarning(t *testing.T, v *Verdict, rule Rule) {
	t.Helper()
	if !v.OK() {
		t.Fatalf("a warning fixture is rejected:\n%s", describeVerdict(v))
	}
	for _, f := range v.Warnings {
		if f.Rule == rule {
			coveredMu.Lock()
			covered[rule] = true
			coveredMu.Unlock()
			return
		}
	}
	t.Fatalf("no %s warning:\n%s", rule, describeVerdict(v))
}

func describeVerdict(v *Verdict) string {
	var b strings.Builder
	for _, f := range v.Errors {
		b.WriteString("  error   " + f.String() + "\n")
	}
	for _, f := range v.Warnings {
		b.WriteString("  warning " + f.String() + "\n")
	}
	return b.String()
}

func validateBytes(b []byte) *Verdict { return Validate(bytes.NewReader(b), int64(len(b))) }
