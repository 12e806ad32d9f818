package petplayer_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/testsupport/headless"
	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/petplayer"
)

// Under Bazel the player directory and petasset come as data; under the go
// tool the test builds both (the WebAssembly with the Go that runs the
// test, and that Go's wasm_exec.js).
var (
	siteFlag     = flag.String("site", "", "the petpack_player directory")
	petassetFlag = flag.String("petasset", "", "the petasset binary")
)

const samplePet = "../../assets/petpack/pet_tabby.petpack.golden"

var (
	buildOnce          sync.Once
	builtSite, builtPA string
	buildErr           error
)

// runfile resolves a $(rootpath) against the runfiles root (a go_test
// runs in its package's directory).
func runfile(p string) string {
	if root, ws := os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"); root != "" && ws != "" && p != "" {
		return filepath.Join(root, ws, p)
	}
	return p
}

func goTool() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

// site returns the player directory and the petasset binary.
func site(t testing.TB) (dir, petasset string) {
	t.Helper()
	if *siteFlag != "" || *petassetFlag != "" {
		dir, petasset = runfile(*siteFlag), runfile(*petassetFlag)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || *petassetFlag == "" {
			t.Fatalf("-site %q is not a directory, or -petasset %q is missing", dir, petasset)
		}
		return dir, petasset
	}
	buildOnce.Do(func() { builtSite, builtPA, buildErr = buildSite() })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtSite, builtPA
}

func buildSite() (string, string, error) {
	out, err := os.MkdirTemp("", "petplayer-test-")
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(out, "player")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", "", err
	}
	run := func(env []string, args ...string) error {
		cmd := exec.Command(goTool(), args...)
		cmd.Env = append(os.Environ(), env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return nil
	}
	if err := run([]string{"GOOS=js", "GOARCH=wasm"}, "build", "-o", filepath.Join(dir, "player.wasm"), "./playerwasm"); err != nil {
		return "", "", err
	}
	pa := filepath.Join(out, "petasset")
	if err := run(nil, "build", "-o", pa, "../cmd/petasset"); err != nil {
		return "", "", err
	}
	copyFile := func(src, dst string) error {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, dst), b, 0o644)
	}
	var execJS error = fmt.Errorf("no wasm_exec.js under %s", runtime.GOROOT())
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(runtime.GOROOT(), p)); err == nil {
			execJS = copyFile(filepath.Join(runtime.GOROOT(), p), "wasm_exec.js")
			break
		}
	}
	if execJS != nil {
		return "", "", execJS
	}
	for _, f := range []string{"index.html", "player.js", "player.css"} {
		if err := copyFile(f, f); err != nil {
			return "", "", err
		}
	}
	if err := copyFile(samplePet, "pet.petpack"); err != nil {
		return "", "", err
	}
	return dir, pa, nil
}

// frames decodes every frame of the player's archive.
func frames(t testing.TB, archive string) map[string][]*image.NRGBA {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	byDir := map[string][]*zip.File{}
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "assets/frames/") && strings.HasSuffix(f.Name, ".png") {
			byDir[path.Dir(f.Name)] = append(byDir[path.Dir(f.Name)], f)
		}
	}
	out := map[string][]*image.NRGBA{}
	for d, fs := range byDir {
		sort.Slice(fs, func(i, j int) bool { return petpack.NaturalLess(path.Base(fs[i].Name), path.Base(fs[j].Name)) })
		for _, f := range fs {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(r)
			r.Close()
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			n := image.NewNRGBA(img.Bounds())
			draw.Draw(n, n.Bounds(), img, img.Bounds().Min, draw.Src)
			out[path.Base(d)] = append(out[path.Base(d)], n)
		}
	}
	return out
}

// step is one script line, as the test plays it.
type step struct {
	T            int64   `json:"t_ms"`
	Event        *string `json:"event,omitempty"`
	Pointer      *string `json:"pointer,omitempty"`
	Bubble       *bool   `json:"bubble,omitempty"`
	ReduceMotion *bool   `json:"reduce_motion,omitempty"`
	StallMS      *int64  `json:"stall_ms,omitempty"`
	End          *bool   `json:"end,omitempty"`
}

type traceLine struct {
	T      int64   `json:"t_ms"`
	Action string  `json:"action"`
	Frame  int     `json:"frame"`
	Scale  float64 `json:"scale"`
}

