package control

import (
	"bufio"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// runtimeDir points XDG_RUNTIME_DIR at a fresh directory and returns the
// socket directory Listen will use.
func runtimeDir(t *testing.T) string {
	t.Helper()
	rt := shortTempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	return filepath.Join(rt, "rules_pet")
}

// shortTempDir is t.TempDir, or a directory under /tmp when that path is
// too long for socket paths below it (sun_path holds 107 bytes; Bazel's
// TEST_TMPDIR can use most of them).
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if len(dir) <= 60 {
		return dir
	}
	dir, err := os.MkdirTemp("/tmp", "control")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func mustListen(t *testing.T, id string) *Listener {
	t.Helper()
	l, err := Listen(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// recv takes the next message; the deadline only turns a hang into a
// failure, it measures nothing.
func recv(t *testing.T, l *Listener) Message {
	t.Helper()
	select {
	case m := <-l.Messages():
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message delivered")
	}
	return Message{}
}

// sendOK sends m to name and checks that l delivers exactly it.
func sendOK(t *testing.T, name string, l *Listener, m Message) {
	t.Helper()
	if err := Send(name, m); err != nil {
		t.Fatalf("Send(%q): %v", name, err)
	}
	if got := recv(t, l); !reflect.DeepEqual(got, m) {
		t.Fatalf("delivered %+v, want %+v", got, m)
	}
}

func dial(t *testing.T, l *Listener) *net.UnixConn {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: l.Path(), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}

// replies reads every reply line until the server closes the connection.
func replies(t *testing.T, c *net.UnixConn) []string {
	t.Helper()
	var out []string
	s := bufio.NewScanner(c)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}

func errReply(rule Rule) string { return `{"ok":false,"error":"` + string(rule) + `: ` }

// TestListenerClients: what one client sends (garbage, too much, half a
// line, a disconnect mid-line) gets its replies and never stops the pet,
// which delivers the good lines and serves the next client.
func TestListenerClients(t *testing.T) {
	runtimeDir(t)
	l, err := listen("pet_tabby")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	l.idle = 200 * time.Millisecond // "silent mid-line" waits for it
	l.start()
	if l.Name() != "pet_tabby" {
		t.Fatalf("Name() = %q", l.Name())
	}
	huge := strings.Repeat("x", 3*MaxLineBytes)
	cases := []struct {
		name string
		// send is written, then the write side closed unless keepOpen.
		send     string
		keepOpen bool
		// replies are reply prefixes, in order; nil skips the check (the
		// client went away without reading).
		replies   []string
		delivered []Message
		hangUp    bool
	}{
		{name: "events", send: "{\"event\":\"thinking\"}\n\n{\"event\":\"done\"}\r\n",
			replies:   []string{`{"ok":true}`, `{"ok":true}`},
			delivered: []Message{EventMessage("thinking"), EventMessage("done")}},
		{name: "garbage then good", send: "\x00\xff\xfe garbage\n{\"role\":\"activity_curious\"}\n",
			replies: []string{errReply(RuleMalformed), `{"ok":true}`}, delivered: []Message{RoleMessage("activity_curious")}},
		{name: "unknown event", send: "{\"event\":\"dance\"}\n",
			replies: []string{errReply(RuleUnknownEvent) + `\"dance\" is not an Agent event`}},
		{name: "oversized then good", send: "{\"bubble\":\"" + huge + "\"}\n{\"bubble\":\"hi\"}\n",
			replies: []string{errReply(RuleLineTooLong), `{"ok":true}`}, delivered: []Message{BubbleMessage("hi")}},
		{name: "oversized with no newline", send: huge, replies: []string{errReply(RuleLineTooLong)}},
		{name: "half-sent", send: "{\"event\":\"done\"}\n{\"event\":\"fail",
			replies: []string{`{"ok":true}`, errReply(RuleIncompleteLine)}, delivered: []Message{EventMessage("done")}},
		{name: "silent mid-line", send: "{\"reduce_motion\":", keepOpen: true, replies: []string{errReply(RuleIncompleteLine)}},
		{name: "disconnect mid-line", send: "{\"event\":\"tool\"}\n{\"eve", hangUp: true,
			delivered: []Message{EventMessage("tool")}},
		{name: "disconnect mid-oversized-line", send: huge[:MaxLineBytes+10], hangUp: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := dial(t, l)
			if _, err := conn.Write([]byte(c.send)); err != nil {
				t.Fatal(err)
			}
			if c.hangUp {
				conn.Close()
			} else {
				if !c.keepOpen {
					conn.CloseWrite()
				}
				got := replies(t, conn)
				if len(got) != len(c.replies) {
					t.Fatalf("replies %q, want %d: %q", got, len(c.replies), c.replies)
				}
				for i := range got {
					if !strings.HasPrefix(got[i], c.replies[i]) {
						t.Errorf("reply %d = %q, want the prefix %q", i, got[i], c.replies[i])
					}
				}
			}
			for _, m := range c.delivered {
				if got := recv(t, l); !reflect.DeepEqual(got, m) {
					t.Errorf("delivered %+v, want %+v", got, m)
				}
			}
			// Whatever the client did, the pet still serves the next one,
			// and nothing else was delivered before its message.
			sendOK(t, "pet_tabby", l, ReduceMotionMessage(true))
		})
	}
}

// TestSecondPet: a second pet with the same ID gets ID.2 and the first
// keeps its socket and its messages; a third gets ID.3; when the first
// closes, its socket goes and the others keep working.
func TestSecondPet(t *testing.T) {
	dir := runtimeDir(t)
	first := mustListen(t, "pet_tabby")
	second := mustListen(t, "pet_tabby")
	third := mustListen(t, "pet_tabby")
	if first.Name() != "pet_tabby" || second.Name() != "pet_tabby.2" || third.Name() != "pet_tabby.3" {
		t.Fatalf("names %q %q %q", first.Name(), second.Name(), third.Name())
	}
	if first.Path() != filepath.Join(dir, "pet_tabby.sock") || second.Path() != filepath.Join(dir, "pet_tabby.2.sock") {
		t.Fatalf("paths %s %s", first.Path(), second.Path())
	}
	sendOK(t, "pet_tabby", first, EventMessage("tool"))
	sendOK(t, "pet_tabby.2", second, EventMessage("waiting"))
	sendOK(t, "pet_tabby.3", third, EventMessage("plan"))
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(first.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Close left %s: %v", first.Path(), err)
	}
	if _, ok := <-first.Messages(); ok {
		t.Error("Messages still open after Close")
	}
	sendOK(t, "pet_tabby.2", second, EventMessage("done"))
	if err := Send("pet_tabby", EventMessage("done")); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Send to the closed pet: %v", err)
	}
	// The free first slot is taken again.
	again := mustListen(t, "pet_tabby")
	if again.Name() != "pet_tabby" {
		t.Errorf("a new pet took %q, want the free pet_tabby", again.Name())
	}
}

// TestStaleSocket: a socket nobody listens on is replaced; anything at the
// path that is not a socket is refused and left alone.
func TestStaleSocket(t *testing.T) {
	dir := runtimeDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "pet_tabby.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if fi, err := os.Lstat(stale); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("no stale socket to test with: %v", err)
	}
	if names, err := Running(); err != nil || len(names) != 0 {
		t.Errorf("Running() with only a stale socket = %q, %v", names, err)
	}
	l := mustListen(t, "pet_tabby")
	if l.Name() != "pet_tabby" {
		t.Errorf("the stale socket was not replaced: got %q", l.Name())
	}
	sendOK(t, "", l, EventMessage("start"))

	plain := filepath.Join(dir, "pet_plain.sock")
	if err := os.WriteFile(plain, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen("pet_plain"); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a regular file: %v", err)
	}
	if data, err := os.ReadFile(plain); err != nil || string(data) != "keep" {
		t.Errorf("the regular file was touched: %q, %v", data, err)
	}
}

