package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/internal/crashpoint"
	"github.com/agentpet/rules_pet/internal/petpacktest"
	"github.com/agentpet/rules_pet/runtime/library"
)

const samplePetpack = "../../../assets/petpack/pet_tabby.petpack.golden"

// TestMain lets the crash and concurrency tests start real petasset
// processes: the test binary re-executed with PETASSET_TEST_CHILD=1 is
// petasset, and PETASSET_TEST_PAUSE=STEP makes it stop at that step of a
// write (announced on stderr) so the parent can kill it there.
func TestMain(m *testing.M) {
	if os.Getenv("PETASSET_TEST_CHILD") == "1" {
		if hook := crashpoint.Pause("PETASSET_TEST_PAUSE", os.Stderr); hook != nil {
			libraryOptions.Hook = hook
		}
		if ms := os.Getenv("PETASSET_TEST_LOCK_WAIT_MS"); ms != "" {
			var n int
			fmt.Sscan(ms, &n)
			libraryOptions.LockWait = time.Duration(n) * time.Millisecond
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func child(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "PETASSET_TEST_CHILD=1"), env...)
	return cmd
}

func TestLibraryCLI(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	a := petpacktest.Variant(t, samplePetpack, dir, "pet_alpha", "Alpha", "")
	b := petpacktest.Variant(t, samplePetpack, dir, "pet_beta", "Beta", "")
	out := filepath.Join(dir, "alpha-export.petpack")
	tests := []struct {
		args   []string
		code   int
		stdout string // a substring of stdout
		stderr string // a substring of stderr
	}{
		{[]string{"library", "--root", root, "import", a}, 0, "pet_alpha: revision 1", ""},
		{[]string{"library", "import", b, "--root", root}, 0, "pet_beta: revision 1", ""},
		{[]string{"library", "import", "--root", root, a, "--expect-absent"}, 1, "", "already installed"},
		{[]string{"library", "import", a, "--root", root, "--base-revision", "7", "--base-digest", "x"}, 1, "", "no longer the edit's base"},
		{[]string{"library", "--root", root, "import", dir}, 1, "", "package directory is only a trusted local build input"},
		{[]string{"library", "--root", root, "import", a}, 0, "pet_alpha: revision 2, sha256", ""},
		{[]string{"library", "--root", root, "list"}, 0, "* pet_alpha\trevision 2\tuser\tAlpha", ""},
		{[]string{"library", "--root", root, "list", "--json"}, 0, `"quarantined": []`, ""},
		{[]string{"library", "--root", root, "show", "pet_beta"}, 0, "active: false", ""},
		{[]string{"library", "--root", root, "show", "--json", "pet_beta"}, 0, `"origin": "user"`, ""},
		{[]string{"library", "--root", root, "revisions", "pet_alpha"}, 0, "current", ""},
		{[]string{"library", "--root", root, "revisions", "pet_alpha", "--json"}, 0, `"revision": 2`, ""},
		{[]string{"library", "--root", root, "current", "pet_alpha", "--revision", "1"}, 0, "pet_alpha: revision 1", ""},
		{[]string{"library", "--root", root, "current", "pet_alpha"}, 2, "", "--revision R"},
		{[]string{"library", "--root", root, "activate", "pet_beta"}, 0, "pet_beta: active", ""},
		{[]string{"library", "--root", root, "export", "pet_alpha", out, "--revision", "2"}, 0, "exported", ""},
		{[]string{"library", "--root", root, "export", "pet_alpha", filepath.Join(root, "x.petpack")}, 1, "", "inside the store root"},
		{[]string{"library", "--root", root, "delete", "pet_beta"}, 0, "pet_beta: deleted", ""},
		{[]string{"library", "--root", root, "show", "pet_beta"}, 1, "", "no such pet"},
		{[]string{"library", "--root", root, "list"}, 0, "* pet_alpha", ""},
		{[]string{"library", "list"}, 2, "", "--root is required"},
		{[]string{"library", "--root", root, "show"}, 2, "", "want one ID"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(tt.args...)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tt.args[1:], code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile(a)
	if !bytes.Equal(got, want) {
		t.Error("the export is not the imported archive")
	}
}

func TestLibraryBusy(t *testing.T) {
	root := t.TempDir()
	if code, _, stderr := runCLI("library", "--root", root, "list"); code != 0 {
		t.Fatal(stderr)
	}
	f, err := os.OpenFile(filepath.Join(root, "library.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	saved := libraryOptions
	libraryOptions.LockWait = 100 * time.Millisecond
	defer func() { libraryOptions = saved }()
	code, _, stderr := runCLI("library", "--root", root, "list")
	if code != 1 || !strings.Contains(stderr, "store busy") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// crashSteps are the steps a child is paused at and killed; the rest of
// the kills land at random moments.
var crashSteps = []string{
	library.StepValidated, library.StepStage, library.StepStageArchive, library.StepStageMedia,
	library.StepStageSync, library.StepChecks, library.StepIntent, library.StepPublish,
	library.StepPointer, library.StepCommit,
}

// revisionsOf lists a pet's published revisions with their digests.
func revisionsOf(s *library.Store, id string) []string {
	revs, err := s.Revisions(id)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range revs {
		out = append(out, fmt.Sprintf("%d:%s", r.Revision, r.Digest))
	}
	return out
}

// TestLibraryCrash starts real `petasset library import` processes and
// kills them with SIGKILL, half of them paused at a chosen step, half at a
// random moment; after each kill the next open must recover a store whose
// invariants hold, in which the import either happened completely or not
// at all and no earlier revision is lost.
func TestLibraryCrash(t *testing.T) {
	kills := 200
	if testing.Short() {
		kills = 20
	}
	dir := t.TempDir()
	var archives []string
	for i, id := range []string{"pet_crasha", "pet_crashb", "pet_crashc"} {
		for j := 0; j < 2; j++ {
			archives = append(archives, petpacktest.Variant(t, samplePetpack, dir, id, fmt.Sprintf("Crash %d", i), fmt.Sprintf("variant %d", j)))
		}
	}
	// One import run to completion sets the span of the random moments
	// (three times its duration: later imports into a fuller store take
	// longer, and some kills must land after the commit).
	start := time.Now()
	if out, err := child(nil, "library", "--root", filepath.Join(dir, "timing"), "import", archives[0]).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	span := time.Since(start) * 3
	// Two workers, each on its own stores, so one's waits overlap the
	// other's work.
	var mu sync.Mutex
	stats := map[string]int{}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs[w] = crashWorker(t, w, kills/2, archives, span, dir, func(k string) {
				mu.Lock()
				stats[k]++
				mu.Unlock()
			})
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d kills (random moments up to %v): %v", kills, span, stats)
}

// crashWorker runs kills crash iterations; see TestLibraryCrash.
func crashWorker(t *testing.T, w, kills int, archives []string, span time.Duration, dir string, count func(string)) error {
	rng := rand.New(rand.NewSource(int64(13 + w)))
	var root string
	for k := 0; k < kills; k++ {
		if k%40 == 0 { // a fresh store now and then keeps Check's full read short
			root = filepath.Join(dir, fmt.Sprintf("store%d-%d", w, k))
		}
		archive := archives[rng.Intn(len(archives))]
		id := strings.SplitN(filepath.Base(archive), "-", 2)[0]
		s, err := library.Open(root, library.Options{})
		if err != nil {
			return err
		}
		before := revisionsOf(s, id)
		s.Close()

		var cmd *exec.Cmd
		mode := "random"
		if k%2 == 0 {
			mode = crashSteps[(k/2)%len(crashSteps)]
			cmd = child([]string{"PETASSET_TEST_PAUSE=" + mode}, "library", "--root", root, "import", archive)
		} else {
			cmd = child(nil, "library", "--root", root, "import", archive)
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		lines := make(chan string, 16)
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if mode == "random" {
			time.Sleep(time.Duration(rng.Int63n(int64(span))))
		} else {
			for l := range lines {
				if strings.HasPrefix(l, "PAUSED ") {
					break
				}
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for range lines {
		}
		finished := cmd.Wait() == nil
		count(mode)

		s, err = library.Open(root, library.Options{})
		if err != nil {
			return fmt.Errorf("worker %d kill %d (%s): reopen: %v", w, k, mode, err)
		}
		err = s.Check()
		after := revisionsOf(s, id)
		s.Close()
		if err != nil {
			return fmt.Errorf("worker %d kill %d (%s): %v", w, k, mode, err)
		}
		if len(after) < len(before) || strings.Join(after[:len(before)], " ") != strings.Join(before, " ") {
			return fmt.Errorf("worker %d kill %d (%s): revisions %v became %v", w, k, mode, before, after)
		}
		switch n := len(after) - len(before); {
		case n > 1:
			return fmt.Errorf("worker %d kill %d (%s): %d revisions appeared", w, k, mode, n)
		case finished && n != 1:
			return fmt.Errorf("worker %d kill %d (%s): the import finished but no revision was added", w, k, mode)
		case mode != "random" && mode != library.StepCommit && n != 0:
			return fmt.Errorf("worker %d kill %d paused before the commit at %s, yet a revision was committed", w, k, mode)
		case n == 1:
			count("committed")
		}
	}
	return nil
}

// TestLibraryConcurrent runs several petasset processes at once, importing
// and activating on one store: each succeeds or says "store busy", the
// invariants hold afterwards and every successful import left its
// revision.
func TestLibraryConcurrent(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	ids := []string{"pet_cona", "pet_conb", "pet_conc"}
	var archives []string
	for i, id := range ids {
		archives = append(archives, petpacktest.Variant(t, samplePetpack, dir, id, fmt.Sprintf("Con %d", i), ""))
	}
	imported := map[string]int{}
	busy := 0
	// In the last round the test holds the store's lock (library.lock, in
	// the documented layout) and every process waits at most 1 ms for it,
	// so each must give up with "store busy" rather than wait; left to the
	// processes' own contention, whether one gave up was a matter of timing.
	for round := 0; round < 4; round++ {
		var held *os.File
		if round == 3 {
			var err error
			if held, err = os.OpenFile(filepath.Join(root, "library.lock"), os.O_RDWR, 0); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for w := 0; w < 6; w++ {
			wg.Add(1)
			go func(round, w int) {
				defer wg.Done()
				var args []string
				id := ids[w%len(ids)]
				if w < 4 {
					args = []string{"library", "--root", root, "import", archives[w%len(archives)]}
				} else {
					args = []string{"library", "--root", root, "activate", id}
				}
				var stderr bytes.Buffer
				var env []string
				if round == 3 {
					env = []string{"PETASSET_TEST_LOCK_WAIT_MS=1"}
				}
				cmd := child(env, args...)
				cmd.Stderr = &stderr
				err := cmd.Run()
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && w < 4:
					imported[id]++
				case err == nil:
				case strings.Contains(stderr.String(), "store busy"):
					busy++
				case w >= 4 && strings.Contains(stderr.String(), "no such pet"):
					// activating a pet no import has committed yet
				default:
					t.Errorf("%v: %v: %s", args, err, stderr.String())
				}
			}(round, w)
		}
		wg.Wait()
		if held != nil {
			held.Close() // releases the lock
		}
	}
	s, err := library.Open(root, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if got := len(revisionsOf(s, id)); got != imported[id] {
			t.Errorf("%s: %d revisions, %d successful imports", id, got, imported[id])
		}
	}
	var doc struct{ Pets []library.Pet }
	_, stdout, _ := runCLI("library", "--root", root, "list", "--json")
	json.Unmarshal([]byte(stdout), &doc)
	if busy != 6 {
		t.Errorf("%d of the 6 processes reported store busy while the lock was held and they waited 1 ms", busy)
	}
	t.Logf("imports %v, busy %d, pets %d", imported, busy, len(doc.Pets))
}