func str(s string) *string { return &s }
func yes(b bool) *bool     { return &b }
func num(n int64) *int64   { return &n }

// browserScript covers every kind of line, with pointer input a mouse can
// make: a press held and released (down, then up and click at one
// instant), and a press that becomes a drag both ways and ends.
var browserScript = []step{
	{T: 0, Event: str("start")},
	{T: 700, Pointer: str("down")},
	{T: 900, Pointer: str("up")},
	{T: 900, Pointer: str("click")}, // idle: acknowledge, press-scale eases out until 1060
	{T: 2000, Event: str("thinking")},
	{T: 2300, Pointer: str("down")},
	{T: 2400, Pointer: str("drag_left")},
	{T: 2750, Pointer: str("drag_right")},
	{T: 3100, Pointer: str("drag_end")},
	{T: 4500, StallMS: num(1200)}, // idle frames 3 and 4 are never shown, 5 shows at 5700
	{T: 6100, Event: str("waiting")},
	{T: 7000, Bubble: yes(true)},
	{T: 7100, Pointer: str("down")}, // bubble content shown: no press-scale
	{T: 7200, Pointer: str("up")},
	{T: 7200, Pointer: str("click")}, // not idle: no acknowledge
	{T: 7300, Bubble: yes(false)},
	{T: 9800, Event: str("plan")},
	{T: 10000, ReduceMotion: yes(true)},
	{T: 10100, Pointer: str("down")},
	{T: 10200, Pointer: str("drag_right")},
	{T: 10500, Pointer: str("drag_end")},
	{T: 12500, ReduceMotion: yes(false)},
	{T: 13000, Event: str("done")},
	{T: 24000, End: yes(true)}, // after done, idle cooldowns the seed draws
}

