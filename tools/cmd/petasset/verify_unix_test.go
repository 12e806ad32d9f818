//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPackVerifyFIFO: a pack read from a named pipe, whose size Stat
// cannot tell, is still read whole and verified.
func TestPackVerifyFIFO(t *testing.T) {
	golden, err := os.ReadFile(canonicalGolden)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "pipe.pack")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			_, err = w.Write(golden)
			w.Close()
		}
		done <- err
	}()
	var out strings.Builder
	if err := packVerify([]string{p}, &out); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := p + ": ok: 44232 bytes"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("printed %q, want the prefix %q", out.String(), want)
	}
}
