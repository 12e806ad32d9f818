package motionqa

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

const crashEnv = "MOTIONQA_CRASH_CHILD"

// crashChild is the child process of TestQACrashSafe (TestMain runs it
// when crashEnv is set): it rewrites the QA directory in a loop, all nine
// states and idle alone in turn, until it is killed.
func crashChild(spec string) {
	parts := strings.SplitN(spec, "\n", 2)
	for i := 0; ; i++ {
		opt := Options{}
		if i%2 == 1 {
			opt.States = []petpack.Action{petpack.ActionIdle}
		}
		if _, err := Run(parts[0], parts[1], opt); err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		fmt.Println("run", i)
	}
}

// TestQACrashSafe kills a process that is replacing a QA directory, at
// several points, and checks what a reader finds afterwards: either no QA
// directory or a complete one, never a mixture of two runs.
func TestQACrashSafe(t *testing.T) {
	src, ref, _ := base(t)
	want := tree(t, ref)
	idle := filepath.Join(t.TempDir(), "qa")
	if _, err := Run(src, idle, Options{States: []petpack.Action{petpack.ActionIdle}}); err != nil {
		t.Fatal(err)
	}
	wantIdle := tree(t, idle)
	for _, delay := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 7 * time.Millisecond, 15 * time.Millisecond, 40 * time.Millisecond} {
		out := filepath.Join(t.TempDir(), "qa")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+src+"\n"+out)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "error:") {
				t.Fatal(sc.Text())
			}
			if sc.Text() == "run 1" {
				break
			}
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		if _, err := os.Lstat(out); os.IsNotExist(err) {
			continue // killed between the two renames
		}
		got := tree(t, out)
		ref := want
		if len(toStrings(readReport(t, out)["audited_states"])) == 1 {
			ref = wantIdle
		}
		if len(got) != len(ref) {
			t.Errorf("delay %v: the QA directory holds %d files, a complete run %d", delay, len(got), len(ref))
		}
		for name, data := range got {
			if w, ok := ref[name]; !ok || string(w) != string(data) {
				t.Errorf("delay %v: %s is not the complete run's", delay, name)
			}
		}
	}
}