func writeScript(t testing.TB, steps []step) string {
	t.Helper()
	var b bytes.Buffer
	for _, s := range steps {
		j, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	p := filepath.Join(t.TempDir(), "script.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func traceOf(t testing.TB, petasset, archive, script string, seed int) []traceLine {
	t.Helper()
	// Runfiles are symbolic links, which a .petpack path may not be.
	archive, err := filepath.EvalSymlinks(archive)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(petasset, "petpack", "play", archive, "--script", script, "--seed", strconv.Itoa(seed)).Output()
	if err != nil {
		t.Fatalf("petasset petpack play: %v", err)
	}
	var lines []traceLine
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var tl traceLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		lines = append(lines, tl)
	}
	return lines
}

// session is a browser with the player loaded.
type session struct {
	t        testing.TB
	page     *headless.Page
	origin   string
	mu       sync.Mutex
	requests []string
	errors   []string
	cx, cy   float64
	x        float64
}

// open loads the player under the test clock.
func open(t testing.TB, b *headless.Browser, origin string, seed int) *session {
	t.Helper()
	return openQuery(t, b, origin, fmt.Sprintf("clock=test&seed=%d", seed), "")
}

// openQuery loads the player with the query string, after installing
// before, when not empty, as a script that runs before the page's own.
func openQuery(t testing.TB, b *headless.Browser, origin, query, before string) *session {
	t.Helper()
	p, err := b.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, page: p, origin: origin}
	p.On("Network.requestWillBeSent", func(m json.RawMessage) {
		var e struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		_ = json.Unmarshal(m, &e)
		s.mu.Lock()
		s.requests = append(s.requests, e.Request.URL)
		s.mu.Unlock()
	})
	p.On("Runtime.exceptionThrown", func(m json.RawMessage) {
		s.mu.Lock()
		s.errors = append(s.errors, string(m))
		s.mu.Unlock()
	})
	for _, c := range []struct {
		method string
		params interface{}
	}{
		{"Network.enable", nil},
		{"Runtime.enable", nil},
		{"Page.enable", nil},
		{"Emulation.setDeviceMetricsOverride", map[string]interface{}{"width": 1000, "height": 900, "deviceScaleFactor": 1, "mobile": false}},
	} {
		if err := p.Call(c.method, c.params, nil); err != nil {
			t.Fatal(err)
		}
	}
	if before != "" {
		if err := p.Call("Page.addScriptToEvaluateOnNewDocument", map[string]interface{}{"source": before}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Navigate(fmt.Sprintf("%s/?%s", origin, query)); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitFor(`document.body && document.body.dataset.state === 'ready'`, 60*time.Second); err != nil {
		var status string
		_ = p.Eval(`document.getElementById('status').textContent`, &status)
		t.Fatalf("%v (status %q, errors %v)", err, status, s.errors)
	}
	var rect struct{ X, Y, W, H float64 }
	s.eval(`(() => { const r = document.getElementById('pet').getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &rect)
	s.cx, s.cy = rect.X+rect.W/2, rect.Y+rect.H/2
	return s
}

func (s *session) eval(expr string, out interface{}) {
	s.t.Helper()
	if err := s.page.Eval(expr, out); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) mouse(typ string) {
	s.t.Helper()
	if err := s.page.Mouse(typ, s.x, s.cy); err != nil {
		s.t.Fatal(err)
	}
}

// play performs one script step at the page's current time.
func (s *session) play(st step, pointerHeld *bool) {
	s.t.Helper()
	switch {
	case st.Event != nil:
		s.eval(fmt.Sprintf(`document.getElementById('ev-%s').click()`, *st.Event), nil)
	case st.Bubble != nil:
		s.eval(fmt.Sprintf(`(() => { const c = document.getElementById('bubble'); if (c.checked !== %v) c.click(); })()`, *st.Bubble), nil)
	case st.ReduceMotion != nil:
		s.eval(fmt.Sprintf(`(() => { const c = document.getElementById('reduce-motion'); if (c.checked !== %v) c.click(); })()`, *st.ReduceMotion), nil)
	case st.StallMS != nil:
		s.eval(fmt.Sprintf(`petTest.stall(%d)`, *st.StallMS), nil)
	case st.Pointer != nil:
		switch *st.Pointer {
		case "down":
			s.x = s.cx
			s.mouse("mousePressed")
			*pointerHeld = true
		case "up", "drag_end":
			s.mouse("mouseReleased")
			*pointerHeld = false
		case "click":
			// The release before it made the page's up and click.
		case "drag_left":
			s.x -= 30
			s.mouse("mouseMoved")
		case "drag_right":
			s.x += 30
			s.mouse("mouseMoved")
		}
	}
}

type shown struct {
	Shown     string  `json:"shown"`
	Transform string  `json:"transform"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	DPR       float64 `json:"dpr"`
}

// comparePixels checks the canvas against the frame's decoded PNG. Alpha
// must match exactly; the canvas keeps colour premultiplied in 8 bits, so
// a colour may be off by the rounding that alpha implies.
func comparePixels(got []byte, want *image.NRGBA) (bad int, first string) {
	for i := 0; i+3 < len(want.Pix); i += 4 {
		wa := int(want.Pix[i+3])
		ga := int(got[i+3])
		ok := ga == wa
		if ok && wa != 0 {
			tol := 255/wa + 1
			for c := 0; c < 3; c++ {
				d := int(got[i+c]) - int(want.Pix[i+c])
				if d < -tol || d > tol {
					ok = false
				}
			}
		}
		if !ok {
			if bad == 0 {
				p := i / 4
				first = fmt.Sprintf("pixel (%d,%d): got %v, want %v", p%want.Rect.Dx(), p/want.Rect.Dx(), got[i:i+4], want.Pix[i:i+4])
			}
			bad++
		}
	}
	return bad, first
}

// TestPlayerMatchesTrace loads the player in headless Chromium under the
// test clock, plays a script with real mouse input, and checks at every
// step, every traced change and between changes that the canvas pixels are
// the traced frame's decoded PNG and that the press-scale transform is
// the traced one; then that no request left the player's directory and the
// content security policy blocks one that tries.
func TestPlayerMatchesTrace(t *testing.T) {
	dir, petasset := site(t)
	archive := filepath.Join(dir, "pet.petpack")
	want := frames(t, archive)
	srv := httptest.NewServer(petplayer.Handler(dir))
	defer srv.Close()
	b, err := headless.Launch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	for _, seed := range []int{1, 7} {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			trace := traceOf(t, petasset, archive, writeScript(t, browserScript), seed)
			s := open(t, b, srv.URL, seed)
			defer s.page.Close()
			var st shown
			s.eval(`petTest.state()`, &st)
			if st.DPR != 1 || st.Width != 192 || st.Height != 208 {
				t.Fatalf("page state %+v: want device pixel ratio 1 and the 192x208 canvas", st)
			}
			var cssWidth float64
			s.eval(`document.getElementById('pet').getBoundingClientRect().width`, &cssWidth)
			if cssWidth != 192 {
				t.Fatalf("canvas shows %v px wide, want its native 192", cssWidth)
			}
			checked := replay(t, s, browserScript, trace, want)
			t.Logf("seed %d: %d trace lines, %d canvas checks", seed, len(trace), checked)

			s.mu.Lock()
			reqs, errs := append([]string(nil), s.requests...), s.errors
			s.mu.Unlock()
			if len(errs) != 0 {
				t.Fatalf("page exceptions: %v", errs)
			}
			for _, r := range reqs {
				rest := strings.TrimPrefix(r, srv.URL+"/")
				if rest == r || strings.Contains(strings.SplitN(rest, "?", 2)[0], "/") {
					t.Errorf("request outside the player's directory: %s", r)
				}
			}
			if len(reqs) < 6 { // page, wasm_exec.js, player.js, player.css, player.wasm, pet.petpack
				t.Errorf("only %d requests seen: %v", len(reqs), reqs)
			}
			var violated string
			s.eval(`new Promise((resolve) => {
				document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
				fetch('http://127.0.0.1:9/outside').catch(() => {});
			})`, &violated)
			if violated != "connect-src" {
				t.Errorf("a fetch outside the directory violated %q, want connect-src", violated)
			}
		})
	}
}

// replay plays steps on the page under the test clock and checks, at every
// step, every traced change and the middle of every interval between two
// (nothing may change there), that the page shows the traced frame with
// the traced press-scale transform and that the canvas pixels are that
// frame's decoded PNG. It returns the number of canvas checks.
func replay(t *testing.T, s *session, steps []step, trace []traceLine, want map[string][]*image.NRGBA) int {
	t.Helper()
	var st shown
	// Check times: every step, every line, and the middle of every
	// interval between two lines (nothing may change there).
	times := map[int64]bool{}
	for _, x := range steps {
		times[x.T] = true
	}
	for i, l := range trace {
		times[l.T] = true
		if i+1 < len(trace) {
			times[(l.T+trace[i+1].T)/2] = true
		}
	}
	var order []int64
	for x := range times {
		order = append(order, x)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	next, held, checked := 0, false, 0
	for _, x := range order {
		for next < len(steps) && steps[next].T <= x {
			s.eval(fmt.Sprintf(`petTest.advance(%d)`, steps[next].T), nil)
			s.play(steps[next], &held)
			next++
		}
		s.eval(fmt.Sprintf(`petTest.advance(%d)`, x), nil)
		k := sort.Search(len(trace), func(i int) bool { return trace[i].T > x }) - 1
		l := trace[k]
		s.eval(`petTest.state()`, &st)
		if w := fmt.Sprintf("%s %d %g", l.Action, l.Frame, l.Scale); st.Shown != w {
			t.Fatalf("t=%d: the page shows %q, the trace %q", x, st.Shown, w)
		}
		wantTransform := ""
		if l.Scale != 1 && held {
			wantTransform = fmt.Sprintf("scale(%g)", l.Scale)
		}
		if st.Transform != wantTransform {
			t.Fatalf("t=%d: transform %q, want %q", x, st.Transform, wantTransform)
		}
		var b64 string
		s.eval(`petTest.pixels()`, &b64)
		px, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		f := want[l.Action][l.Frame]
		if len(px) != len(f.Pix) {
			t.Fatalf("t=%d: %d canvas bytes, want %d", x, len(px), len(f.Pix))
		}
		if bad, first := comparePixels(px, f); bad != 0 {
			t.Fatalf("t=%d: the canvas is not %s frame %d: %d pixels differ, first %s", x, l.Action, l.Frame, bad, first)
		}
		checked++
	}
	return checked
}

// TestPlayerRealClock loads the player as users run it, on the wall clock
// (no ?clock=test), and records every frame the page shows from a script
// installed before the page's own, with what the page published for it:
// its own clock reading when it drew the frame, and the boundary and delay
// of the one wake-up it then armed. Under the test clock the page's timer
// is never set, so only this test notices a page that never schedules its
// wake-up and freezes on its first frame.
//
// What it asserts does not depend on how busy the machine is: each frame
// is the one the runtime's trace has due at the page's clock reading (a
// late timer may skip a frame, never show one early, out of order or
// wrong); each wake-up is armed for exactly the trace's next boundary and
// no later; nothing shows before its boundary on the wall clock; and the
// last traced frame (idle's rest) does show. How late the wake-ups fired is
// the machine's, so it is reported and bounded only loosely
// (realClockLate).
func TestPlayerRealClock(t *testing.T) {
	dir, petasset := site(t)
	archive := filepath.Join(dir, "pet.petpack")
	srv := httptest.NewServer(petplayer.Handler(dir))
	defer srv.Close()
	b, err := headless.Launch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	// Idle plays once from t=0 and then rests on its reduced-motion frame
	// for a cooldown of at least 2500 ms: the window holds idle's whole
	// first play and no second one.
	const window = 2400
	trace := traceOf(t, petasset, archive, writeScript(t, []step{{T: 0, Event: str("start")}, {T: window, End: yes(true)}}), 1)
	if len(trace) < 4 {
		t.Fatalf("the trace of idle's first %d ms has %d lines: %v", window, len(trace), trace)
	}
	text := func(l traceLine) string { return fmt.Sprintf("%s %d %g", l.Action, l.Frame, l.Scale) }
	recorder := `window.petShown = [];
document.addEventListener('DOMContentLoaded', () => {
  const c = document.getElementById('pet');
  new MutationObserver(() => window.petShown.push([performance.now(), c.dataset.shown,
      Number(c.dataset.shownAtMs), Number(c.dataset.nextMs), Number(c.dataset.delayMs)]))
    .observe(c, { attributes: true, attributeFilter: ['data-shown'] });
});`
	s := openQuery(t, b, srv.URL, "seed=1", recorder)
	defer s.page.Close()
	var testClock bool
	s.eval(`typeof window.petTest !== 'undefined'`, &testClock)
	if testClock {
		t.Fatal("the page runs the test clock without ?clock=test")
	}
	// Wait for a frame drawn at or after the last traced boundary (idle's
	// rest); the bound is for a page that never wakes, a slow one gets
	// there.
	last := trace[len(trace)-1]
	if err := s.page.WaitFor(fmt.Sprintf(`window.petShown.some((r) => r[2] >= %d)`, last.T), 60*time.Second); err != nil {
		var shown interface{}
		s.eval(`window.petShown`, &shown)
		t.Fatalf("the page never showed %s, the last traced frame (at %d ms): %v\nshown: %v\ntrace: %v", text(last), last.T, err, shown, trace)
	}
	var raw [][5]interface{}
	s.eval(`window.petShown`, &raw)
	type record struct {
		wall, at, next, delay float64
		shown                 string
	}
	var got []record
	for _, r := range raw {
		var rec record
		rec.wall, _ = r[0].(float64)
		rec.shown, _ = r[1].(string)
		rec.at, _ = r[2].(float64)
		rec.next, _ = r[3].(float64)
		rec.delay, _ = r[4].(float64)
		got = append(got, rec)
	}
	// Wall times count from the origin the page's clock reads from, not
	// from the first record: drawing the first frame can itself take tens
	// of milliseconds on a loaded machine.
	var origin string
	s.eval(`document.body.dataset.clockOriginMs`, &origin)
	t0, err := strconv.ParseFloat(origin, 64)
	if err != nil {
		t.Fatalf("the page published no clock origin (%q): %v", origin, err)
	}
	var report []string
	prev, armed, worst := -1, -1.0, 0.0
	for _, r := range got {
		wall := r.wall - t0
		report = append(report, fmt.Sprintf("%q at clock %.0f (wall %.0f) armed %.0f", r.shown, r.at, wall, r.next))
		// The trace line due at the page's clock reading: the last one at
		// or before it.
		k := -1
		for k+1 < len(trace) && float64(trace[k+1].T) <= r.at {
			k++
		}
		if k < 0 || text(trace[k]) != r.shown || k <= prev {
			t.Fatalf("the page showed %q at its clock %.0f ms; the trace has %v due then (after line %d)\nshown: %v\ntrace: %v", r.shown, r.at, trace[max0(k)], prev, report, trace)
		}
		// Never early on the wall clock either (the clock floors the
		// time since its origin; performance.now's two readings may round
		// apart by realClockEarly).
		if due := float64(trace[k].T); wall < due-realClockEarly {
			t.Fatalf("the page showed %q at %.0f ms on the wall clock, before its boundary %d ms\nshown: %v", r.shown, wall, trace[k].T, report)
		}
		// The wake-up armed next is the trace's next boundary exactly
		// (past the window: idle's cooldown, after its rest), and its
		// delay reaches no later than that boundary.
		if k+1 < len(trace) && r.next != float64(trace[k+1].T) || k+1 == len(trace) && r.next <= window {
			t.Fatalf("after %q at %.0f ms the page armed its wake-up for %.0f ms; the trace's next boundary is %v\nshown: %v\ntrace: %v", r.shown, r.at, r.next, trace[minInt(k+1, len(trace)-1)], report, trace)
		}
		if r.delay < 0 || r.at+r.delay > r.next {
			t.Fatalf("after %q at %.0f ms the page armed a %.0f ms delay for the boundary at %.0f ms\nshown: %v", r.shown, r.at, r.delay, r.next, report)
		}
		// How late the wake-up the previous frame armed came: the machine's.
		if armed >= 0 {
			late := r.at - armed
			if late > worst {
				worst = late
			}
			if late > realClockLate {
				t.Fatalf("the page woke %.0f ms after the boundary it armed (%.0f ms), more than %d ms\nshown: %v", late, armed, realClockLate, report)
			}
		}
		prev, armed = k, r.next
		if k == len(trace)-1 {
			break
		}
	}
	if prev != len(trace)-1 {
		t.Fatalf("the page never showed the last traced frame %v\nshown: %v", last, report)
	}
	t.Logf("shown on the wall clock (worst wake-up lateness %.0f ms): %v", worst, report)
}

func max0(k int) int {
	if k < 0 {
		return 0
	}
	return k
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// realClockLate bounds how late, on the page's clock, a frame may show
// after the boundary the page armed its wake-up for. The assertions above
// already hold the page to the right frames and the right wake-ups
// whatever the load, so this bound is loose on purpose: it turns away only
// a page whose timers do not fire when armed (throttled or stalled), not
// a busy machine. With two busy loops on a two-core machine (load
// average 7-11, 12 runs) the worst wake-up was 96 ms late on the page's
// clock; the wall-clock time of the drawn frame, which the old 250 ms
// bound was held against (issue 30's flake), was up to 239 ms late there.
// realClockEarly is how early a frame may seem on the wall clock: none,
// since the page's clock floors the time since its origin, but the two
// readings of performance.now may round apart.
const (
	realClockLate  = 2000
	realClockEarly = 1
)

// reduceMotionScript drives every state and interaction a mouse can make
// under Reduce Motion on the Reduce Motion pet.
var reduceMotionScript = []step{
	{T: 0, Event: str("start")},
	{T: 0, ReduceMotion: yes(true)},
	{T: 100, Pointer: str("down")},
	{T: 200, Pointer: str("up")},
	{T: 200, Pointer: str("click")}, // no acknowledge, no press-scale
	{T: 400, Pointer: str("down")},
	{T: 500, Pointer: str("drag_left")},
	{T: 900, Pointer: str("drag_right")},
	{T: 1300, Pointer: str("drag_end")},
	{T: 1500, Event: str("thinking")}, // 3 x 600 ms active
	{T: 3500, Event: str("tool")},     // 3 x 800 ms active
	{T: 3700, Pointer: str("down")},
	{T: 3800, Pointer: str("drag_right")},
	{T: 4000, Pointer: str("drag_end")},
	{T: 6000, Event: str("done")}, // 3 x 650 ms active
	{T: 8000, Event: str("waiting")},
	{T: 8500, Pointer: str("down")},
	{T: 8600, Pointer: str("drag_left")},
	{T: 8800, Pointer: str("drag_end")},
	{T: 9000, Event: str("failed")},
	{T: 10000, Event: str("plan")},
	{T: 12000, Event: str("start")},
	{T: 12500, Pointer: str("down")},
	{T: 12600, Pointer: str("drag_right")},
	{T: 12700, Pointer: str("drag_left")},
	{T: 12900, Pointer: str("drag_end")},
	{T: 13000, End: yes(true)},
}

// reduceMotionWant is what reduceMotionScript must show, written from the
// contract rather than taken from the runtime: each action its own
// representative frame (idle 8, thinking 0, tool 1, done 2, drag_left 4,
// drag_right 5, waiting 6, failed 7), a finite action idle's after its
// active duration, no acknowledge (3) and no press-scale.
var reduceMotionWant = []string{
	"0 idle 8",
	"500 drag_left 4", "900 drag_right 5", "1300 idle 8",
	"1500 thinking 0", "3300 idle 8",
	"3500 tool 1", "3800 drag_right 5", "4000 tool 1", "5900 idle 8",
	"6000 done 2", "7950 idle 8",
	"8000 waiting 6", "8600 drag_left 4", "8800 waiting 6",
	"9000 failed 7",
	"10000 thinking 0", "11800 idle 8",
	"12600 drag_right 5", "12700 drag_left 4", "12900 idle 8",
}

// TestPlayerReduceMotion plays reduceMotionScript in the browser on the
// Reduce Motion pet (internal/testsupport/petpacktest), whose nine actions each have
// their own reduced_motion_frame_index, and checks the trace against
// reduceMotionWant and the canvas against the trace at every step and
// change: a drag showing idle's representative frame, or the page drawing
// another action's, fails here although it would pass on the sample pet.
func TestPlayerReduceMotion(t *testing.T) {
	dir, petasset := site(t)
	// A player directory of its own, holding the Reduce Motion pet.
	rmDir := filepath.Join(t.TempDir(), "player")
	if err := os.Mkdir(rmDir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "pet.petpack" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rmDir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	archive := filepath.Join(rmDir, "pet.petpack")
	petpacktest.ReduceMotionPet(t, archive)
	want := frames(t, archive)

	trace := traceOf(t, petasset, archive, writeScript(t, reduceMotionScript), 1)
	var got []string
	for _, l := range trace {
		got = append(got, fmt.Sprintf("%d %s %d", l.T, l.Action, l.Frame))
		if l.Scale != 1 {
			t.Errorf("t=%d: press-scale %g under Reduce Motion", l.T, l.Scale)
		}
	}
	if strings.Join(got, "\n") != strings.Join(reduceMotionWant, "\n") {
		t.Fatalf("the trace under Reduce Motion:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(reduceMotionWant, "\n"))
	}

	srv := httptest.NewServer(petplayer.Handler(rmDir))
	defer srv.Close()
	b, err := headless.Launch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := open(t, b, srv.URL, 1)
	defer s.page.Close()
	checked := replay(t, s, reduceMotionScript, trace, want)
	s.mu.Lock()
	errs := s.errors
	s.mu.Unlock()
	if len(errs) != 0 {
		t.Fatalf("page exceptions: %v", errs)
	}
	t.Logf("%d trace lines, %d canvas checks", len(trace), checked)
}

// BenchmarkPlayer reports the WebAssembly module's size and the time from
// navigation to the first frame drawn in headless Chromium.
func BenchmarkPlayer(b *testing.B) {
	dir, _ := site(b)
	fi, err := os.Stat(filepath.Join(dir, "player.wasm"))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(petplayer.Handler(dir))
	defer srv.Close()
	br, err := headless.Launch(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	// Milliseconds from navigation to: the runtime started, the archive
	// validated (in WebAssembly), the first frame drawn.
	var wasm, valid, first float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := open(b, br, srv.URL, 1)
		var ms []string
		s.eval(`[document.body.dataset.wasmReadyMs, document.body.dataset.validatedMs, document.body.dataset.firstFrameMs]`, &ms)
		for j, acc := range []*float64{&wasm, &valid, &first} {
			v, err := strconv.ParseFloat(ms[j], 64)
			if err != nil {
				b.Fatal(err)
			}
			*acc += v
		}
		s.page.Close()
	}
	n := float64(b.N)
	b.ReportMetric(float64(fi.Size()), "wasm-bytes")
	b.ReportMetric(wasm/n, "ms-to-runtime")
	b.ReportMetric(valid/n, "ms-to-validated")
	b.ReportMetric(first/n, "ms-to-first-frame")
}
