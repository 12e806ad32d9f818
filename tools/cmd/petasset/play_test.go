package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// samplePath is the sample .petpack, read by path (its bytes are not
// asserted here).
const samplePath = "../../../assets/petpack/pet_tabby.petpack.golden"

// sample returns the sample's real path: Bazel's runfiles are symbolic
// links, which a .petpack path may not be.
func sample(t *testing.T) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeScript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPetpackPlay runs the example script and checks the trace
// line by line.
func TestPetpackPlay(t *testing.T) {
	samplePet := sample(t)
	s := writeScript(t,
		`{"t_ms":0,"event":"thinking"}`,
		`{"t_ms":900,"pointer":"down"}`,
		`{"t_ms":950,"bubble":true}`,
		`{"t_ms":1000,"reduce_motion":true}`,
		`{"t_ms":1200,"stall_ms":4000}`,
		`{"t_ms":9000,"end":true}`)
	code, stdout, stderr := runCLI("petpack", "play", samplePet, "--script", s)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// thinking's first pass and a half; the press at 900 until Reduce
	// Motion ends it at 1000 (thinking's representative frame is 2); the
	// stall hides the burst's end at 1800, so idle's representative frame
	// shows once at 5200.
	want := strings.Join([]string{
		`{"t_ms":0,"action":"thinking","frame":0,"scale":1}`,
		`{"t_ms":120,"action":"thinking","frame":1,"scale":1}`,
		`{"t_ms":260,"action":"thinking","frame":2,"scale":1}`,
		`{"t_ms":420,"action":"thinking","frame":3,"scale":1}`,
		`{"t_ms":600,"action":"thinking","frame":0,"scale":1}`,
		`{"t_ms":720,"action":"thinking","frame":1,"scale":1}`,
		`{"t_ms":860,"action":"thinking","frame":2,"scale":1}`,
		`{"t_ms":900,"action":"thinking","frame":2,"scale":0.97}`,
		`{"t_ms":1000,"action":"thinking","frame":2,"scale":1}`,
		`{"t_ms":5200,"action":"idle","frame":2,"scale":1}`,
	}, "\n") + "\n"
	if stdout != want {
		t.Fatalf("trace:\n%s\nwant:\n%s", stdout, want)
	}
}

// TestPetpackPlaySeed checks that the seed picks the cooldowns and that
// one seed always gives the same bytes.
func TestPetpackPlaySeed(t *testing.T) {
	samplePet := sample(t)
	s := writeScript(t, `{"t_ms":120000,"end":true}`)
	_, a, _ := runCLI("petpack", "play", samplePet, "--script", s)
	_, b, _ := runCLI("petpack", "play", samplePet, "--script", s, "--seed", "1")
	_, c, _ := runCLI("petpack", "play", "--seed", "2", samplePet, "--script", s)
	if a == "" || a != b {
		t.Fatal("the default seed is not 1, or one seed gave two traces")
	}
	if a == c {
		t.Fatal("seeds 1 and 2 drew the same cooldowns")
	}
}

func TestPetpackPlayErrors(t *testing.T) {
	samplePet := sample(t)
	dir := t.TempDir()
	notZip := filepath.Join(dir, "bad.petpack")
	if err := os.WriteFile(notZip, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := writeScript(t, `{"t_ms":0,"end":true}`)
	bad := writeScript(t, `{"t_ms":0,"event":"thinking"}`, `{"t_ms":10,"event":"review"}`, `{"t_ms":20,"end":true}`)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no pet", []string{"petpack", "play"}, exitUsage, "want a PET.petpack argument"},
		{"no script", []string{"petpack", "play", samplePet}, exitUsage, "--script is required"},
		{"bad seed", []string{"petpack", "play", samplePet, "--script", good, "--seed", "x"}, exitUsage, `--seed "x" is not an integer`},
		{"invalid archive", []string{"petpack", "play", notZip, "--script", good}, exitRejected, notZip + ": zip_end_missing: "},
		{"missing script", []string{"petpack", "play", samplePet, "--script", filepath.Join(dir, "nope")}, exitRejected, "script_unreadable"},
		{"bad line", []string{"petpack", "play", samplePet, "--script", bad}, exitRejected, bad + `:2: script_malformed: unknown agent event "review"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, c.want)
			}
			if stdout != "" {
				t.Fatalf("printed %q for a rejected run", stdout)
			}
		})
	}
}
