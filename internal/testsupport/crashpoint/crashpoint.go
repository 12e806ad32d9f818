// Package crashpoint lets a crash test stop a real child process at a
// named step of a write and kill it there, so the test knows the kill
// landed inside the window it means to test rather than somewhere a
// timer happened to fall.
//
// The child (a test binary re-executed by its TestMain) installs Pause's
// hook where the code under test calls its step hook; the parent starts
// it with the step's name in an environment variable, reads its stderr
// with Wait until the child announces the pause, and sends SIGKILL.
package crashpoint

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Prefix starts the line a paused child writes: Prefix + step.
const Prefix = "PAUSED "

// Pause returns a step hook that, at the step named by the environment
// variable env, writes Prefix+step on a line to w and then blocks until
// the process is killed; it returns nil when env is unset or empty, so a
// child started without it runs undisturbed.
func Pause(env string, w io.Writer) func(step string) error {
	want := os.Getenv(env)
	if want == "" {
		return nil
	}
	return func(step string) error {
		if step == want {
			fmt.Fprintln(w, Prefix+step)
			for {
				// The parent kills the process; sleeping in a loop
				// rather than once keeps a forgotten child from ever
				// going on with the write.
				time.Sleep(time.Hour)
			}
		}
		return nil
	}
}

// Wait reads r line by line until a child announces its pause at step. It
// returns the lines read before it, and an error when r ends first (the
// child finished or failed without reaching step), so a test can assert
// that its window was actually hit. Lines after the announcement are left
// unread.
func Wait(r io.Reader, step string) ([]string, error) {
	var seen []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := sc.Text()
		if l == Prefix+step {
			return seen, nil
		}
		if strings.HasPrefix(l, Prefix) {
			return seen, fmt.Errorf("the child paused at %q, not at %q", strings.TrimPrefix(l, Prefix), step)
		}
		seen = append(seen, l)
	}
	if err := sc.Err(); err != nil {
		return seen, fmt.Errorf("reading the child's output: %w", err)
	}
	return seen, fmt.Errorf("the child's output ended without reaching step %q (output: %q)", step, strings.Join(seen, "\n"))
}
