package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const golden = "../../../assets/petpack/pet_tabby.petpack.golden"

func TestRun(t *testing.T) {
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	tests := []struct {
		name  string
		entry string // ID=ARCHIVE
		err   string // "" for success
	}{
		{"ok", "pet_tabby=" + golden, ""},
		{"wrong ID", "pet_other=" + golden, "the manifest ID is pet_tabby"},
		{"not an archive", "pet_tabby=", "zip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			lib, main, cp := filepath.Join(dir, "inv.go"), filepath.Join(dir, "main.go"), filepath.Join(dir, "copy.petpack")
			entry := tt.entry
			if strings.HasSuffix(entry, "=") { // a file that is no archive
				junk := filepath.Join(dir, "junk.petpack")
				os.WriteFile(junk, []byte("not a zip file"), 0o644)
				entry += junk
			}
			err := run([]string{"--package", "bundle", "--importpath", "example.com/bundle", "--workspace", "ws", "--dir", "pkg/files",
				"--lib", lib, "--main", main, entry + "=" + cp})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			src, _ := os.ReadFile(lib)
			for _, w := range []string{"package bundle", `{ID: "pet_tabby", SHA256: "` + digest + `"}`, `Dir       = "pkg/files"`} {
				if !strings.Contains(string(src), w) {
					t.Errorf("inventory lacks %s:\n%s", w, src)
				}
			}
			m, _ := os.ReadFile(main)
			if !strings.Contains(string(m), `inventory "example.com/bundle"`) {
				t.Errorf("main:\n%s", m)
			}
			if c, _ := os.ReadFile(cp); !bytes.Equal(c, data) {
				t.Error("the copy differs")
			}
		})
	}
}
