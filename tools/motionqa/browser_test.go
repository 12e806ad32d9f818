package motionqa

import (
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/testsupport/headless"
)

// reviewPageCheck waits for every image of the page, then decodes each
// animation with the browser's own WebP decoder (WebCodecs ImageDecoder)
// and adds up its frame durations.
const reviewPageCheck = `(async () => {
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.complete ? 0 : new Promise(r => { i.onload = r; i.onerror = r; })));
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
  const anims = [];
  for (const i of document.querySelectorAll('img.anim')) {
    const data = await (await fetch(i.getAttribute('src'))).arrayBuffer();
    const dec = new ImageDecoder({data, type: 'image/webp'});
    await dec.tracks.ready;
    await dec.completed;
    const n = dec.tracks.selectedTrack.frameCount;
    let us = 0;
    for (let k = 0; k < n; k++) {
      const r = await dec.decode({frameIndex: k});
      us += r.image.duration;
      r.image.close();
    }
    anims.push({src: i.getAttribute('src'), frames: n, ms: Math.round(us / 1000), declared: Number(i.dataset.durationMs)});
  }
  return {images: imgs.length, broken, anims};
})()`

// TestReviewPageInChromium loads the sample pet's review page in headless
// Chromium from a server on 127.0.0.1: every image and animation loads,
// the page reports no error, each animation decodes to its declared
// duration, and the presence preview to 8 to 12 s.
func TestReviewPageInChromium(t *testing.T) {
	_, qa, _ := base(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(qa))}
	go srv.Serve(ln)
	defer srv.Close()

	b, err := headless.Launch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page, err := b.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	// Every error the page reports: exceptions, console errors and failed
	// loads (the browser logs a 404 or a decode failure as an error entry).
	var mu sync.Mutex
	var errs []string
	record := func(kind string) func(json.RawMessage) {
		return func(m json.RawMessage) {
			mu.Lock()
			errs = append(errs, kind+": "+string(m))
			mu.Unlock()
		}
	}
	page.On("Runtime.exceptionThrown", record("exception"))
	page.On("Log.entryAdded", func(m json.RawMessage) {
		var e struct {
			Entry struct{ Level string } `json:"entry"`
		}
		if json.Unmarshal(m, &e) == nil && e.Entry.Level == "error" {
			record("log")(m)
		}
	})
	page.On("Runtime.consoleAPICalled", func(m json.RawMessage) {
		var e struct{ Type string }
		if json.Unmarshal(m, &e) == nil && (e.Type == "error" || e.Type == "assert") {
			record("console")(m)
		}
	})
	for _, m := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		if err := page.Call(m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Navigate("http://" + ln.Addr().String() + "/" + IndexHTML); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitFor(`document.readyState === "complete"`, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Images int      `json:"images"`
		Broken []string `json:"broken"`
		Anims  []struct {
			Src        string
			Frames, MS int
			Declared   int
		} `json:"anims"`
	}
	if err := page.Eval(reviewPageCheck, &got); err != nil {
		t.Fatal(err)
	}
	frames := 0
	for _, list := range sampleFixture(t).frames {
		frames += len(list)
	}
	if want := 1 + 1 + 9 + frames; got.Images != want {
		t.Errorf("the page shows %d images; want %d (sheet, presence, 9 previews, %d frames)", got.Images, want, frames)
	}
	if len(got.Broken) > 0 {
		t.Errorf("images that did not load: %v", got.Broken)
	}
	if len(got.Anims) != 10 {
		t.Errorf("%d animations decoded; want 10", len(got.Anims))
	}
	for _, a := range got.Anims {
		if a.MS != a.Declared || a.Frames < 2 {
			t.Errorf("%s: %d frames, %d ms decoded; declared %d ms", a.Src, a.Frames, a.MS, a.Declared)
		}
		if a.Src == PresenceWebP && (a.MS < PresenceMinMS || a.MS > PresenceMaxMS) {
			t.Errorf("the presence preview decodes to %d ms; want 8000 to 12000", a.MS)
		}
		if filepath.Base(a.Src) == filepath.Base(PresenceWebP) {
			t.Logf("presence preview: %d frames, %d ms decoded by Chromium", a.Frames, a.MS)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(errs, "\n"))
	}
}
