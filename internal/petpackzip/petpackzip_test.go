package petpackzip

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/internal/strictzip"
)

// stored is an archive of n empty stored files, the first named first.
func stored(t *testing.T, n int, first string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("f%05d", i)
		if i == 0 {
			name = first
		}
		if _, err := w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestOpenLimits: each budget refuses one past it and nothing at it; a
// name past MaxPathBytes is held cut to one byte over, so the validator
// still sees that it is too long.
func TestOpenLimits(t *testing.T) {
	long := strings.Repeat("n", MaxPathBytes+100)
	for _, tc := range []struct {
		name     string
		archive  []byte
		size     int64 // 0: the archive's length
		want     strictzip.Reason
		firstLen int
	}{
		{name: "entries at the limit", archive: stored(t, MaxEntries, "a"), firstLen: 1},
		{name: "one entry too many", archive: stored(t, MaxEntries+1, "a"), want: strictzip.TooManyEntries},
		{name: "name at the limit", archive: stored(t, 1, long[:MaxPathBytes]), firstLen: MaxPathBytes},
		{name: "name over the limit", archive: stored(t, 1, long), firstLen: MaxPathBytes + 1},
		{name: "archive over the limit", archive: stored(t, 1, "a"), size: MaxArchiveBytes + 1, want: strictzip.ArchiveTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			size := int64(len(tc.archive))
			if tc.size != 0 {
				size = tc.size
			}
			a, err := Open(bytes.NewReader(tc.archive), size)
			if tc.want != "" {
				var zerr *strictzip.Error
				if !errors.As(err, &zerr) || zerr.Problems[0].Reason != tc.want {
					t.Fatalf("Open = %v, want a refusal for %s", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if got := len(a.Entries()[0].Name); got != tc.firstLen {
				t.Errorf("the first name is held as %d bytes, want %d", got, tc.firstLen)
			}
		})
	}
}
