package durable

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// entries lists a directory's names, to show no temporary file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name     string
		existing []byte // nil: no file before the write
		perm     os.FileMode
	}{
		{"new file", nil, 0o644},
		{"replaces existing", []byte("old content that is longer than the new"), 0o644},
		{"explicit mode", nil, 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.pack")
			if tt.existing != nil {
				if err := os.WriteFile(path, tt.existing, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			want := []byte("new")
			if err := Write(path, want, tt.perm); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("content %q, %v; want %q", got, err, want)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.perm {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.perm)
			}
			if names := entries(t, dir); len(names) != 1 || names[0] != "out.pack" {
				t.Errorf("directory holds %v, want only out.pack", names)
			}
		})
	}
}

// TestWriteModeIgnoresUmask shows the mode is set, not filtered by the
// umask: a group-writable request survives a umask of 022 only if Write
// chmods explicitly.
func TestWriteModeIgnoresUmask(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := Write(path, nil, 0o664); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o664 {
		t.Errorf("mode %v, want 0664", fi.Mode().Perm())
	}
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to write
		skip  func() string
	}{
		{"missing directory", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "missing", "out")
		}, nil},
		{"parent is a file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "file")
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(p, "out")
		}, nil},
		// The rename fails after the temporary file is complete, so this
		// shows the late cleanup path, not just a failed create.
		{"target is a non-empty directory", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "out")
			if err := os.MkdirAll(filepath.Join(p, "child"), 0o755); err != nil {
				t.Fatal(err)
			}
			return p
		}, nil},
		{"unwritable directory", func(t *testing.T, dir string) string {
			ro := filepath.Join(dir, "ro")
			if err := os.Mkdir(ro, 0o555); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(ro, "out")
		}, func() string {
			if os.Geteuid() == 0 {
				return "root ignores directory permissions"
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != nil {
				if why := tt.skip(); why != "" {
					t.Skip(why)
				}
			}
			dir := t.TempDir()
			path := tt.setup(t, dir)
			watch := filepath.Dir(path)
			if fi, err := os.Stat(watch); err != nil || !fi.IsDir() {
				watch = dir // the parent cannot hold a file; watch the nearest real one
			}
			before := entries(t, watch)
			if err := Write(path, []byte("data"), 0o644); err == nil {
				t.Fatal("Write succeeded")
			}
			after := entries(t, watch)
			if len(before) != len(after) {
				t.Errorf("directory went from %v to %v", before, after)
			}
		})
	}
}

// TestWriteReaderSeesOldOrNew replaces a file repeatedly while another
// goroutine reads it: every read must be one whole version, never a prefix
// or a mixture, which is what the rename buys over writing in place.
func TestWriteReaderSeesOldOrNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	a, b := bytes.Repeat([]byte{'a'}, 1<<16), bytes.Repeat([]byte{'b'}, 1<<17)
	if err := Write(path, a, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	bad := make(chan string, 1)
	go func() {
		defer close(bad)
		for {
			select {
			case <-done:
				return
			default:
			}
			got, err := os.ReadFile(path)
			if err != nil || !(bytes.Equal(got, a) || bytes.Equal(got, b)) {
				bad <- "read a partial or mixed file"
				return
			}
		}
	}()
	for i := 0; i < 50; i++ {
		v := a
		if i%2 == 0 {
			v = b
		}
		if err := Write(path, v, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if msg, ok := <-bad; ok {
		t.Fatal(msg)
	}
}

// TestWriteChecked shows the check sees the complete temporary file and
// that a failing check leaves the old file and no temporary behind.
func TestWriteChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.petpack")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []byte
	refuse := errors.New("refused")
	err := WriteChecked(path, []byte("new bytes"), 0o644, func(tmp string) error {
		b, err := os.ReadFile(tmp)
		seen = b
		if err != nil {
			return err
		}
		return refuse
	})
	if !errors.Is(err, refuse) {
		t.Fatalf("error %v, want the check's", err)
	}
	if string(seen) != "new bytes" {
		t.Fatalf("the check read %q", seen)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("a refused write replaced the file with %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("directory holds %v after a refused write", names)
	}
	if err := WriteChecked(path, []byte("new bytes"), 0o644, func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new bytes" {
		t.Fatalf("content %q after an accepted write", got)
	}
}

// TestPending: pieces written out of order and from several goroutines
// become the file at Commit, and not before; Abort leaves the old file
// and nothing else.
func TestPending(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 1<<16)
	for i := range want {
		want[i] = byte(i * 7)
	}
	before := "old"
	for _, commit := range []bool{true, false} {
		p, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for k := 7; k >= 0; k-- {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				off := k * len(want) / 8
				if err := p.WriteAt(want[off:off+len(want)/8], int64(off)); err != nil {
					t.Error(err)
				}
				if k == 4 {
					p.Flush()
				}
			}(k)
		}
		wg.Wait()
		if got, _ := os.ReadFile(path); string(got) != before {
			t.Fatalf("path changed before Commit or Abort")
		}
		if !commit {
			p.Abort()
			if got, _ := os.ReadFile(path); string(got) != before {
				t.Fatalf("Abort changed path")
			}
			continue
		}
		if err := p.Commit(0o644, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Fatalf("committed file differs")
		}
		before = string(want)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("directory holds %v, want out.bin alone", names)
	}
}

func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := SyncDir(dir); err != nil {
		t.Fatalf("SyncDir(%s): %v", dir, err)
	}
	missing := filepath.Join(dir, "missing")
	if err := SyncDir(missing); err == nil {
		t.Fatalf("SyncDir(%s) of a missing directory: no error", missing)
	}
}

func TestWriteNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteNew(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(path, []byte("two")); !errors.Is(err, os.ErrExist) {
		t.Fatalf("WriteNew over an existing file: %v, want os.ErrExist", err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "one" {
		t.Fatalf("content %q, %v; want the first write", got, err)
	}
}
