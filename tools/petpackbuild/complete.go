package petpackbuild

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/petpack"
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
	// validated is the SHA-256 of the archive bytes Verdict accepted,
	// which Publish holds the written file to.
	validated [sha256.Size]byte
	// decodes counts the images the build's memo decoded (tests read it).
	decodes petpack.Decodes
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
		return archiveOf(idx, nil)
	}
	m := mv.Manifest
	// One memo for the build: the frames decoded to make the previews,
	// and the previews and cover decoded by the first validation, are
	// never decoded again.
	memo := petpack.NewMediaMemo()
	frames := framesOf(idx)
	var coverFile *File
	if _, ok := idx[CoverPath]; !ok {
		f, err := coverFrame(m, frames, opt.CoverFrame)
		switch {
		case err == nil:
			coverFile = &f
		case opt.CoverFrame != "":
			return nil, err
		}
		// Without an idle frame to show there is no default cover; the
		// verdict names the missing cover.
	}
	_, hasPreview := idx[PreviewPath]
	made, err := makePreviews(m, frames, memo, coverFile, !hasPreview)
	if err != nil {
		return nil, err
	}
	if made.cover != nil {
		idx[CoverPath] = File{Path: CoverPath, Data: made.cover}
	}
	if made.animated != nil {
		idx[PreviewPath] = File{Path: PreviewPath, Data: made.animated}
	}
	// The report must list the warnings of the archive that holds it.
	// The manifest's own verdict already knows the timing warnings; when
	// the archive's verdict finds no other, the first archive is the
	// answer. Otherwise a second archive records them, and its validation
	// decodes nothing: the memo has every image. Nothing the report says
	// feeds a warning, so the second verdict confirms the first.
	var res *Result
	verdict := mv
	for pass := 0; pass < 2; pass++ {
		report := Report(m, verdict, opt.Validator, opt.ValidatorVersion)
		data, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return nil, err
		}
		idx[validationPath] = File{Path: validationPath, Data: append(data, '\n')}
		res, err = archiveOf(idx, memo)
		if err != nil {
			return res, err
		}
		verdict = res.Verdict
		again := Report(m, verdict, opt.Validator, opt.ValidatorVersion)
		if fmt.Sprint(again) == fmt.Sprint(report) {
			return res, nil
		}
		if pass == 1 {
			return res, fmt.Errorf("build/validation.json lists warnings %v %v but the archive warns %v %v", report.TimingWarnings, report.Warnings, again.TimingWarnings, again.Warnings)
		}
	}
	return res, nil
}

const validationPath = "build/validation.json"

// archiveOf archives the files and validates the archive bytes, taking
// what memo (when not nil) knows of their images.
func archiveOf(idx map[string]File, memo *petpack.MediaMemo) (*Result, error) {
	res := &Result{Files: make([]File, 0, len(idx))}
	for _, f := range idx {
		res.Files = append(res.Files, f)
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	var err error
	if res.Archive, err = Archive(res.Files); err != nil {
		return nil, err
	}
	r, size := bytes.NewReader(res.Archive), int64(len(res.Archive))
	if memo != nil {
		res.Verdict = memo.Validate(r, size)
		res.decodes = memo.Decodes()
	} else {
		res.Verdict = petpack.Validate(r, size)
	}
	if !res.Verdict.OK() {
		return res, fmt.Errorf("%w: %v", ErrInvalid, res.Verdict.Err())
	}
	res.validated = sha256.Sum256(res.Archive)
	return res, nil
}

// Publish writes the result's archive at out through a temporary file
// that is checked again as a file, on disk, before it is renamed into
// place: its ZIP structure and every entry's size and CRC, and that its
// bytes are the ones Pack validated (by SHA-256), so the media need not be
// decoded a second time. out either keeps its old content or holds an
// archive that was proven valid.
func Publish(res *Result, out string) error {
	if res.validated == ([sha256.Size]byte{}) || sha256.Sum256(res.Archive) != res.validated {
		return fmt.Errorf("archive for %s: %w: these are not the bytes Pack validated", out, ErrInvalid)
	}
	return durable.WriteChecked(out, res.Archive, 0o644, func(tmp string) error {
		if err := checkWritten(tmp, res.validated); err != nil {
			return fmt.Errorf("written archive %s: %w", out, err)
		}
		return nil
	})
}

// checkWritten proves the file at path is the archive whose SHA-256 is
// want, with a sound container.
func checkWritten(path string, want [sha256.Size]byte) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, info.Size())); err != nil {
		return err
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		return fmt.Errorf("%w: the bytes on disk are not the ones validated", ErrInvalid)
	}
	if v := petpack.VerifyArchive(f, info.Size()); !v.OK() {
		return fmt.Errorf("%w: %v", ErrInvalid, v.Err())
	}
	return nil
}

// removeStale deletes a previous output so a rejected build leaves none
// behind (a stale archive would pass for this build's result).
func removeStale(out string) error {
	if err := os.Remove(out); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
