package motionqa

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/tools/petpackbuild"
)

const benchEnv = "MOTIONQA_BENCH_CHILD"

// benchChild runs one QA or one build in a fresh process so its peak
// resident memory can be read from the kernel (TestMain dispatches here).
func benchChild(spec string) {
	var job struct {
		Op, Src, Out, Spec, Dir string
	}
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	var err error
	switch job.Op {
	case "qa":
		_, err = Run(job.Src, job.Out, Options{})
	case "build":
		var s *petpackbuild.Spec
		data, rerr := os.ReadFile(job.Spec)
		if rerr == nil {
			s, rerr = petpackbuild.ParseSpec(data)
		}
		if rerr != nil {
			err = rerr
			break
		}
		read := func(name string) ([]byte, error) {
			return os.ReadFile(filepath.Join(job.Dir, filepath.FromSlash(name)))
		}
		_, err = petpackbuild.BuildSpec(s, read, job.Out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	// VmHWM is this process's own peak (the rusage of a forked child
	// would include the parent's size at fork time).
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "VmHWM:"), "kB")))
		}
	}
	os.Exit(0)
}

// peakRSS runs op in a child process and returns its peak resident set
// in MiB.
func peakRSS(b *testing.B, job map[string]string) float64 {
	data, _ := json.Marshal(job)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchEnv+"="+string(data))
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	kib, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		b.Fatalf("peak memory %q: %v", out, err)
	}
	return float64(kib) / 1024
}

// BenchmarkQA runs QA of the sample pet (low tier) and of a high-tier pet
// (576x624, the sample frames enlarged 3x) against `petasset petpack
// build` of the same pet: ns/op is QA; the metrics give the build's time,
// QA/build and each one's peak resident memory in its own process.
func BenchmarkQA(b *testing.B) {
	for _, tier := range []struct {
		name  string
		scale int
	}{{"sample-low", 1}, {"high-576x624", 3}} {
		b.Run(tier.name, func(b *testing.B) {
			f := sampleFixture(b)
			if tier.scale > 1 {
				f = f.scaled(tier.scale)
			}
			s, read, archive := f.spec(b)
			start := time.Now()
			if _, err := petpackbuild.BuildSpec(s, read, archive); err != nil {
				b.Fatal(err)
			}
			buildTime := time.Since(start)
			specPath := filepath.Join(filepath.Dir(archive), "spec.json")
			data, _ := json.Marshal(s)
			os.WriteFile(specPath, data, 0o644)
			out := filepath.Join(b.TempDir(), "qa")
			b.ResetTimer()
			qaStart := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := Run(archive, out, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			qaTime := time.Since(qaStart) / time.Duration(b.N)
			b.ReportMetric(float64(buildTime.Milliseconds()), "build-ms")
			b.ReportMetric(float64(qaTime)/float64(buildTime), "qa/build")
			b.ReportMetric(peakRSS(b, map[string]string{"Op": "qa", "Src": archive, "Out": filepath.Join(b.TempDir(), "qa")}), "qa-peak-MiB")
			b.ReportMetric(peakRSS(b, map[string]string{"Op": "build", "Spec": specPath, "Dir": filepath.Dir(archive), "Out": filepath.Join(b.TempDir(), "x.petpack")}), "build-peak-MiB")
		})
	}
}
