package control

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// MaxConns bounds the clients served at once; one more is answered
// control_busy and disconnected, so silent clients cannot exhaust the pet's
// descriptors.
const MaxConns = 8

// IdleTimeout is how long a client may stay silent with a connection
// open (with or without half a line sent) before the pet closes it.
const IdleTimeout = 10 * time.Second

// writeTimeout bounds one reply, so a client that never reads cannot hold
// a connection's goroutine.
const writeTimeout = 5 * time.Second

// Listener is one running pet's control socket. Messages delivers what
// clients send; Close removes the socket.
type Listener struct {
	name, path string
	ln         *net.UnixListener
	msgs       chan Message
	done       chan struct{}
	closeOnce  sync.Once
	closeErr   error
	wg         sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]struct{}

	// uid is the user whose processes may connect; peerUID reads a
	// connection's peer (SO_PEERCRED), replaced by tests to act as
	// another user; idle is IdleTimeout, shortened by tests.
	uid     uint32
	peerUID func(*net.UnixConn) (uint32, error)
	idle    time.Duration
}

// Listen opens the control socket of a pet with this ID in Dir: ID.sock,
// or the first of ID.2.sock ... that no live pet holds, replacing a stale
// socket no process listens on. The caller reads Messages and calls Close.
func Listen(id string) (*Listener, error) {
	l, err := listen(id)
	if err != nil {
		return nil, err
	}
	l.start()
	return l, nil
}

// listen opens the socket without serving it, so tests can set the
// listener's hooks before the first connection.
func listen(id string) (*Listener, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	// Two pets starting at once could both find one stale socket, and the
	// second's removal would unlink the first's new socket: the lock makes
	// the probe, the removal and the bind one step.
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for n := 1; n <= MaxInstances; n++ {
		name := socketName(id, n)
		path, err := socketPath(dir, name)
		if err != nil {
			return nil, err
		}
		ln, err := bind(path)
		if err != nil {
			return nil, err
		}
		if ln == nil {
			continue // a live pet holds it
		}
		return &Listener{
			name: name, path: path, ln: ln,
			msgs:    make(chan Message, 16),
			done:    make(chan struct{}),
			conns:   map[net.Conn]struct{}{},
			uid:     uint32(os.Getuid()),
			peerUID: peerUID,
			idle:    IdleTimeout,
		}, nil
	}
	return nil, fmt.Errorf("%d pets with ID %q are already running (%s)", MaxInstances, id, dir)
}

// bind listens on path; it returns nil, nil when a live pet listens there,
// and replaces a stale socket.
func bind(path string) (*net.UnixListener, error) {
	addr := &net.UnixAddr{Name: path, Net: "unix"}
	ln, err := net.ListenUnix("unix", addr)
	if err == nil {
		return ln, nil
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	live, err := probe(path)
	if err != nil || live {
		return nil, err
	}
	if err := os.Remove(path); err != nil {
		return nil, fmt.Errorf("removing the stale control socket: %w", err)
	}
	ln, err = net.ListenUnix("unix", addr)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	return ln, nil
}

// probe reports whether a process listens on the socket at path: a
// refused connection means a stale socket. Anything at path that is not a
// socket is an error, never removed.
func probe(path string) (live bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return false, fmt.Errorf("control socket: %w", err)
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return false, fmt.Errorf("%s exists and is not a socket (%s); not touching it", path, fi.Mode().Type())
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return true, nil
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return false, nil
	}
	return false, fmt.Errorf("probing the control socket: %w", err)
}

// lockDir takes an exclusive lock on dir's lock file; the returned func
// releases it.
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("control socket lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("control socket lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// Name is the pet's instance name: its ID, or ID.N for the N-th pet with
// that ID. Send and `petasset desktop send --id` take it.
func (l *Listener) Name() string { return l.name }

// Path is the socket's path.
func (l *Listener) Path() string { return l.path }

// Messages delivers the accepted messages in the order each client sent
// them. It is closed after Close.
func (l *Listener) Messages() <-chan Message { return l.msgs }

// Close stops accepting, disconnects every client, removes the socket and
// closes Messages. It is safe to call more than once.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.closeErr = l.ln.Close() // unlinks the socket
		l.mu.Lock()
		for c := range l.conns {
			c.Close()
		}
		l.mu.Unlock()
		l.wg.Wait()
		close(l.msgs)
	})
	return l.closeErr
}

func (l *Listener) start() {
	l.wg.Add(1)
	go l.accept()
}

func (l *Listener) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.AcceptUnix()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			// Out of descriptors or an aborted connection: the pet keeps
			// listening; the pause keeps a persistent fault from spinning.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		l.mu.Lock()
		busy := len(l.conns) >= MaxConns
		if !busy {
			l.conns[c] = struct{}{}
			l.wg.Add(1)
		}
		l.mu.Unlock()
		if busy {
			reply(c, refuse(RuleBusy, "%d clients are connected already", MaxConns))
			c.Close()
			continue
		}
		go l.serve(c)
	}
}

// serve answers one client's lines until it disconnects, stays silent for
// the idle timeout, or the listener closes. Nothing a client sends ends
// anything but its own connection.
func (l *Listener) serve(c *net.UnixConn) {
	defer func() {
		c.Close()
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
		l.wg.Done()
	}()
	uid, err := l.peerUID(c)
	if err != nil {
		reply(c, refuse(RulePeerRefused, "the peer's user cannot be checked: %v", err))
		return
	}
	if uid != l.uid {
		reply(c, refuse(RulePeerRefused, "the client runs as uid %d; only uid %d may control this pet", uid, l.uid))
		return
	}
	r := bufio.NewReaderSize(c, MaxLineBytes)
	for {
		c.SetReadDeadline(time.Now().Add(l.idle))
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !reply(c, refuse(RuleLineTooLong, "the line is over %d bytes; skipped to its end", MaxLineBytes)) || !skipLine(c, r, l.idle) {
				return
			}
			continue
		}
		if err != nil {
			if len(bytes.TrimSpace(line)) > 0 {
				// The client half-closed or went quiet mid-line; it may
				// still read why the line was not taken.
				reply(c, refuse(RuleIncompleteLine, "%d bytes with no newline before the client stopped (%v)", len(line), err))
			}
			return
		}
		line = bytes.TrimRight(line[:len(line)-1], "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		m, perr := ParseLine(line)
		if perr == nil {
			select {
			case l.msgs <- m:
			case <-l.done:
				perr = refuse(RuleBusy, "the pet is closing")
			}
		}
		if !reply(c, perr) {
			return
		}
	}
}

// skipLine reads up to the end of an oversized line; false when the
// connection ended first.
func skipLine(c *net.UnixConn, r *bufio.Reader, idle time.Duration) bool {
	for {
		c.SetReadDeadline(time.Now().Add(idle))
		_, err := r.ReadSlice('\n')
		if err == nil {
			return true
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return false
		}
	}
}

// reply writes one reply line for a request's outcome; false when the
// client cannot be written to.
func reply(c net.Conn, err error) bool {
	line := []byte("{\"ok\":true}\n")
	if err != nil {
		line = appendErrorReply(nil, err.Error())
	}
	c.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, werr := c.Write(line)
	return werr == nil
}
