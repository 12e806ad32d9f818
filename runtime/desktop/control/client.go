package control

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNotRunning is wrapped by Send's error when no pet (or none with the
// given ID) is running.
var ErrNotRunning = errors.New("no desktop pet is running")

// sendTimeout bounds a whole Send: connecting, writing, and the reply.
const sendTimeout = 5 * time.Second

// replyLine is the wire form of a reply.
type replyLine struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// appendErrorReply appends the refusal reply line for msg.
func appendErrorReply(b []byte, msg string) []byte {
	data, _ := json.Marshal(replyLine{Error: msg}) // a struct of a bool and a string always encodes
	return append(append(b, data...), '\n')
}

// checkName accepts an instance name: an ID, or ID.N with N from 2 to
// MaxInstances.
func checkName(name string) error {
	id, n, dotted := strings.Cut(name, ".")
	if err := CheckID(id); err != nil {
		return err
	}
	if dotted {
		if k, err := strconv.Atoi(n); err != nil || k < 2 || k > MaxInstances || strconv.Itoa(k) != n {
			return fmt.Errorf("pet %q: the instance number after the dot must be 2 to %d", name, MaxInstances)
		}
	}
	return nil
}

// Running returns the instance names of the running pets, sorted: every
// socket in Dir a process listens on (stale ones are left out).
func Running() ([]string, error) {
	dir, err := dirPath()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("control socket directory: %w", err)
	}
	if err := checkDir(dir, uint32(os.Getuid())); err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".sock")
		if name == e.Name() || checkName(name) != nil || e.Type()&os.ModeSocket == 0 {
			continue
		}
		path, err := socketPath(dir, name)
		if err != nil {
			continue
		}
		if live, err := probe(path); err == nil && live {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// Send sends one message to the pet named name (an ID, or ID.N for a
// second pet with the same ID) and waits for its reply. name "" chooses the
// only running pet; with none running the error wraps ErrNotRunning, and
// with several it lists them. A refused message is an *Error with the
// pet's rule and reason.
func Send(name string, m Message) error {
	line, err := m.MarshalLine()
	if err != nil {
		return err
	}
	if name == "" {
		running, err := Running()
		if err != nil {
			return err
		}
		switch len(running) {
		case 0:
			dir, _ := dirPath()
			return fmt.Errorf("%w (no live socket in %s)", ErrNotRunning, dir)
		case 1:
			name = running[0]
		default:
			return fmt.Errorf("%d desktop pets are running (%s): choose one by its ID", len(running), strings.Join(running, ", "))
		}
	}
	if err := checkName(name); err != nil {
		return err
	}
	dir, err := dirPath()
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		if err := checkDir(dir, uint32(os.Getuid())); err != nil {
			return err
		}
	}
	path, err := socketPath(dir, name)
	if err != nil {
		return err
	}
	c, err := net.DialTimeout("unix", path, sendTimeout)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return fmt.Errorf("%w with ID %q (no live socket %s)", ErrNotRunning, name, path)
		}
		return fmt.Errorf("connecting to pet %q: %w", name, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(sendTimeout))
	_, werr := c.Write(line)
	// A pet that refuses the connection (another user, too many clients)
	// answers and closes before reading, so the write may fail while its
	// reason is there to read.
	data, err := bufio.NewReaderSize(c, MaxLineBytes).ReadSlice('\n')
	if err != nil {
		if werr != nil {
			return fmt.Errorf("sending to pet %q: %w", name, werr)
		}
		return fmt.Errorf("reading pet %q's reply: %w", name, err)
	}
	var rep replyLine
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("pet %q's reply %.80q: %w", name, data, err)
	}
	if rep.OK {
		return nil
	}
	rule, reason, _ := strings.Cut(rep.Error, ": ")
	return &Error{Rule: Rule(rule), Reason: reason}
}
