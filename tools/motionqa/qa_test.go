package motionqa

import (
	"path/filepath"
	"testing"
)

func TestSamplePasses(t *testing.T) {
	src := sampleFixture(t).build(t)
	qa, rv := qaAndReview(t, src, Options{})
	ver, fails := VerifyProduction(VerifyOptions{Source: src, Report: filepath.Join(qa, ReportName), Review: rv})
	if len(fails) > 0 || !ver.OK {
		t.Fatalf("sample pet fails verify-production:\n%s", failuresText(fails))
	}
}
