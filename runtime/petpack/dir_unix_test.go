//go:build unix

package petpack

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestValidateDirLinks(t *testing.T) {
	t.Run("symlinked frame", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		frame := filepath.Join(dir, "assets/frames/idle/0000.png")
		outside := filepath.Join(t.TempDir(), "secret.png")
		if err := os.Rename(frame, outside); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, frame); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidateDir(dir), RuleEntrySymlink)
	})
	t.Run("symlinked directory", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		if err := os.Symlink("/", filepath.Join(dir, "extensions")); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidateDir(dir), RuleEntrySymlink)
	})
	t.Run("dangling symlink", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		if err := os.Symlink("nowhere", filepath.Join(dir, "LICENSE")); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidateDir(dir), RuleEntrySymlink)
	})
	t.Run("fifo", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
			t.Skip(err)
		}
		// Opening a FIFO would block; the walk must not try.
		expectRules(t, ValidateDir(dir), RuleEntrySpecialFile)
	})
	t.Run("package directory is a link", func(t *testing.T) {
		dir := writeDir(t, validPackage())
		link := filepath.Join(t.TempDir(), "pet")
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidateDir(link), RulePackageNotRegular)
		expectRules(t, ValidatePath(link), RulePackageNotRegular)
	})
	t.Run("archive is a link", func(t *testing.T) {
		tmp := t.TempDir()
		f := filepath.Join(tmp, "x.petpack")
		if err := os.WriteFile(f, rawZip(validPackage()), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(tmp, "y.petpack")
		if err := os.Symlink(f, link); err != nil {
			t.Fatal(err)
		}
		expectRules(t, ValidatePath(link), RulePackageNotRegular)
	})
	t.Run("archive is a fifo", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "x.petpack")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		expectRules(t, ValidatePath(p), RulePackageNotRegular)
	})
}
