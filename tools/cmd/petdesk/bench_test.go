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

	"github.com/agentpet/rules_pet/internal/testsupport/petpacktest"
	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/library"
)

// startup is one start of petdesk: the time from exec to its first frame,
// its VmHWM in KiB 1 s later, and its own "load" and "first" trace lines,
// which split that time.
type startup struct {
	elapsed     time.Duration
	hwm         int
	load, first desktop.TraceLine
}

// firstFrame runs petdesk with args, returns its startup and stops it.
func firstFrame(b *testing.B, display string, args ...string) startup {
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
	var s startup
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var l desktop.TraceLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch l.Kind {
		case "load":
			s.load = l
		case "first":
			s.elapsed = time.Since(start)
			s.first = l
			time.Sleep(time.Second)
			s.hwm = vmHWM(b, cmd.Process.Pid)
			return s
		}
	}
	b.Fatalf("petdesk %v: no first frame: %s", args, errOut.String())
	return s
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

// libraryOf installs the .petpack archive into a new library.
func libraryOf(b *testing.B, archive string) string {
	root := b.TempDir()
	s, err := library.Open(root, library.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// Import takes regular files only; Bazel's runfiles are links.
	data, err := os.ReadFile(archive)
	if err != nil {
		b.Fatal(err)
	}
	regular := filepath.Join(b.TempDir(), filepath.Base(archive))
	if err := os.WriteFile(regular, data, 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Import(regular, library.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	return root
}

func BenchmarkFirstFrame(b *testing.B) {
	x := startXvfb(b, 24)
	lib := libraryOf(b, petpackPath)
	// The high-tier pet (576x624, 240 frames) is made by the package
	// writer; no such pet is checked in.
	high := filepath.Join(b.TempDir(), "pet_hightier.petpack")
	petpacktest.HighTierPet(b, high)
	highLib := libraryOf(b, high)
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"pack", []string{"--pack", packPath}},
		{"library_sample", []string{"--library", lib, "--pet", "pet_tabby"}},
		{"library_hightier", []string{"--library", highLib, "--pet", "pet_hightier"}},
		{"petpack_file_sample", []string{"--petpack", petpackPath}},
		{"petpack_file_hightier", []string{"--petpack", high}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var total, load, connect, decode, upload int64
			hwm := 0
			for i := 0; i < b.N; i++ {
				s := firstFrame(b, x.display, bc.args...)
				total += s.elapsed.Microseconds()
				load += s.load.LoadUS
				connect += s.load.ConnectUS
				decode += s.first.DecodeUS
				upload += s.first.UploadUS
				if s.hwm > hwm {
					hwm = s.hwm
				}
			}
			// Means over the runs, in milliseconds; the parts come
			// from the same runs' trace lines (load_ms is a .petpack
			// file's validation and its archive's reading).
			for _, m := range []struct {
				us   int64
				unit string
			}{{total, "first_ms"}, {load, "load_ms"}, {connect, "connect_ms"}, {decode, "decode_ms"}, {upload, "upload_ms"}} {
				b.ReportMetric(float64(m.us)/1000/float64(b.N), m.unit)
			}
			b.ReportMetric(float64(hwm)/1024, "VmHWM_MiB")
		})
	}
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
