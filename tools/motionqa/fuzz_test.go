package motionqa

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReview feeds untrusted report.json bytes (evidence from another
// tool) to the review writer: it must not panic, and a review it writes
// must bind the exact bytes and decode as an approved review.
func FuzzReview(f *testing.F) {
	f.Add([]byte(`{"schema_version":"apc.pet-motion-qa.v1","audited_states":["idle"],"frame_set_digest":"ab","states":{"idle":{"previews":{"authored_timing":"p.webp"},"warnings":[{"code":"near_inert_motion"}]}}}`))
	f.Add([]byte(`{"schema_version":"apc.pet-motion-qa.v1","audited_states":["idle","idle"]}`))
	f.Add([]byte(`{"schema_version":"apc.pet-motion-qa.v1","audited_states":[],"states":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := reviewOf("report.json", data, map[string]string{}, sampleNotes)
		if err != nil {
			return
		}
		doc, err := decodeObject(out)
		if err != nil {
			t.Fatalf("the review does not decode: %v\n%s", err, out)
		}
		sum := sha256.Sum256(data)
		if doc["report_sha256"] != hex.EncodeToString(sum[:]) || doc["status"] != "approved" || doc["schema_version"] != ReviewSchema {
			t.Fatalf("the review does not bind the report: %s", out)
		}
	})
}

// FuzzArtifactPath feeds a report's artifact path: a path it accepts must
// name an existing file inside the QA directory.
func FuzzArtifactPath(f *testing.F) {
	root := f.TempDir()
	os.MkdirAll(filepath.Join(root, "previews"), 0o755)
	os.WriteFile(filepath.Join(root, "previews", "a.webp"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(root), "outside.webp"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(filepath.Dir(root), "outside.webp"), filepath.Join(root, "link.webp"))
	for _, s := range []string{"previews/a.webp", "../outside.webp", "/etc/passwd", "link.webp", "previews//a.webp", "previews\\a.webp", "./previews/a.webp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		p, err := artifactPath(root, rel)
		if err != nil {
			return
		}
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") || filepath.IsAbs(r) {
			t.Fatalf("artifactPath(%q) = %s, outside %s", rel, p, root)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink != 0 {
			t.Fatalf("artifactPath(%q) = %s: %v", rel, p, err)
		}
	})
}