// TestSend: none running, one (chosen with no ID), several (an ID needed),
// an unknown ID, and a refusal carried back as an *Error.
func TestSend(t *testing.T) {
	runtimeDir(t)
	if err := Send("", EventMessage("done")); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send with none running: %v", err)
	}
	if names, err := Running(); err != nil || len(names) != 0 {
		t.Fatalf("Running() = %q, %v", names, err)
	}
	a := mustListen(t, "alpha")
	sendOK(t, "", a, BubbleMessage("one pet"))
	b := mustListen(t, "beta")
	if err := Send("", EventMessage("done")); err == nil || !strings.Contains(err.Error(), "2 desktop pets are running (alpha, beta)") {
		t.Errorf("Send with two running and no ID: %v", err)
	}
	sendOK(t, "beta", b, ClearBubble())
	if names, err := Running(); err != nil || !reflect.DeepEqual(names, []string{"alpha", "beta"}) {
		t.Errorf("Running() = %q, %v", names, err)
	}
	if err := Send("gamma", EventMessage("done")); !errors.Is(err, ErrNotRunning) || !strings.Contains(err.Error(), `"gamma"`) {
		t.Errorf("Send to an unknown ID: %v", err)
	}
	for _, bad := range []string{"Alpha", "alpha.1", "alpha.17", "alpha.02", "../alpha", "a/b"} {
		if err := Send(bad, EventMessage("done")); err == nil || errors.Is(err, ErrNotRunning) {
			t.Errorf("Send(%q) = %v, want a name error", bad, err)
		}
	}
	if err := Send("alpha", EventMessage("dance")); err == nil || !strings.Contains(err.Error(), string(RuleUnknownEvent)) {
		t.Errorf("Send of an unknown event: %v", err)
	}
	// A refusal the client does not check first comes back from the pet.
	c := dial(t, a)
	c.Write([]byte("{\"event\":\"dance\"}\n"))
	c.CloseWrite()
	if got := replies(t, c); len(got) != 1 || !strings.HasPrefix(got[0], errReply(RuleUnknownEvent)) {
		t.Errorf("replies %q", got)
	}
}

