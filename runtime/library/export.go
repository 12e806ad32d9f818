package library

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

// timingWarnings are the production targets of section 5; export compares
// them apart from the ordinary warnings, as section 8 lists them.
var timingWarnings = map[petpack.Rule]bool{
	petpack.RuleFrameCountUnusual:  true,
	petpack.RuleActionDurationLong: true,
	petpack.RuleFrameRateUnusual:   true,
}

// Export writes a pet's installed archive (its current revision, or rev
// when not 0) to dest, losslessly: a copy staged beside dest and synced,
// whose hash must be the revision's, is validated and compared with the
// installed revision (manifest, frames, timing warnings, other warnings)
// and only then renamed over dest. A failed export leaves dest as it was
// and nothing beside it.
func (s *Store) Export(id, dest string, rev int) error {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return err
	}
	dir := filepath.Dir(abs)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	realRoot, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(realRoot, filepath.Join(realDir, filepath.Base(abs))); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: %w", dest, ErrDestInRoot)
	}
	if info, err := os.Lstat(abs); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s exists and is not a regular file; export replaces only a regular file", dest)
	}
	return s.locked(false, func() error {
		p, err := s.mustGet(id)
		if err != nil {
			return err
		}
		if rev == 0 {
			rev = p.Revision
		}
		var digest string
		if err := s.db.QueryRow("SELECT digest FROM revisions WHERE pet_id = ? AND revision = ?", id, rev).Scan(&digest); err != nil {
			return fmt.Errorf("%s: revision %d: %w", id, rev, ErrNotFound)
		}
		installed := s.ArchivePath(id, rev)
		if err := s.step(StepExportCopy); err != nil {
			return err
		}
		tmp := filepath.Join(realDir, "."+filepath.Base(abs)+".export-"+randomName())
		published := false
		defer func() {
			if !published {
				os.Remove(tmp)
			}
		}()
		f, err := os.Open(installed)
		if err != nil {
			return err
		}
		got, err := copySynced(tmp, f)
		f.Close()
		if err != nil {
			return err
		}
		if got != digest {
			return fmt.Errorf("%s: the installed archive of revision %d does not match its recorded digest", id, rev)
		}
		if err := s.step(StepExportValidate); err != nil {
			return err
		}
		if err := compareExport(installed, tmp); err != nil {
			return fmt.Errorf("%s: export of revision %d: %w", id, rev, err)
		}
		if err := s.step(StepExportPublish); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(realDir, filepath.Base(abs))); err != nil {
			return err
		}
		published = true
		return durable.SyncDir(realDir)
	})
}

// compareExport validates the staged copy and compares its results with
// the installed revision's.
func compareExport(installed, staged string) error {
	ps, vs := petpack.OpenPath(staged)
	if ps == nil {
		return fmt.Errorf("the staged copy does not validate: %w", vs.Err())
	}
	defer ps.Close()
	pi, vi := petpack.OpenPath(installed)
	if pi == nil {
		return fmt.Errorf("the installed revision no longer validates: %w", vi.Err())
	}
	defer pi.Close()
	if !reflect.DeepEqual(vi.Manifest, vs.Manifest) {
		return fmt.Errorf("the staged copy's manifest differs from the installed one")
	}
	if !reflect.DeepEqual(frameList(pi), frameList(ps)) {
		return fmt.Errorf("the staged copy's frames differ from the installed ones")
	}
	ti, oi := splitWarnings(vi.Warnings)
	ts, ot := splitWarnings(vs.Warnings)
	if !reflect.DeepEqual(ti, ts) {
		return fmt.Errorf("the staged copy's timing warnings differ from the installed ones")
	}
	if !reflect.DeepEqual(oi, ot) {
		return fmt.Errorf("the staged copy's warnings differ from the installed ones")
	}
	return nil
}

func splitWarnings(ws []petpack.Finding) (timing, other []petpack.Finding) {
	for _, w := range ws {
		if timingWarnings[w.Rule] {
			timing = append(timing, w)
		} else {
			other = append(other, w)
		}
	}
	return timing, other
}

// frameList is the validated archive's frame entries with their sizes and
// CRCs, in path order.
func frameList(p *petpack.Package) []petpack.PackageEntry {
	var out []petpack.PackageEntry
	for _, e := range p.Entries() {
		if strings.HasPrefix(e.Path, "assets/frames/") {
			e.StoredSize = 0 // how a frame is compressed is not what it is
			out = append(out, e)
		}
	}
	return out
}
