package motionqa

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/testsupport/crashpoint"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

const (
	crashEnv = "MOTIONQA_CRASH_CHILD"
	// publishEnv makes the test binary a child that audits idle alone
	// once ("SRC\nOUT"); pauseEnv names the publish step it stops at.
	publishEnv = "MOTIONQA_PUBLISH_CHILD"
	pauseEnv   = "MOTIONQA_TEST_PAUSE"
)

// publishChild is the child of TestQACrashAtPublishSteps: one QA run of
// idle alone into OUT, paused (and killed) at the step pauseEnv names.
func publishChild(spec string) {
	publishHook = crashpoint.Pause(pauseEnv, os.Stderr)
	parts := strings.SplitN(spec, "\n", 2)
	if _, err := Run(parts[0], parts[1], Options{States: []petpack.Action{petpack.ActionIdle}}); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

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

// TestQACrashSafe kills a process that is replacing a QA directory at
// several delays after its second run starts (they land while that run
// reads and measures the pet; TestQACrashAtPublishSteps kills inside the
// publish step itself), and checks what a reader finds afterwards: either no QA
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

// TestQACrashAtPublishSteps stops a real QA process inside each window of
// the publish step (half the files written, all synced, the earlier
// directory renamed aside, the new one renamed in), kills it there with
// SIGKILL, and checks what a reader finds: the earlier complete directory,
// none, or the new complete one, never a partial or mixed directory, and
// nothing but dot-named leftovers beside it. Each window must be reached:
// a publish that lost a step fails here.
func TestQACrashAtPublishSteps(t *testing.T) {
	src, full, _ := base(t)
	wantFull := tree(t, full)
	idle := filepath.Join(t.TempDir(), "qa")
	if _, err := Run(src, idle, Options{States: []petpack.Action{petpack.ActionIdle}}); err != nil {
		t.Fatal(err)
	}
	wantIdle := tree(t, idle)
	tests := []struct {
		step  string
		prior bool   // an earlier complete QA directory (all nine states) is being replaced
		want  string // what a reader finds after the kill: "prior", "none" or "new"
	}{
		{stepPublishWrite, true, "prior"},
		{stepPublishSynced, true, "prior"},
		{stepPublishSwap, true, "none"},
		{stepPublishRenamed, true, "new"},
		{stepPublishWrite, false, "none"},
		{stepPublishSynced, false, "none"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s/prior=%v", tt.step, tt.prior)
		parent := t.TempDir()
		out := filepath.Join(parent, "qa")
		if tt.prior {
			if err := os.Rename(copyQA(t, full), out); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), publishEnv+"="+src+"\n"+out, pauseEnv+"="+tt.step)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		_, waitErr := crashpoint.Wait(stderr, tt.step)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if waitErr != nil {
			t.Errorf("%s: the window was not hit: %v", name, waitErr)
			continue
		}

		got := "none"
		if _, err := os.Lstat(out); err == nil {
			files := tree(t, out)
			switch {
			case equalTrees(files, wantFull):
				got = "prior"
			case equalTrees(files, wantIdle):
				got = "new"
			default:
				got = fmt.Sprintf("a partial directory of %d files", len(files))
			}
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: a reader finds %s after the kill; want %s", name, got, tt.want)
		}
		ents, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() != "qa" && !strings.HasPrefix(e.Name(), ".qa.tmp-") {
				t.Errorf("%s: the kill left %s beside the QA directory", name, e.Name())
			}
		}
		// The next run replaces whatever the kill left.
		if _, err := Run(src, out, Options{States: []petpack.Action{petpack.ActionIdle}}); err != nil {
			t.Errorf("%s: the run after the kill: %v", name, err)
		} else if !equalTrees(tree(t, out), wantIdle) {
			t.Errorf("%s: the run after the kill did not write a complete directory", name)
		}
	}
}

// equalTrees reports whether two directory trees hold the same files with
// the same bytes.
func equalTrees(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, data := range a {
		if w, ok := b[name]; !ok || !bytes.Equal(w, data) {
			return false
		}
	}
	return true
}
