package main

// The desktop pet's figures (docs/benchmarks.md), as benchmarks that report
// them; nothing here asserts a time:
//
//	go test ./tools/cmd/petdesk -run '^$' -bench . -benchtime 5x
//
// BenchmarkFirstFrame: exec to the first frame on screen (the window
// mapped and a round trip acknowledged, petdesk's "first" trace line read
// from its pipe), and the peak resident set (VmHWM) 1 s later.
// BenchmarkAnimating: per animation, the mean and worst lateness of the
// shown frames against the boundaries the pet scheduled, and the CPU
// time the pet spent per second of playing.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/library"
)

// firstFrame runs petdesk with args, returns the time from exec to its
// first frame and its VmHWM in KiB 1 s later, and stops it.
func firstFrame(b *testing.B, display string, args ...string) (time.Duration, int) {
	cmd, errOut := command(display, append([]string{"--trace", "/dev/stdout"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var l desktop.TraceLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Kind == "first" {
			elapsed := time.Since(start)
			time.Sleep(time.Second)
			return elapsed, vmHWM(b, cmd.Process.Pid)
		}
	}
	b.Fatalf("petdesk %v: no first frame: %s", args, errOut.String())
	return 0, 0
}

func vmHWM(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	b.Fatal("no VmHWM")
	return 0
}

// sampleLibrary installs the sample pet into a new library.
func sampleLibrary(b *testing.B) string {
	root := b.TempDir()
	s, err := library.Open(root, library.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// Import takes regular files only; Bazel's runfiles are links.
	data, err := os.ReadFile(petpackPath)
	if err != nil {
		b.Fatal(err)
	}
	archive := filepath.Join(b.TempDir(), "pet_tabby.petpack")
	if err := os.WriteFile(archive, data, 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Import(archive, library.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	return root
}

func BenchmarkFirstFrame(b *testing.B) {
	x := startXvfb(b, 24)
	lib := sampleLibrary(b)
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"pack", []string{"--pack", packPath}},
		{"library_sample", []string{"--library", lib, "--pet", "pet_tabby"}},
		{"petpack_file_sample", []string{"--petpack", petpackPath}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var total time.Duration
			hwm := 0
			for i := 0; i < b.N; i++ {
				d, h := firstFrame(b, x.display, bc.args...)
				total += d
				if h > hwm {
					hwm = h
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "first_ms")
			b.ReportMetric(float64(hwm)/1024, "VmHWM_MiB")
		})
	}
	b.Run("petpack_validate", func(b *testing.B) {
		// Validation's share of the .petpack file's start.
		for i := 0; i < b.N; i++ {
			if _, _, err := desktop.OpenPetpack(petpackPath); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpuTicks is the process's user+system time in clock ticks (1/100 s).
func cpuTicks(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

func BenchmarkAnimating(b *testing.B) {
	x := startXvfb(b, 24)
	dir := b.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	b.Setenv("XDG_RUNTIME_DIR", dir)
	type anim struct {
		name string
		args []string
		msg  *control.Message
	}
	var cases []anim
	for _, r := range []string{"expression_happy"} {
		cases = append(cases, anim{"pack_" + r, []string{"--pack", packPath, "--role", r}, nil})
	}
	for _, e := range []string{"start", "thinking", "tool", "waiting", "done", "failed"} {
		m := control.EventMessage(e)
		cases = append(cases, anim{"petpack_" + e, []string{"--petpack", petpackPath}, &m})
	}
	for i, c := range cases {
		c := c
		id := fmt.Sprintf("bench%d", i)
		b.Run(c.name, func(b *testing.B) {
			var late, worst, shows int64
			var cpu, ms int
			for n := 0; n < b.N; n++ {
				trace := filepath.Join(b.TempDir(), "trace.jsonl")
				cmd, _ := command(x.display, append([]string{"--trace", trace, "--id", id}, c.args...)...)
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				// The pet listens once it has loaded (a .petpack is
				// validated first); the figures start 500 ms later.
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
					m := control.ReduceMotionMessage(false)
					if c.msg != nil {
						m = *c.msg
					}
					err := control.Send(id, m)
					if err == nil {
						break
					}
					if time.Now().After(deadline) {
						b.Fatal(err)
					}
				}
				time.Sleep(500 * time.Millisecond)
				c0 := cpuTicks(b, cmd.Process.Pid)
				time.Sleep(3 * time.Second)
				cpu += cpuTicks(b, cmd.Process.Pid) - c0
				ms += 3000
				cmd.Process.Kill()
				cmd.Wait()
				data, _ := os.ReadFile(trace)
				for _, s := range strings.Split(string(data), "\n") {
					var l desktop.TraceLine
					if json.Unmarshal([]byte(s), &l) != nil || l.Kind != "show" || l.AtMS < 500 || l.DueMS == l.AtMS && l.DueMS == 0 {
						continue
					}
					d := l.AtMS - l.DueMS
					late += d
					shows++
					if d > worst {
						worst = d
					}
				}
			}
			if shows > 0 {
				b.ReportMetric(float64(late)/float64(shows), "late_mean_ms")
			}
			b.ReportMetric(float64(worst), "late_max_ms")
			b.ReportMetric(float64(shows)/float64(b.N), "frames/3s")
			b.ReportMetric(float64(cpu)*10/float64(ms)*100, "cpu_%")
		})
	}
}
