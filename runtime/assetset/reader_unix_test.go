//go:build unix

package assetset

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestDirUnreadable(t *testing.T) {
	tests := []struct {
		name     string
		prepare  func(t *testing.T, path string)
		wantKind Kind
		wantErr  error // also required in the chain, when set
	}{
		{
			// Opening a FIFO without a writer would block forever, so the
			// reader must refuse it before opening.
			name: "fifo",
			prepare: func(t *testing.T, p string) {
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			},
			wantKind: KindImageUnreadable,
			wantErr:  ErrNotRegular,
		},
		{
			name: "no permission",
			prepare: func(t *testing.T, p string) {
				if os.Geteuid() == 0 {
					t.Skip("root reads files regardless of mode")
				}
				if err := os.WriteFile(p, []byte(PNGSignature), 0o000); err != nil {
					t.Fatal(err)
				}
			},
			wantKind: KindImageUnreadable,
		},
		{
			name: "dangling symlink is missing",
			prepare: func(t *testing.T, p string) {
				if err := os.Symlink(filepath.Join(filepath.Dir(p), "nowhere"), p); err != nil {
					t.Fatal(err)
				}
			},
			wantKind: KindImageMissing,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := canonicalFiles(t)
			delete(files, "sprites/idle.png")
			root := writeTree(t, files)
			tc.prepare(t, filepath.Join(root, "sprites", "idle.png"))
			got := Load(Dir(root))
			if got.Fallback == nil {
				t.Fatal("Load accepted the set")
			}
			if got.Fallback.Kind != tc.wantKind || got.Fallback.ImageID != "sprite_idle" {
				t.Errorf("fallback = %v, want %s for sprite_idle", got.Fallback, tc.wantKind)
			}
			if tc.wantErr != nil && !errors.Is(got.Fallback, tc.wantErr) {
				t.Errorf("errors.Is(%v, %v) = false", got.Fallback, tc.wantErr)
			}
		})
	}
}
