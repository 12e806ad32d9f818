package motionqa

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// The sample pet's checked-in golden archive and the review that
// //assets/petpack:production checks against it, read by their repository
// paths (the BUILD file lists both as data).
const (
	goldenArchive = "../../assets/petpack/pet_tabby.petpack.golden"
	goldenReview  = "../../assets/petpack/pet_tabby.motion-review.json"
)

// TestGoldenReviewBindsReport recomputes the QA report of the golden pet
// with this binary's Go and compares its SHA-256 with the one the
// checked-in review pins. The Bazel production test checks the same
// binding with the Go of the offline stack; this one makes "report.json
// is byte-identical wherever it is built" hold for the machine's Go too.
// The review, unchanged, must then pass verify-production.
func TestGoldenReviewBindsReport(t *testing.T) {
	data, err := os.ReadFile(goldenReview)
	if err != nil {
		t.Fatal(err)
	}
	review, err := decodeObject(data)
	if err != nil {
		t.Fatalf("%s: %v", goldenReview, err)
	}
	pinned, ok := str(review["report_sha256"])
	if !ok || len(pinned) != 64 {
		t.Fatalf("%s: report_sha256 is %v, not a SHA-256", goldenReview, review["report_sha256"])
	}
	qa := filepath.Join(t.TempDir(), "qa")
	res, err := Run(goldenArchive, qa, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(res.Report)
	if got := hex.EncodeToString(sum[:]); got != pinned {
		t.Fatalf("the golden pet's report.json has SHA-256 %s; %s pins %s.\n"+
			"If the frames, timing or the report's format changed on purpose, look at the QA's index.html and run\n"+
			"    bazel run //assets/petpack:production.update", got, goldenReview, pinned)
	}
	// Evidence named by a symbolic link is refused (evidence_unsafe), and
	// Bazel's runfiles are links: verify a copy of the review.
	ver, fails := VerifyProduction(VerifyOptions{Source: goldenArchive, Report: filepath.Join(qa, ReportName), Review: copyFile(t, goldenReview)})
	if !ver.OK {
		t.Errorf("verify-production of the golden pet with its checked-in review fails:\n%s", failuresText(fails))
	}
}
