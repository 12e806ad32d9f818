// Package headless starts Debian's Chromium headless on 127.0.0.1 and
// drives it over the DevTools protocol, for tests that must see what a real
// browser shows: the petpack player's canvas, a review page. One Browser is
// one Chromium process with its own temporary profile; a Page is one tab.
//
// Chromium comes from the project's set-up (tools/bazel/setup.sh installs
// Debian's `chromium`); RULES_PET_CHROMIUM names another binary. A test
// that cannot find it fails: it never skips.
package headless

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Candidates are where Chromium is looked for, in order, after
// $RULES_PET_CHROMIUM.
var Candidates = []string{"/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromium-browser"}

// Find returns the Chromium binary to run.
func Find() (string, error) {
	if p := os.Getenv("RULES_PET_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, p := range Candidates {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("headless: no Chromium at %s; run tools/bazel/setup.sh (it installs Debian's chromium) or set RULES_PET_CHROMIUM", strings.Join(Candidates, ", "))
}

// Browser is one headless Chromium process.
type Browser struct {
	cmd  *exec.Cmd
	http string // http://127.0.0.1:PORT of the DevTools endpoint
	done chan struct{}
}

// Flags are the command-line flags every launch uses: headless, no sandbox
// (tests run as root in containers), device pixel ratio 1, DevTools on a
// free port of 127.0.0.1, and none of the browser's own network traffic.
var Flags = []string{
	"--headless=new",
	"--no-sandbox",
	"--disable-gpu",
	"--force-device-scale-factor=1",
	"--remote-debugging-address=127.0.0.1",
	"--remote-debugging-port=0",
	"--remote-allow-origins=*",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-extensions",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-default-apps",
	"--window-size=1000,900",
}

// Launch starts Chromium with its profile in profileDir (a test's
// temporary directory) and waits until DevTools listens.
func Launch(profileDir string) (*Browser, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), Flags...), "--user-data-dir="+profileDir, "about:blank")
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+profileDir)
	// Its own process group: Close stops Chromium's helper processes (the
	// renderer, the zygote) with it, before the test removes the profile.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("headless: starting %s: %v", bin, err)
	}
	b := &Browser{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	var tail []string
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "DevTools listening on ws://"); i >= 0 && !sent {
				found <- line[i+len("DevTools listening on "):]
				sent = true
			}
			mu.Lock()
			if tail = append(tail, line); len(tail) > 20 {
				tail = tail[1:]
			}
			mu.Unlock()
		}
		if !sent {
			close(found)
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(b.done)
	}()
	select {
	case ws, ok := <-found:
		if !ok {
			mu.Lock()
			defer mu.Unlock()
			return nil, fmt.Errorf("headless: %s exited before DevTools listened:\n%s", bin, strings.Join(tail, "\n"))
		}
		// ws://127.0.0.1:PORT/devtools/browser/ID
		rest := strings.TrimPrefix(ws, "ws://")
		b.http = "http://" + rest[:strings.IndexByte(rest, '/')]
		return b, nil
	case <-time.After(60 * time.Second):
		b.Close()
		return nil, fmt.Errorf("headless: %s did not start DevTools within 60 s", bin)
	}
}

// Close stops the browser: SIGTERM to the process group this Browser
// started (and only that one), SIGKILL if it is still there after 10 s,
// and waits for the main process.
func (b *Browser) Close() {
	pid := b.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-b.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-b.done
	}
}

// Page is one tab and its DevTools session.
type Page struct {
	ws      *wsConn
	mu      sync.Mutex
	nextID  int
	pending map[int]chan reply
	events  map[string][]func(json.RawMessage)
	err     error
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// NewPage opens a blank tab. Subscribe to events with On before the
// navigation that causes them.
func (b *Browser) NewPage() (*Page, error) {
	req, err := http.NewRequest(http.MethodPut, b.http+"/json/new?about:blank", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var target struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &target); err != nil || target.WebSocketDebuggerURL == "" {
		return nil, fmt.Errorf("headless: /json/new: %s %q", resp.Status, body)
	}
	ws, err := dialWS(target.WebSocketDebuggerURL)
	if err != nil {
		return nil, err
	}
	p := &Page{ws: ws, pending: map[int]chan reply{}, events: map[string][]func(json.RawMessage){}}
	go p.read()
	return p, nil
}

func (p *Page) read() {
	for {
		msg, err := p.ws.ReadMessage()
		if err != nil {
			p.mu.Lock()
			p.err = err
			for id, ch := range p.pending {
				close(ch)
				delete(p.pending, id)
			}
			p.mu.Unlock()
			return
		}
		var m struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			reply
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		p.mu.Lock()
		if m.ID != 0 {
			if ch, ok := p.pending[m.ID]; ok {
				ch <- m.reply
				delete(p.pending, m.ID)
			}
			p.mu.Unlock()
			continue
		}
		hs := p.events[m.Method]
		p.mu.Unlock()
		for _, h := range hs {
			h(m.Params)
		}
	}
}

// On calls h with the params of every event named method (e.g.
// "Network.requestWillBeSent"), on the session's reading goroutine.
func (p *Page) On(method string, h func(params json.RawMessage)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events[method] = append(p.events[method], h)
}

// Call sends one DevTools command and decodes its result into out (when
// out is not nil).
func (p *Page) Call(method string, params interface{}, out interface{}) error {
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return p.err
	}
	p.nextID++
	id := p.nextID
	ch := make(chan reply, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	msg, err := json.Marshal(map[string]interface{}{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := p.ws.WriteText(msg); err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return fmt.Errorf("headless: %s: session ended: %v", method, p.err)
		}
		if r.Error != nil {
			return fmt.Errorf("headless: %s: %s (%d)", method, r.Error.Message, r.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-time.After(60 * time.Second):
		return fmt.Errorf("headless: %s: no reply within 60 s", method)
	}
}

// Eval evaluates a JavaScript expression in the page, awaiting a promise,
// and decodes its value into out (when out is not nil). A thrown exception
// is an error carrying its text.
func (p *Page) Eval(expr string, out interface{}) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.Call("Runtime.evaluate", map[string]interface{}{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("headless: %s: %s %s", expr, e.Text, e.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// WaitFor evaluates a boolean expression until it is true, at most for
// timeout (a bound on a broken page, not a measured duration).
func (p *Page) WaitFor(expr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		if err := p.Eval("Boolean("+expr+")", &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("headless: " + expr + " still false after " + timeout.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Navigate loads url in the tab; wait for the page's own readiness with
// WaitFor.
func (p *Page) Navigate(url string) error {
	return p.Call("Page.navigate", map[string]string{"url": url}, nil)
}

// Mouse dispatches one real mouse event through the browser's input
// pipeline: typ is mousePressed, mouseMoved or mouseReleased, at CSS pixel
// (x, y), the left button held for pressed and moved.
func (p *Page) Mouse(typ string, x, y float64) error {
	params := map[string]interface{}{"type": typ, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1, "pointerType": "mouse"}
	if typ == "mouseReleased" {
		params["buttons"] = 0
	}
	return p.Call("Input.dispatchMouseEvent", params, nil)
}

// Close ends the session.
func (p *Page) Close() { _ = p.ws.Close() }