// TestPeerCheck: the real peer check sees this process's user, and a
// peer of another user is refused with a reason and disconnected while
// the listener goes on serving.
func TestPeerCheck(t *testing.T) {
	runtimeDir(t)
	l, err := listen("pet_tabby")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex // the hook runs on the listener's goroutines
	var seen []uint32
	other := true
	l.peerUID = func(c *net.UnixConn) (uint32, error) {
		uid, err := peerUID(c)
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, uid)
		if other {
			return uid + 1, err
		}
		return uid, err
	}
	l.start()
	err = Send("pet_tabby", EventMessage("done"))
	var e *Error
	if !errors.As(err, &e) || e.Rule != RulePeerRefused || !strings.Contains(e.Reason, "only uid") {
		t.Fatalf("Send as another user: %v", err)
	}
	mu.Lock()
	other = false
	mu.Unlock()
	sendOK(t, "pet_tabby", l, EventMessage("done"))
	mu.Lock()
	defer mu.Unlock()
	for _, uid := range seen {
		if uid != uint32(os.Getuid()) {
			t.Errorf("SO_PEERCRED gave uid %d, want %d", uid, os.Getuid())
		}
	}
	if len(seen) != 2 {
		t.Errorf("peer checked %d times, want 2", len(seen))
	}
}

// TestMaxConns: with MaxConns silent clients connected, one more is told
// control_busy; when one leaves, the pet serves again.
func TestMaxConns(t *testing.T) {
	runtimeDir(t)
	l := mustListen(t, "pet_tabby")
	conns := make([]*net.UnixConn, MaxConns)
	for i := range conns {
		conns[i] = dial(t, l)
		// A served client's line is answered; that proves it holds a slot.
		conns[i].Write([]byte("{\"event\":\"start\"}\n"))
		if line, err := bufio.NewReader(conns[i]).ReadString('\n'); err != nil || line != "{\"ok\":true}\n" {
			t.Fatalf("client %d: %q, %v", i, line, err)
		}
		recv(t, l)
	}
	var e *Error
	if err := Send("pet_tabby", EventMessage("done")); !errors.As(err, &e) || e.Rule != RuleBusy {
		t.Fatalf("Send over MaxConns: %v", err)
	}
	conns[0].Close()
	// The slot frees when the server's goroutine sees the close; Send is
	// retried until then, bounded so a leak fails instead of hanging.
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := Send("pet_tabby", EventMessage("done"))
		if err == nil {
			break
		}
		if !errors.As(err, &e) || e.Rule != RuleBusy || time.Now().After(deadline) {
			t.Fatalf("Send after a client left: %v", err)
		}
	}
	recv(t, l)
}

// TestDir: the socket directory is created 0700 and refused when it is
// not a directory of the user's own without group or other access.
func TestDir(t *testing.T) {
	dir := runtimeDir(t)
	got, err := Dir()
	if err != nil || got != dir {
		t.Fatalf("Dir() = %q, %v; want %q", got, err, dir)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	if err := checkDir(dir, uint32(os.Getuid())+1); err == nil || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("checkDir with another owner: %v", err)
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen("pet_tabby"); err == nil || !strings.Contains(err.Error(), "mode 0750") {
		t.Errorf("Listen in a 0750 directory: %v", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}

	rt := shortTempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(rt, "rules_pet")); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Dir() through a symbolic link: %v", err)
	}

	t.Setenv("XDG_RUNTIME_DIR", "relative/dir")
	if _, err := Dir(); err == nil {
		t.Error("Dir() accepted a relative XDG_RUNTIME_DIR")
	}

	// Unset: a directory of the user's own under TMPDIR.
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := shortTempDir(t)
	t.Setenv("TMPDIR", tmp)
	l := mustListen(t, "pet_tabby")
	if want := filepath.Join(tmp, "rules_pet-"+strconv.Itoa(os.Getuid()), "pet_tabby.sock"); l.Path() != want {
		t.Errorf("socket %s, want %s", l.Path(), want)
	}
	sendOK(t, "", l, EventMessage("thinking"))
}

func TestCheckID(t *testing.T) {
	for _, id := range []string{"a", "pet_tabby", "my-pet-2", strings.Repeat("a", MaxIDBytes)} {
		if err := CheckID(id); err != nil {
			t.Errorf("CheckID(%q): %v", id, err)
		}
	}
	for _, id := range []string{"", "Pet", "pet.2", "a/b", "..", "pet tabby", strings.Repeat("a", MaxIDBytes+1)} {
		if err := CheckID(id); err == nil {
			t.Errorf("CheckID(%q) accepted it", id)
		}
	}
}
