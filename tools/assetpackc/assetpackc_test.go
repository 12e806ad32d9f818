package assetpackc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateRejects(t *testing.T) {
	for _, tc := range []struct{ symbol, include string }{
		{"", "a.h"}, {"1pack", "a.h"}, {"pet-pack", "a.h"}, {"pet_pack", ""}, {"pet_pack", `a".h`}, {"pet_pack", "a\n.h"},
	} {
		if _, _, err := Generate([]byte{1}, tc.symbol, tc.include); err == nil {
			t.Errorf("Generate(%q, %q) accepted", tc.symbol, tc.include)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	data := bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 7)
	h1, c1, err := Generate(data, "pet_pack", "pkg/pet_pack.h")
	if err != nil {
		t.Fatal(err)
	}
	h2, c2, _ := Generate(data, "pet_pack", "pkg/pet_pack.h")
	if !bytes.Equal(h1, h2) || !bytes.Equal(c1, c2) {
		t.Fatal("two generations differ")
	}
	for _, want := range []string{"#define PET_PACK_LEN 28u", "extern const uint8_t pet_pack[PET_PACK_LEN];", "extern const uint32_t pet_pack_len;"} {
		if !strings.Contains(string(h1), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	if !strings.Contains(string(c1), `#include "pkg/pet_pack.h"`) || strings.Count(string(c1), "0x") != len(data) {
		t.Errorf("source:\n%s", c1)
	}
}

// TestCompiles builds the generated sources with the host C compiler under
// -std=c99 -pedantic -Werror and checks the bytes, length and alignment the
// program sees.
func TestCompiles(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Fatalf("no C compiler on PATH: %v", err)
	}
	data := []byte("PETP\x01\x00\x1c\x00odd length!")
	h, c, err := Generate(data, "blob", "blob.h")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	main := `#include <stdio.h>
#include <string.h>
#include "blob.h"
int main(void) {
	if (blob_len != BLOB_LEN || BLOB_LEN != 19u) return 1;
	if (((unsigned long)(const void *)blob) % 4u != 0u) return 2;
	if (memcmp(blob, "PETP\x01\x00\x1c\x00odd length!", BLOB_LEN) != 0) return 3;
	return 0;
}
`
	for name, text := range map[string][]byte{"blob.h": h, "blob.c": c, "main.c": []byte(main)} {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "prog")
	cmd := exec.Command(cc, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-o", bin, "blob.c", "main.c")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Fatalf("program: %v\n%s", err, out)
	}
}
