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

	"github.com/agentpet/rules_pet/internal/testsupport/crashpoint"
	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/library"
)

const samplePetpack = "../../../assets/petpack/pet_tabby.petpack.golden"

// TestMain lets the crash and concurrency tests start real petasset
// processes: the test binary re-executed with PETASSET_TEST_CHILD=1 is
// petasset. PETASSET_TEST_STEPS=1 makes it announce each step of a write
// on stderr ("STEP name") as it starts it, and PETASSET_TEST_PAUSE=STEP
// makes it stop at that step (announced as "PAUSED name"), so the parent
// can kill it there.
func TestMain(m *testing.M) {
	if os.Getenv("PETASSET_TEST_CHILD") == "1" {
		pause := crashpoint.Pause("PETASSET_TEST_PAUSE", os.Stderr)
		announce := os.Getenv("PETASSET_TEST_STEPS") == "1"
		if pause != nil || announce {
			libraryOptions.Hook = func(name string) error {
				if announce {
					fmt.Fprintln(os.Stderr, "STEP "+name)
				}
				if pause != nil {
					return pause(name)
				}
				return nil
			}
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
	if code != exitRetry || !strings.Contains(stderr, "store busy") {
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
// random moment of the write; after each kill the next open must recover
// a store whose invariants hold, in which the import either happened
// completely or not at all (not at all when paused at a step, the commit
// hook included: it runs before the transaction commits) and no earlier
// revision is lost. At least a quarter of the random kills must land
// before the commit, or the random half would test little but finished
// imports.
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
	// The random moments are drawn after the child announces that the
	// archive validated, over 1.5 times the shortest write seen from there
	// to exit: process start-up and validation, which write nothing, vary
	// most with the machine's load, and would otherwise spread the kills
	// mostly outside the write. Three imports run to completion first;
	// every import the test sees finish shortens the span further if the
	// machine got faster.
	ws := &writeSpan{}
	for i := 0; i < 3; i++ {
		r := startImport(nil, filepath.Join(dir, "timing"), archives[i])
		if r.err != nil {
			t.Fatal(r.err)
		}
		if !r.waitFor("STEP " + library.StepValidated) {
			t.Fatalf("the timing import ended before it validated: %v\n%s", r.cmd.Wait(), strings.Join(r.seen, "\n"))
		}
		validated := time.Now()
		r.drain()
		if err := r.cmd.Wait(); err != nil {
			t.Fatalf("timing import: %v\n%s", err, strings.Join(r.seen, "\n"))
		}
		ws.observe(time.Since(validated))
	}
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
			errs[w] = crashWorker(w, kills/2, archives, ws, dir, func(k string) {
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
	t.Logf("%d kills (random moments over 1.5 x %v after validation): %v", kills, ws.get(), stats)
	random := kills / 2
	if want := random / 4; stats["random before commit"] < want {
		t.Errorf("%d of %d random kills landed between validation and the commit, want at least %d: %v", stats["random before commit"], random, want, stats)
	}
}

// writeSpan is the shortest time seen from an import's validation to its
// exit, shared by the crash workers.
type writeSpan struct {
	mu       sync.Mutex
	shortest time.Duration
}

func (w *writeSpan) observe(d time.Duration) {
	w.mu.Lock()
	if w.shortest == 0 || d < w.shortest {
		w.shortest = d
	}
	w.mu.Unlock()
}

func (w *writeSpan) get() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.shortest
}

// importRun is a started child import whose stderr lines arrive on lines.
type importRun struct {
	cmd   *exec.Cmd
	lines chan string
	seen  []string
	err   error
}

// startImport starts `petasset library --root root import archive` with
// its steps announced.
func startImport(env []string, root, archive string) *importRun {
	r := &importRun{cmd: child(append([]string{"PETASSET_TEST_STEPS=1"}, env...), "library", "--root", root, "import", archive)}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		r.err = err
		return r
	}
	if err := r.cmd.Start(); err != nil {
		r.err = err
		return r
	}
	r.lines = make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	return r
}

// waitFor reads lines until want; false if the child closed stderr first.
func (r *importRun) waitFor(want string) bool {
	for l := range r.lines {
		r.seen = append(r.seen, l)
		if l == want {
			return true
		}
	}
	return false
}

// drain reads the remaining lines, until the child's stderr closes.
func (r *importRun) drain() {
	for l := range r.lines {
		r.seen = append(r.seen, l)
	}
}

// crashWorker runs kills crash iterations; see TestLibraryCrash.
func crashWorker(w, kills int, archives []string, span *writeSpan, dir string, count func(string)) error {
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

		mode := "random"
		var env []string
		if k%2 == 0 {
			// The second worker starts halfway through the steps, so a
			// short run (ten pauses) still pauses at every step once.
			mode = crashSteps[(k/2+w*len(crashSteps)/2)%len(crashSteps)]
			env = []string{"PETASSET_TEST_PAUSE=" + mode}
		}
		r := startImport(env, root, archive)
		if r.err != nil {
			return r.err
		}
		var validated time.Time
		if mode == "random" {
			if !r.waitFor("STEP " + library.StepValidated) {
				return fmt.Errorf("worker %d kill %d: the import ended before it validated: %v\n%s", w, k, r.cmd.Wait(), strings.Join(r.seen, "\n"))
			}
			validated = time.Now()
			time.Sleep(time.Duration(rng.Int63n(int64(span.get()) * 3 / 2)))
		} else if !r.waitFor("PAUSED " + mode) {
			return fmt.Errorf("worker %d kill %d: the import ended before it paused at %s: %v\n%s", w, k, mode, r.cmd.Wait(), strings.Join(r.seen, "\n"))
		}
		r.cmd.Process.Signal(syscall.SIGKILL)
		r.drain()
		werr := r.cmd.Wait()
		finished := werr == nil
		killed := r.cmd.ProcessState.Sys().(syscall.WaitStatus).Signaled()
		if !finished && !killed {
			return fmt.Errorf("worker %d kill %d (%s): the import failed on its own: %v\n%s", w, k, mode, werr, strings.Join(r.seen, "\n"))
		}
		if finished && mode == "random" {
			span.observe(time.Since(validated))
		}
		count(mode)
		left, err := os.ReadDir(filepath.Join(root, "staging"))
		if err != nil {
			return err
		}

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
		n := len(after) - len(before)
		switch {
		case n > 1:
			return fmt.Errorf("worker %d kill %d (%s): %d revisions appeared", w, k, mode, n)
		case finished && n != 1:
			return fmt.Errorf("worker %d kill %d (%s): the import finished but no revision was added", w, k, mode)
		case mode != "random" && n != 0:
			return fmt.Errorf("worker %d kill %d paused at %s, before the commit, yet a revision was committed", w, k, mode)
		}
		if mode == "random" {
			switch {
			case n == 0:
				count("random before commit")
			case !finished:
				count("random after commit")
			default:
				count("random after exit")
			}
			if len(left) > 0 {
				count("random left staging/ to recover")
			}
		}
	}
	return nil
}

// TestLibraryConcurrent runs several petasset processes at once, importing
// and activating on one store: in the first three rounds each waits up to
// a minute for the lock and must succeed (no "store busy"); in the last the
// test holds the lock and each waits 1 ms, so all six must say "store
// busy". The invariants hold afterwards and every successful import left
// its revision.
func TestLibraryConcurrent(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	ids := []string{"pet_cona", "pet_conb", "pet_conc"}
	var archives []string
	for i, id := range ids {
		archives = append(archives, petpacktest.Variant(t, samplePetpack, dir, id, fmt.Sprintf("Con %d", i), ""))
	}
	imported := map[string]int{}
	var busy [4]int
	// In the first three rounds the wait is far above a loaded machine's
	// time for six imports in a row, so a process giving up there is a
	// broken lock wait, not a slow machine (the default 5 s was not). In
	// the last round the test holds the store's lock (library.lock, in the
	// documented layout) and every process waits at most 1 ms for it, so
	// each must give up with "store busy" rather than wait; left to the
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
				env := []string{"PETASSET_TEST_LOCK_WAIT_MS=60000"}
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
					busy[round]++
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
	for round, n := range busy {
		switch {
		case round < 3 && n != 0:
			t.Errorf("round %d: %d of the 6 processes reported store busy although they could wait a minute for the lock", round, n)
		case round == 3 && n != 6:
			t.Errorf("round %d: %d of the 6 processes reported store busy while the test held the lock and they waited 1 ms", round, n)
		}
	}
	t.Logf("imports %v, busy per round %v, pets %d", imported, busy, len(doc.Pets))
}
