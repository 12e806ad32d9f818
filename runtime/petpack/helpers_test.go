package petpack

import (
	"bytes"
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

	"github.com/agentpet/rules_pet/internal/strictzip"
	"github.com/agentpet/rules_pet/internal/strictzip/ziptest"
	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
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
	b := append([]byte(nil), imagecheck.Signature...)
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
		RenderSize:    Size{Width: 192, Height: 208},
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

// entriesOf turns a package into ziptest entries: files deflated unless
// stored is set, directories stored.
func entriesOf(p pkg, stored bool) []ziptest.Entry {
	out := make([]ziptest.Entry, len(p))
	for i, f := range p {
		m := strictzip.Deflate
		if stored || strings.HasSuffix(f.name, "/") {
			m = strictzip.Store
		}
		out[i] = ziptest.Entry{Name: f.name, Data: f.data, Method: m}
	}
	return out
}

// rawZip is p as a plain archive from ziptest.Build.
func rawZip(p pkg) []byte { return ziptest.Build(ziptest.Spec{Entries: entriesOf(p, false)}) }

// zipStd is p as archive/zip writes it.
func zipStd(p pkg) []byte { return ziptest.ArchiveZip(entriesOf(p, false)) }

// editEntry returns the entries of p with the one named edited.
func editEntry(p pkg, name string, edit func(e *ziptest.Entry)) []ziptest.Entry {
	return ziptest.Edit(entriesOf(p, false), name, edit)
}

const extName = "extensions/com.example.test/blob"

// zipBase is the valid package for ziptest's cases to break: each then
// fails at stage 1, or with its content, and nothing else.
func zipBase() ziptest.Base {
	return ziptest.Base{Entries: entriesOf(validPackage(), false), File: briefPath, Dir: "source/references/", Added: extName}
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
