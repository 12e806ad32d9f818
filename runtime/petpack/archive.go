package petpack

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentpet/rules_pet/internal/petpackzip"
	"github.com/agentpet/rules_pet/internal/strictzip"
)

// zipRule is the rule of a reader problem. internal/strictzip's reasons
// are this package's rule identifiers for the same problems, so the rule is
// the reason itself (TestZipRules checks every reason is a rule); a reason
// that is not one is a bug in this package, not in the input.
func zipRule(r strictzip.Reason) Rule {
	rule := Rule(r)
	if rule.Stage() == 0 {
		panic("petpack: the ZIP reader's reason " + string(r) + " is not a rule")
	}
	return rule
}

// archive is a ZIP file whose structure stage 1 has accepted.
type archive struct {
	entries []strictzip.Entry
}

// readArchive is stage 1 for an archive, with the two budgets that must
// come before the central directory is read: internal/petpackzip reads the
// structure under them, and each problem it finds becomes a finding, in its
// order. It returns nil when the archive is rejected; every finding is in c.
func readArchive(c *checker, r io.ReaderAt, size int64) *archive {
	za, err := petpackzip.Open(r, size)
	var zerr *strictzip.Error
	switch {
	case errors.As(err, &zerr):
		for _, p := range zerr.Problems {
			c.fail(zipRule(p.Reason), safePath(p.Name), "", "%s", p.Msg)
		}
		return nil
	case err != nil:
		c.fail(RulePackageUnreadable, "", "", "%v", err)
		return nil
	}
	return &archive{entries: za.Entries()}
}

// fileSet turns the accepted archive into the core's abstract file set.
func (a *archive) fileSet() *fileSet {
	fs := &fileSet{src: a, entries: make([]entry, len(a.entries))}
	for i := range a.entries {
		e := &a.entries[i]
		name := e.Name
		if e.IsDir() {
			name = strings.TrimSuffix(name, "/")
		}
		fs.entries[i] = entry{name: name, dir: e.IsDir(), size: e.UncompressedSize, ref: i}
	}
	return fs
}

func (a *archive) sealed() bool { return true }

// open returns the entry's bounded, CRC-checked content, with the reader's
// problems as the *contentError the stages handle.
func (a *archive) open(e *entry) (io.ReadCloser, error) {
	rc, err := a.entries[e.ref].Open()
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", safePath(e.name), err)
	}
	return zipContent{rc}, nil
}

// zipContent reports a reader problem under its rule.
type zipContent struct{ rc io.ReadCloser }

func (z zipContent) Read(p []byte) (int, error) {
	n, err := z.rc.Read(p)
	var prob *strictzip.Problem
	if err != nil && err != io.EOF && errors.As(err, &prob) {
		return n, &contentError{zipRule(prob.Reason), prob.Msg}
	}
	return n, err
}

func (z zipContent) Close() error { return z.rc.Close() }
