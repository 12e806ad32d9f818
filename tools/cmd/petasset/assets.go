package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/agentpet/rules_pet/runtime/assetset"
	"github.com/agentpet/rules_pet/runtime/manifest"
)

// assetsCheck is the runtime-copy check of manifest contract section 11:
// load DIR/manifest.petasset through the desktop reader and open every image
// it names, exactly as a frontend would at start-up.
func assetsCheck(args []string, stdout io.Writer) error {
	fs := newFlags("assets check")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dir, err := oneArg(fs.Args(), "DIR")
	if err != nil {
		return err
	}
	out := assetset.Load(assetset.Dir(dir))
	if f := out.Fallback; f != nil {
		where := filepath.Join(dir, filepath.FromSlash(f.Path))
		var merr *manifest.Error
		if errors.As(f, &merr) {
			return rejected{fmt.Sprintf("%s:%v (built-in fallback required)", where, merr)}
		}
		return rejected{fmt.Sprintf("%s: %v (built-in fallback required)", where, f)}
	}
	m := out.Set.Manifest
	fmt.Fprintf(stdout, "%s: ok: %d images reachable, fallback %s\n", dir, len(m.Images), m.Roles[m.Fallback].ID)
	return nil
}
