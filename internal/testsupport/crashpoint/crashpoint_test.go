package crashpoint

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

const testEnv = "CRASHPOINT_TEST_PAUSE"

// TestMain is also the child of TestPauseStopsTheChild: it runs three
// steps through the hook and reports each one it got past.
func TestMain(m *testing.M) {
	if os.Getenv(testEnv) != "" {
		hook := Pause(testEnv, os.Stderr)
		for _, s := range []string{"first", "second", "third"} {
			if err := hook(s); err != nil {
				os.Exit(3)
			}
			os.Stderr.WriteString("after " + s + "\n")
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestPauseUnset(t *testing.T) {
	t.Setenv(testEnv, "")
	if Pause(testEnv, os.Stderr) != nil {
		t.Error("Pause returned a hook with its variable unset")
	}
}

func TestPauseStopsTheChild(t *testing.T) {
	tests := []struct {
		step   string
		before []string // the lines the child writes before the pause
		err    string   // a part of Wait's error; "" when the pause is reached
	}{
		{"first", nil, ""},
		{"third", []string{"after first", "after second"}, ""},
		{"fourth", []string{"after first", "after second", "after third"}, `without reaching step "fourth"`},
	}
	for _, tt := range tests {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), testEnv+"="+tt.step)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		before, err := Wait(stderr, tt.step)
		if err != nil && (tt.err == "" || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: Wait: %v; want %q", tt.step, err, tt.err)
		}
		if err == nil && tt.err != "" {
			t.Errorf("%s: Wait succeeded; want an error with %q", tt.step, tt.err)
		}
		if strings.Join(before, "|") != strings.Join(tt.before, "|") {
			t.Errorf("%s: lines before the pause %q, want %q", tt.step, before, tt.before)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		werr := cmd.Wait()
		// A paused child is still running when it is killed; one that
		// never paused has exited 0 by itself.
		killed := werr != nil && strings.Contains(werr.Error(), "killed")
		if killed != (tt.err == "") {
			t.Errorf("%s: the child ended with %v; killed while paused: want %v", tt.step, werr, tt.err == "")
		}
	}
}

func TestWaitOtherStep(t *testing.T) {
	_, err := Wait(strings.NewReader("x\n"+Prefix+"other\n"), "mine")
	if err == nil || !strings.Contains(err.Error(), `paused at "other", not at "mine"`) {
		t.Errorf("Wait: %v", err)
	}
}
