package motionqa

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/agentpet/rules_pet/internal/durable"
)

// The steps of publishDir at which publishHook is called, in order.
const (
	stepPublishWrite   = "publish-write"   // half of the files are written into the sibling
	stepPublishSynced  = "publish-synced"  // every file and directory is synced; nothing renamed yet
	stepPublishSwap    = "publish-swap"    // an earlier QA directory is renamed aside; the new one is not in place yet
	stepPublishRenamed = "publish-renamed" // the new directory is in place; the earlier one is not removed yet
)

// publishHook, when not nil, is called at each publish step; an error
// fails the publish there as a failure of the step itself would. Only the
// crash tests set it, to stop a real process inside each window of the
// replacement and kill it there.
var publishHook func(step string) error

func publishStep(name string) error {
	if publishHook == nil {
		return nil
	}
	if err := publishHook(name); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// publishDir replaces the directory out with exactly files: they are
// written and synced in a fresh sibling directory, which is then renamed
// to out (an empty out is removed first; an earlier QA directory is first
// renamed aside and removed after), and the parent directory is synced.
// A failure before the rename leaves out as it was and removes the
// sibling; a crash leaves at most a dot-named sibling next to out.
func publishDir(out string, files []file) (err error) {
	out = filepath.Clean(out)
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	dirs := map[string]bool{tmp: true}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	for i, f := range files {
		if i == len(files)/2 {
			if err := publishStep(stepPublishWrite); err != nil {
				return err
			}
		}
		p := filepath.Join(tmp, filepath.FromSlash(f.name))
		d := filepath.Dir(p)
		if !dirs[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			dirs[d] = true
		}
		if err := durable.WriteNew(p, f.data); err != nil {
			return err
		}
	}
	for d := range dirs {
		if err := durable.SyncDir(d); err != nil {
			return err
		}
	}
	if err := publishStep(stepPublishSynced); err != nil {
		return err
	}
	old := ""
	if fi, err := os.Lstat(out); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s: exists and is not a directory", out)
		}
		ents, err := os.ReadDir(out)
		if err != nil {
			return err
		}
		if len(ents) > 0 {
			old = tmp + ".old"
			if err := os.Rename(out, old); err != nil {
				return err
			}
		} else if err := os.Remove(out); err != nil {
			// Not every file system renames over an empty directory (the
			// one under Bazel's output base here answers EEXIST); an
			// empty directory holds nothing to lose.
			return err
		}
	}
	if old != "" {
		err = publishStep(stepPublishSwap)
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return err
	}
	if old != "" {
		if err := publishStep(stepPublishRenamed); err != nil {
			return err
		}
		if err := os.RemoveAll(old); err != nil {
			return err
		}
	}
	return durable.SyncDir(parent)
}
