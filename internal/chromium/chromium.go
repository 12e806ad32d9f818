// Package chromium starts headless Chromium (Debian's `chromium`) for a test
// and drives it over the DevTools protocol on 127.0.0.1: open a page, wait
// for it to load, evaluate JavaScript, and collect every error the page
// reports (exceptions, console errors, failed loads). The set-up
// (tools/bazel/setup.sh) installs the browser; a test that needs it fails,
// rather than skips, when it is missing.
package chromium

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Binary is the browser: $CHROMIUM, else /usr/bin/chromium.
func Binary() string {
	if b := os.Getenv("CHROMIUM"); b != "" {
		return b
	}
	return "/usr/bin/chromium"
}

// Browser is a running headless Chromium.
type Browser struct {
	cmd  *exec.Cmd
	port string
}

// Start launches the browser with a fresh profile; it is killed when the
// test ends.
func Start(t testing.TB) *Browser {
	t.Helper()
	bin := Binary()
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("headless Chromium is not installed at %s (tools/bazel/setup.sh installs Debian's chromium): %v", bin, err)
	}
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--user-data-dir="+profile, "about:blank")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir)
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &Browser{cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// Chromium writes the port it chose to DevToolsActivePort once the
	// DevTools server listens.
	portFile := filepath.Join(profile, "DevToolsActivePort")
	for i := 0; i < 600; i++ {
		if data, err := os.ReadFile(portFile); err == nil {
			if lines := strings.SplitN(string(data), "\n", 2); len(lines) == 2 && lines[0] != "" {
				b.port = strings.TrimSpace(lines[0])
				return b
			}
		}
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("Chromium did not open its DevTools port: %s", stderr.String())
	return nil
}

type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := len(p)
		if k > l.n {
			k = l.n
		}
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// Page is one browser tab.
type Page struct {
	ws     *wsConn
	mu     sync.Mutex
	nextID int
	wait   map[int]chan reply
	events chan event
	errs   []string
	loaded chan struct{}
	done   chan struct{}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type event struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// NewPage opens a tab and starts collecting its errors.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, "http://127.0.0.1:"+b.port+"/json/new?about:blank", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var target struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&target); err != nil || target.WebSocketDebuggerURL == "" {
		t.Fatalf("DevTools /json/new: %v (%s)", err, resp.Status)
	}
	ws, err := dialWS(target.WebSocketDebuggerURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &Page{ws: ws, wait: map[int]chan reply{}, loaded: make(chan struct{}, 16), done: make(chan struct{})}
	go p.readLoop()
	t.Cleanup(func() { ws.close() })
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if _, err := p.Call(m, nil); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func (p *Page) readLoop() {
	defer close(p.done)
	for {
		msg, err := p.ws.readMessage()
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			reply
			event
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		if m.ID != 0 {
			p.mu.Lock()
			ch := p.wait[m.ID]
			delete(p.wait, m.ID)
			p.mu.Unlock()
			if ch != nil {
				ch <- m.reply
			}
			continue
		}
		p.onEvent(m.event)
	}
}

func (p *Page) onEvent(e event) {
	switch e.Method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Runtime.exceptionThrown":
		var v struct {
			Details struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(e.Params, &v)
		p.addErr("exception: " + v.Details.Text + " " + v.Details.Exception.Description)
	case "Runtime.consoleAPICalled":
		var v struct {
			Type string            `json:"type"`
			Args []json.RawMessage `json:"args"`
		}
		json.Unmarshal(e.Params, &v)
		if v.Type == "error" || v.Type == "assert" {
			p.addErr(fmt.Sprintf("console.%s: %s", v.Type, v.Args))
		}
	case "Log.entryAdded":
		var v struct {
			Entry struct {
				Level, Source, Text, URL string
			} `json:"entry"`
		}
		json.Unmarshal(e.Params, &v)
		if v.Entry.Level == "error" {
			p.addErr(fmt.Sprintf("%s error: %s %s", v.Entry.Source, v.Entry.Text, v.Entry.URL))
		}
	}
}

func (p *Page) addErr(s string) {
	p.mu.Lock()
	p.errs = append(p.errs, s)
	p.mu.Unlock()
}

// Errors returns every error the page reported so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Call sends one DevTools command and waits for its reply.
func (p *Page) Call(method string, params interface{}) (json.RawMessage, error) {
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	ch := make(chan reply, 1)
	p.wait[id] = ch
	p.mu.Unlock()
	msg, err := json.Marshal(map[string]interface{}{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if err := p.ws.write(0x1, msg); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		return r.Result, nil
	case <-p.done:
		return nil, fmt.Errorf("%s: the DevTools connection closed", method)
	case <-time.After(2 * time.Minute):
		return nil, fmt.Errorf("%s: no reply in 2 minutes", method)
	}
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(url string) error {
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	if _, err := p.Call("Page.navigate", map[string]string{"url": url}); err != nil {
		return err
	}
	select {
	case <-p.loaded:
		return nil
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("%s did not load in 2 minutes", url)
	}
}

// Eval evaluates a JavaScript expression (a promise is awaited) and decodes
// its JSON value into out.
func (p *Page) Eval(expr string, out interface{}) error {
	res, err := p.Call("Runtime.evaluate", map[string]interface{}{"expression": expr, "awaitPromise": true, "returnByValue": true})
	if err != nil {
		return err
	}
	var v struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &v); err != nil {
		return err
	}
	if v.Exception != nil {
		return fmt.Errorf("%s %s", v.Exception.Text, v.Exception.Exception.Description)
	}
	return json.Unmarshal(v.Result.Value, out)
}
