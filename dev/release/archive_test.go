package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree writes files (name -> content) under a new directory with the given
// permission bits and modification time, and returns its sources in order.
func tree(t *testing.T, files map[string]string, order []string, perm os.FileMode, mtime time.Time) []source {
	t.Helper()
	dir := t.TempDir()
	var out []source
	for _, name := range order {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := perm
		if strings.HasSuffix(name, ".sh") {
			mode |= 0o111
		}
		if err := os.WriteFile(p, []byte(files[name]), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // WriteFile's mode is masked by the umask
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		out = append(out, source{name: name, path: p})
	}
	return out
}

func build(t *testing.T, files []source) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeArchive(&buf, "rules_pet-1.2.3", files); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var sample = map[string]string{
	"MODULE.bazel":            "module(name = \"rules_pet\", version = \"1.2.3\")\n",
	"rules/defs.bzl":          "load(\"//rules/private:pet.bzl\", \"x\")\n",
	"rules/private/pet.bzl":   "x = 1\n",
	"runtime/pack/read.go":    "package pack\n",
	"tools/setup.sh":          "#!/bin/sh\n",
	"rules/BUILD.bazel":       "",
	"rules.txt":               "sorts between rules/ and runtime/ only by name\n",
	"runtime/pack/rules.go":   "package pack\n",
	"firmware/pet_pack.c":     "int x;\n",
	"firmware/pet_pack.h":     "",
	"tools/cmd/petasset/a.go": "package main\n",
}

// The archive's bytes depend on the names, contents and executable bits
// only: not on the order the files are given in, their times, their other
// permission bits (a umask of 002 against 022), or where they are read from.
func TestArchiveDeterministic(t *testing.T) {
	var forward, backward []string
	for name := range sample {
		forward = append(forward, name)
	}
	for i := len(forward) - 1; i >= 0; i-- {
		backward = append(backward, forward[i])
	}
	oldUmask := syscall.Umask(0o022)
	a := build(t, tree(t, sample, forward, 0o644, time.Unix(1, 0)))
	syscall.Umask(0o002)
	b := build(t, tree(t, sample, backward, 0o664, time.Now()))
	syscall.Umask(oldUmask)
	if !bytes.Equal(a, b) {
		t.Fatalf("two builds of the same files differ: %d and %d bytes", len(a), len(b))
	}
	// A changed byte changes the archive.
	changed := map[string]string{}
	for k, v := range sample {
		changed[k] = v
	}
	changed["runtime/pack/rules.go"] = "package pack // changed\n"
	if c := build(t, tree(t, changed, forward, 0o644, time.Unix(1, 0))); bytes.Equal(a, c) {
		t.Fatal("a changed file left the archive the same")
	}
}

// Every header is normalised, and entries come sorted with each directory
// before its contents.
func TestArchiveHeaders(t *testing.T) {
	var names []string
	for name := range sample {
		names = append(names, name)
	}
	data := build(t, tree(t, sample, names, 0o640, time.Now()))
	if data[4]&0x08 != 0 || !bytes.Equal(data[4:8], []byte{0, 0, 0, 0}) {
		t.Errorf("gzip header has a name flag or an mtime: % x", data[:10])
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, hdr.Name)
		wantMode := int64(0o644)
		if hdr.Typeflag == tar.TypeDir || strings.HasSuffix(hdr.Name, ".sh") {
			wantMode = 0o755
		}
		if hdr.Mode != wantMode || hdr.Uid != 0 || hdr.Gid != 0 || hdr.Uname != "" || hdr.Gname != "" || hdr.ModTime.Unix() != 0 {
			t.Errorf("%s: mode %o uid %d gid %d uname %q gname %q mtime %v", hdr.Name, hdr.Mode, hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname, hdr.ModTime)
		}
	}
	want := []string{
		"rules_pet-1.2.3/",
		"rules_pet-1.2.3/MODULE.bazel",
		"rules_pet-1.2.3/firmware/",
		"rules_pet-1.2.3/firmware/pet_pack.c",
		"rules_pet-1.2.3/firmware/pet_pack.h",
		"rules_pet-1.2.3/rules.txt",
		"rules_pet-1.2.3/rules/",
		"rules_pet-1.2.3/rules/BUILD.bazel",
		"rules_pet-1.2.3/rules/defs.bzl",
		"rules_pet-1.2.3/rules/private/",
		"rules_pet-1.2.3/rules/private/pet.bzl",
		"rules_pet-1.2.3/runtime/",
		"rules_pet-1.2.3/runtime/pack/",
		"rules_pet-1.2.3/runtime/pack/read.go",
		"rules_pet-1.2.3/runtime/pack/rules.go",
		"rules_pet-1.2.3/tools/",
		"rules_pet-1.2.3/tools/cmd/",
		"rules_pet-1.2.3/tools/cmd/petasset/",
		"rules_pet-1.2.3/tools/cmd/petasset/a.go",
		"rules_pet-1.2.3/tools/setup.sh",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	files, err := readArchive(data, "rules_pet-1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(sample) || string(files["rules/defs.bzl"]) != sample["rules/defs.bzl"] {
		t.Errorf("read back %d files, rules/defs.bzl %q", len(files), files["rules/defs.bzl"])
	}
}

func TestArchiveErrors(t *testing.T) {
	src := tree(t, map[string]string{"a": "x", "b": "y"}, []string{"a", "b"}, 0o644, time.Now())
	dir := filepath.Dir(src[0].path)
	for _, tc := range []struct {
		name  string
		files []source
		want  string
	}{
		{"absolute", []source{{"/etc/passwd", src[0].path}}, "not a clean relative path"},
		{"climbs", []source{{"../a", src[0].path}}, "not a clean relative path"},
		{"unclean", []source{{"x//a", src[0].path}}, "not a clean relative path"},
		{"twice", []source{{"a", src[0].path}, {"a", src[1].path}}, `archive name "a" given twice`},
		{"file and dir", []source{{"a", src[0].path}, {"a/b", src[1].path}}, `"a" is both a file and a directory`},
		{"directory", []source{{"d", dir}}, "not a regular file"},
		{"missing", []source{{"m", filepath.Join(dir, "missing")}}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := writeArchive(io.Discard, "rules_pet-1.2.3", tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
