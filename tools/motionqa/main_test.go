package motionqa

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The sample pet's archive and its approved evidence are built once; tests
// that only damage evidence copy them.
var (
	baseOnce                    sync.Once
	baseDir                     string
	baseSrc, baseQA, baseReview string
	baseErr                     error
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(publishEnv); spec != "" {
		publishChild(spec)
	}
	if spec := os.Getenv(crashEnv); spec != "" {
		crashChild(spec)
	}
	if spec := os.Getenv(benchEnv); spec != "" {
		benchChild(spec)
	}
	code := m.Run()
	if baseDir != "" {
		os.RemoveAll(baseDir)
	}
	os.Exit(code)
}

// base returns the sample pet archive, its QA directory and review. Do not
// modify them; copyQA gives a private copy.
func base(t *testing.T) (src, qa, review string) {
	t.Helper()
	baseOnce.Do(func() {
		baseDir, baseErr = os.MkdirTemp("", "motionqa-base-")
		if baseErr != nil {
			return
		}
		bt := &onceTB{TB: t, dir: baseDir}
		baseSrc = sampleFixture(bt).build(bt)
		baseQA = filepath.Join(baseDir, "qa")
		if _, baseErr = Run(baseSrc, baseQA, Options{}); baseErr != nil {
			return
		}
		baseReview = reviewInto(bt, baseQA, filepath.Join(baseDir, "review.json"))
	})
	if baseErr != nil {
		t.Fatal(baseErr)
	}
	return baseSrc, baseQA, baseReview
}

// onceTB is a testing.TB whose TempDir outlives the test that first asks
// for the shared base.
type onceTB struct {
	testing.TB
	dir string
	n   int
}

func (o *onceTB) TempDir() string {
	o.n++
	d := filepath.Join(o.dir, "t"+string(rune('a'+o.n)))
	if err := os.MkdirAll(d, 0o755); err != nil {
		o.Fatal(err)
	}
	return d
}

// copyQA copies a QA directory into a new one and returns its path.
func copyQA(t *testing.T, qa string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "qa")
	err := filepath.Walk(qa, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(qa, p)
		to := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
