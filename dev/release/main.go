// Command release builds rules_pet's release archive and keeps README.md's
// WORKSPACE snippet pinned to it (docs/release.md).
//
//	release archive --module MODULE.bazel --version V --out FILE SRC...
//	release check --readme README.md --changelog CHANGELOG.md --archive FILE
//	release update --archive FILE
//
// archive writes rules_pet-V.tar.gz (top directory rules_pet-V/) of the SRC
// files, each under its path relative to the repository root, byte for
// byte the same on every machine; V must be MODULE.bazel's version. check
// fails when the snippet's sha256, strip_prefix or URL, the changelog's top
// version, or the archive's own MODULE.bazel and firmware/idf_component.yml
// versions disagree, or when the archive lacks a package or .bzl file its
// own files name. update, run by `bazel run //release:update_snippet`,
// rewrites the snippet's sha256 line in the workspace's README.md.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentpet/rules_pet/internal/durable"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: release archive|check|update [flags]")
	}
	fs := flag.NewFlagSet("release "+args[0], flag.ContinueOnError)
	module := fs.String("module", "", "MODULE.bazel (archive)")
	version := fs.String("version", "", "the version the BUILD file names the archive after (archive)")
	out := fs.String("out", "", "the archive to write (archive)")
	readme := fs.String("readme", "", "README.md (check)")
	changelog := fs.String("changelog", "", "CHANGELOG.md (check)")
	archive := fs.String("archive", "", "the built release archive (check, update)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "archive":
		return buildArchive(*module, *version, *out, fs.Args())
	case "check":
		return check(*readme, *changelog, *archive, stdout)
	case "update":
		ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY")
		if ws == "" {
			return fmt.Errorf("update: BUILD_WORKSPACE_DIRECTORY is not set; run it as %s", updateCommand)
		}
		return update(filepath.Join(ws, "README.md"), *archive, stdout)
	}
	return fmt.Errorf("unknown command %q: want archive, check or update", args[0])
}

// buildArchive writes the archive of srcs to out, atomically.
func buildArchive(module, version, out string, srcs []string) error {
	data, err := os.ReadFile(module)
	if err != nil {
		return err
	}
	mv, err := moduleVersion(data)
	if err != nil {
		return err
	}
	if mv != version {
		return fmt.Errorf("release/BUILD.bazel names the archive for version %s, MODULE.bazel's version is %s: make them equal", version, mv)
	}
	files := make([]source, 0, len(srcs))
	for _, s := range srcs {
		// Bazel passes source files of this repository by their path from
		// the execution root, which is their path in the repository.
		files = append(files, source{name: filepath.ToSlash(s), path: s})
	}
	var buf bytes.Buffer
	if err := writeArchive(&buf, "rules_pet-"+version, files); err != nil {
		return err
	}
	return durable.Write(out, buf.Bytes(), 0o644)
}

// archiveVersion returns the version a release archive is named after:
// rules_pet-V.tar.gz.
func archiveVersion(path string) (string, error) {
	base := filepath.Base(path)
	v := strings.TrimSuffix(strings.TrimPrefix(base, "rules_pet-"), ".tar.gz")
	if v == base || v == "" {
		return "", fmt.Errorf("%s: not a rules_pet-VERSION.tar.gz", path)
	}
	return v, nil
}

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func check(readmePath, changelogPath, archivePath string, stdout io.Writer) error {
	version, err := archiveVersion(archivePath)
	if err != nil {
		return err
	}
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		return err
	}
	files, err := readArchive(archive, "rules_pet-"+version)
	if err != nil {
		return fmt.Errorf("%s: %w", archivePath, err)
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	changelog, err := os.ReadFile(changelogPath)
	if err != nil {
		return err
	}
	digest := digestOf(archive)
	errs := checkSnippet(readme, version, digest)
	if cv, err := changelogVersion(changelog); err != nil {
		errs = append(errs, err)
	} else if cv != version {
		errs = append(errs, fmt.Errorf("CHANGELOG.md: top entry is version %s, MODULE.bazel's is %s", cv, version))
	}
	if mv, err := moduleVersion(files["MODULE.bazel"]); err != nil {
		errs = append(errs, fmt.Errorf("the archive's %w", err))
	} else if mv != version {
		errs = append(errs, fmt.Errorf("the archive's MODULE.bazel has version %s, its name says %s", mv, version))
	}
	if m := idfVersionRE.FindSubmatch(files["firmware/idf_component.yml"]); m == nil {
		errs = append(errs, fmt.Errorf("the archive's firmware/idf_component.yml has no version: line"))
	} else if string(m[1]) != version {
		errs = append(errs, fmt.Errorf("firmware/idf_component.yml: version %s, MODULE.bazel's is %s", m[1], version))
	}
	errs = append(errs, checkComplete(files)...)
	if len(errs) > 0 {
		var b strings.Builder
		for _, e := range errs {
			fmt.Fprintf(&b, "\n  %v", e)
		}
		return fmt.Errorf("%d problem(s) with release %s:%s", len(errs), version, b.String())
	}
	fmt.Fprintf(stdout, "rules_pet-%s.tar.gz: %d files, %d bytes, sha256 %s; README.md's snippet, CHANGELOG.md and the archive agree\n",
		version, len(files), len(archive), digest)
	return nil
}

func update(readmePath, archivePath string, stdout io.Writer) error {
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	digest := digestOf(archive)
	updated, err := updateSnippet(readme, digest)
	if err != nil {
		return err
	}
	if bytes.Equal(updated, readme) {
		fmt.Fprintf(stdout, "%s: sha256 already %s\n", readmePath, digest)
		return nil
	}
	info, err := os.Stat(readmePath)
	if err != nil {
		return err
	}
	if err := durable.Write(readmePath, updated, info.Mode().Perm()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: sha256 = %q (%s, %d bytes)\n", readmePath, digest, filepath.Base(archivePath), len(archive))
	return nil
}
