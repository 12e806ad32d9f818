package petpackbuild

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/tools/internal/atomicfile"
)

// Options are the writer's choices that the package files do not make.
type Options struct {
	// CoverFrame is the package path of the frame cover.png is made from
	// when the package has no cover; "" takes the idle action's
	// reduced-motion frame.
	CoverFrame string
	// Validator and ValidatorVersion are recorded in
	// build/validation.json; "" records DefaultValidator and
	// DefaultValidatorVersion.
	Validator, ValidatorVersion string
}

// DefaultValidator and DefaultValidatorVersion are this writer's entry in
// build/validation.json: a fixed name and the version of the rules it
// applies, never a machine or a build time, so the archive stays
// byte-identical across machines.
const (
	DefaultValidator        = "rules_pet-petasset"
	DefaultValidatorVersion = "2"
)

// Result is a written package.
type Result struct {
	// Files are the package's files as archived, in path order, including
	// the previews and build/validation.json the writer made.
	Files []File
	// Archive is the .petpack bytes.
	Archive []byte
	// Verdict is the validator's verdict on Archive: no errors, and the
	// warnings build/validation.json lists.
	Verdict *petpack.Verdict
}

// Pack completes a package and archives it. Previews the files lack are
// made from the authored frames (cover.png from one frame, the animated
// preview from whole actions at their authored durations);
// build/validation.json is always written by Pack, from its own verdict on
// the finished archive, replacing any the files carry: a report is only
// true of the bytes it was made for. On a rejection the error wraps
// ErrInvalid and the verdict, when there is one, says why.
func Pack(files []File, opt Options) (*Result, error) {
	if opt.Validator == "" {
		opt.Validator, opt.ValidatorVersion = DefaultValidator, DefaultValidatorVersion
	}
	idx := map[string]File{}
	for _, f := range files {
		if _, dup := idx[f.Path]; dup {
			return nil, fmt.Errorf("package file %s: given twice", f.Path)
		}
		idx[f.Path] = f
	}
	mv := petpack.ValidateManifest(idx["manifest.json"].Data)
	if !mv.OK() {
		// Without a manifest nothing can be completed; the verdict on the
		// files as given says everything that is wrong, not only that.
		return archiveOf(idx)
	}
	m := mv.Manifest
	frames := framesOf(idx)
	if _, ok := idx[CoverPath]; !ok {
		data, err := makeCover(m, frames, opt.CoverFrame)
		switch {
		case err == nil:
			idx[CoverPath] = File{Path: CoverPath, Data: data}
		case opt.CoverFrame != "" && !errors.Is(err, errNoPreview):
			return nil, err
		}
		// Without a usable idle frame to show there is no default cover;
		// the verdict names the frame and the missing cover.
	}
	if _, ok := idx[PreviewPath]; !ok {
		data, err := makeAnimatedPreview(m, frames)
		switch {
		case err == nil:
			idx[PreviewPath] = File{Path: PreviewPath, Data: data}
		case !errors.Is(err, errNoPreview):
			return nil, err
		}
	}
	// Twice: the report must list the warnings of the archive that holds
	// it, and the first pass is what finds them. Nothing the report says
	// feeds a warning, so the second verdict confirms the first.
	var res *Result
	var verdict *petpack.Verdict
	var report petpack.ValidationReport
	for pass := 0; pass < 2; pass++ {
		report = Report(m, verdict, opt.Validator, opt.ValidatorVersion)
		data, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return nil, err
		}
		idx[validationPath] = File{Path: validationPath, Data: append(data, '\n')}
		res, err = archiveOf(idx)
		if err != nil {
			return res, err
		}
		verdict = res.Verdict
	}
	if again := Report(m, res.Verdict, opt.Validator, opt.ValidatorVersion); fmt.Sprint(again) != fmt.Sprint(report) {
		return res, fmt.Errorf("build/validation.json lists warnings %v %v but the archive warns %v %v", report.TimingWarnings, report.Warnings, again.TimingWarnings, again.Warnings)
	}
	return res, nil
}

const validationPath = "build/validation.json"

// archiveOf archives the files and validates the archive bytes.
func archiveOf(idx map[string]File) (*Result, error) {
	res := &Result{Files: make([]File, 0, len(idx))}
	for _, f := range idx {
		res.Files = append(res.Files, f)
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	var err error
	if res.Archive, err = Archive(res.Files); err != nil {
		return nil, err
	}
	res.Verdict = petpack.Validate(bytes.NewReader(res.Archive), int64(len(res.Archive)))
	if !res.Verdict.OK() {
		return res, fmt.Errorf("%w: %v", ErrInvalid, res.Verdict.Err())
	}
	return res, nil
}

// Publish writes the result's archive at out through a temporary file that
// is validated again as a file, on disk, before it is renamed into place:
// out either keeps its old content or holds an archive that was proven
// valid where it lies.
func Publish(res *Result, out string) error {
	return atomicfile.WriteChecked(out, res.Archive, 0o644, func(tmp string) error {
		v := petpack.ValidatePath(tmp)
		if !v.OK() {
			return fmt.Errorf("written archive %s: %w: %v", out, ErrInvalid, v.Err())
		}
		return nil
	})
}

// removeStale deletes a previous output so a rejected build leaves none
// behind (a stale archive would pass for this build's result).
func removeStale(out string) error {
	if err := os.Remove(out); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
