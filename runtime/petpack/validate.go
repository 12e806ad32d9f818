package petpack

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
)

// Validate validates the .petpack archive of size bytes that r reads. It
// reads no more than it must: the end record and central directory first,
// every entry's content only once the declared sizes fit the budgets, and
// then through a bounded, CRC-checked stream; nothing is decoded until the
// budgets it is bounded by have passed.
func Validate(r io.ReaderAt, size int64) *Verdict {
	c := newChecker()
	a := readArchive(c, r, size)
	if a == nil {
		return c.verdict(nil)
	}
	return c.verdict(checkPackage(c, a.fileSet()))
}

// ValidateDir validates an unpacked package directory, a trusted local
// build input (section 2), under the same rules as an archive. No symbolic
// link is followed: a link anywhere in the tree, or path itself being one,
// rejects the package.
func ValidateDir(path string) *Verdict {
	c := newChecker()
	set := readDir(c, path)
	if set == nil {
		return c.verdict(nil)
	}
	return c.verdict(checkPackage(c, set))
}

// ValidatePath validates path as an archive when it is a regular file and
// as a package directory when it is a real directory; anything else (a
// symbolic link, a device) is rejected without being opened.
func ValidatePath(path string) *Verdict {
	info, err := os.Lstat(path)
	if err != nil {
		c := newChecker()
		c.fail(RulePackageUnreadable, "", "", "%v", err)
		return c.verdict(nil)
	}
	switch {
	case info.IsDir():
		return ValidateDir(path)
	case !info.Mode().IsRegular():
		c := newChecker()
		c.fail(RulePackageNotRegular, "", "", "%s is a %s; a package is a regular ZIP file or a real directory", path, modeName(info.Mode()))
		return c.verdict(nil)
	}
	f, err := os.Open(path)
	if err == nil {
		defer f.Close()
		var opened fs.FileInfo
		if opened, err = f.Stat(); err == nil && !os.SameFile(info, opened) {
			err = errors.New(path + " changed while it was opened")
		}
		if err == nil {
			return Validate(f, opened.Size())
		}
	}
	c := newChecker()
	c.fail(RulePackageUnreadable, "", "", "%v", err)
	return c.verdict(nil)
}

func modeName(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symbolic link"
	}
	return fileTypeName(m.Type())
}

// checkPackage runs stages 2 to 5 over a file set that stage 1 accepted
// and returns the manifest when it decoded without error. Path findings do
// not stop it (the rejected names are simply left out of the tree), but a
// broken budget does: what comes after decodes what the budget bounds.
func checkPackage(c *checker, fs *fileSet) *Manifest {
	return checkPackageMemo(c, fs, nil)
}

// checkPackageMemo is checkPackage with the media gate taking what memo,
// when it is not nil, already knows of the package's images.
func checkPackageMemo(c *checker, fs *fileSet, memo *MediaMemo) *Manifest {
	checkPaths(c, fs)
	mark := c.count()
	checkDeclaredSizes(c, fs)
	if c.errorsSince(mark) {
		return nil
	}
	if fs.src.sealed() && !verifyContent(c, fs) {
		return nil
	}
	md := checkFrameBudgets(c, fs)
	if c.errorsSince(mark) {
		return nil
	}
	md.memo = memo
	data := readManifestFile(c, fs)
	if data == nil {
		return nil
	}
	m := checkManifest(c, data)
	if c.failed(StageVersion) {
		return nil // typed decoding did not happen; nothing below has a manifest to go by
	}
	checkLayout(c, fs)
	// Metadata is read before the media gate, which needs source.json's
	// provenance; the verdict orders findings by stage all the same.
	prov := checkMetadata(c, fs, m)
	checkMedia(c, fs, m, md, prov)
	checkPrivacy(c, fs)
	return m
}

// checkDeclaredSizes applies the size budgets to the declared sizes, before
// a byte is inflated: a 1 KiB archive can declare 4 GiB.
func checkDeclaredSizes(c *checker, fs *fileSet) {
	var total int64
	for i := range fs.entries {
		e := &fs.entries[i]
		total += e.size
		if e.size > MaxEntryBytes {
			c.fail(RuleEntryTooLarge, safePath(e.name), "", "the entry declares %d bytes, over the budget of %d", e.size, int64(MaxEntryBytes))
		}
	}
	if total > MaxExpandedBytes {
		c.fail(RuleExpandedTooLarge, "", "", "the entries declare %d bytes in all, over the budget of %d", total, int64(MaxExpandedBytes))
	}
	if n := fs.lookup(manifestPath); n != nil && !n.dir && n.e.size > MaxManifestBytes {
		c.fail(RuleManifestTooLarge, manifestPath, "", "%d bytes is over the %d-byte manifest bound", n.e.size, MaxManifestBytes)
	}
}

// verifyContent reads every entry of a sealed source once, through the
// bounded reader, so each size and CRC is proven before anything is used.
// It returns false when reading must stop.
func verifyContent(c *checker, fs *fileSet) bool {
	buf := make([]byte, 32<<10)
	ok := true
	for i := range fs.entries {
		e := &fs.entries[i]
		rc, err := fs.src.open(e)
		if err == nil {
			err = readHead(rc, e)
			if err == nil {
				_, err = io.CopyBuffer(io.Discard, onlyReader{rc}, buf)
			}
			rc.Close()
		}
		var ce *contentError
		switch {
		case err == nil:
		case errors.As(err, &ce):
			c.fail(ce.rule, safePath(e.name), "", "%s", ce.msg)
			ok = false
		default:
			c.fail(RulePackageUnreadable, safePath(e.name), "", "%v", err)
			return false
		}
	}
	return ok
}

// readHead keeps the first imagecheck.HeaderLen bytes of an entry (fewer if it is
// shorter).
func readHead(r io.Reader, e *entry) error {
	head := make([]byte, imagecheck.HeaderLen)
	n, err := io.ReadFull(r, head)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	e.head = head[:n]
	return err
}

// onlyReader hides any WriterTo, so io.CopyBuffer reads through the
// checking Read method with the shared buffer.
type onlyReader struct{ io.Reader }

// readManifestFile is the start of stage 3: manifest.json must exist, and is
// read within its bound.
func readManifestFile(c *checker, fs *fileSet) []byte {
	n := fs.lookup(manifestPath)
	if n == nil || n.dir {
		c.fail(RuleManifestMissing, manifestPath, "", "the package has no manifest.json file")
		return nil
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		c.fail(RulePackageUnreadable, manifestPath, "", "%v", err)
		return nil
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		c.fail(ce.rule, manifestPath, "", "%s", ce.msg)
		return nil
	case err != nil:
		c.fail(RulePackageUnreadable, manifestPath, "", "%v", err)
		return nil
	case len(data) > MaxManifestBytes:
		c.fail(RuleManifestTooLarge, manifestPath, "", "the manifest is over the %d-byte bound", MaxManifestBytes)
		return nil
	}
	return data
}
