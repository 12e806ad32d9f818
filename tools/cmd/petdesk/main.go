// Command petdesk shows a pet on the desktop: a borderless window shaped by
// the pet's own mask that stays above the other windows and plays the pet
// exactly as authored (docs/desktop.md).
//
//	petdesk --pack pet.pack [--role activity_idle]
//	petdesk --runtime bazel-bin/assets/pet/assets/pet
//	petdesk --petpack pet_tabby.petpack
//	petdesk --library ROOT --pet pet_tabby
//
// Exit status: 0 when the display goes away; 1 for an invalid pack or
// .petpack, a pet the library lacks, or a display it cannot use (the
// reason on stderr, no window); 2 for a usage error. A refused runtime copy
// is not an error: the built-in fallback presentation shows and the reason
// is printed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/desktop/x11"
	"github.com/agentpet/rules_pet/runtime/library"
	"github.com/agentpet/rules_pet/runtime/petpack"
)

const usage = `usage: petdesk (--pack FILE | --runtime DIR | --petpack FILE | --library ROOT --pet ID) [flags]

Shows a pet in a shaped, always-on-top window on the X display ($DISPLAY).
Relative paths are resolved against BUILD_WORKING_DIRECTORY under bazel run.

flags:
`

// config is the parsed command line.
type config struct {
	pack, runtime, petpackFile, library, pet string
	role, id, trace, display                 string
	scale, x, y                              int
	managed, reduceMotion                    bool
	seed                                     int64
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("petdesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&c.pack, "pack", "", "a PETP pack `FILE`")
	fs.StringVar(&c.runtime, "runtime", "", "a runtime copy of an asset set: the `DIR` holding manifest.petasset")
	fs.StringVar(&c.petpackFile, "petpack", "", "a .petpack `FILE` (validated first)")
	fs.StringVar(&c.library, "library", "", "a pet library `ROOT` (with --pet)")
	fs.StringVar(&c.pet, "pet", "", "the `ID` of the library pet to show (its current revision)")
	fs.StringVar(&c.role, "role", "activity_idle", "the role a pack or runtime copy presents first")
	fs.IntVar(&c.scale, "scale", 1, "integer pixel scale `N` (nearest neighbour)")
	fs.IntVar(&c.x, "x", 64, "the window's left edge on the screen")
	fs.IntVar(&c.y, "y", 64, "the window's top edge on the screen")
	fs.BoolVar(&c.managed, "managed", false, "a managed window kept above by the window manager (default: override-redirect)")
	fs.BoolVar(&c.reduceMotion, "reduce-motion", false, "start with Reduce Motion on")
	fs.StringVar(&c.id, "id", "", "the pet's `ID` on the control channel (default: the pet's own name)")
	fs.StringVar(&c.trace, "trace", "", "write the presented frames and scheduled boundaries to `FILE` as JSON lines")
	fs.StringVar(&c.display, "display", "", "the X display (default: $DISPLAY)")
	fs.Int64Var(&c.seed, "seed", 1, "the seed of a .petpack pet's idle cooldowns")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "petdesk: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	n := 0
	for _, s := range []string{c.pack, c.runtime, c.petpackFile, c.library} {
		if s != "" {
			n++
		}
	}
	if n != 1 || (c.library != "") != (c.pet != "") {
		fmt.Fprintf(stderr, "petdesk: give exactly one of --pack, --runtime, --petpack and --library (with --pet)\n")
		fs.Usage()
		return 2
	}
	if c.scale < 1 || c.scale > 16 {
		fmt.Fprintf(stderr, "petdesk: --scale %d is outside 1 to 16\n", c.scale)
		return 2
	}
	for _, p := range []*string{&c.pack, &c.runtime, &c.petpackFile, &c.library, &c.trace} {
		*p = resolve(*p)
	}
	if c.id != "" {
		if err := control.CheckID(c.id); err != nil {
			fmt.Fprintf(stderr, "petdesk: --id: %v\n", err)
			return 2
		}
	}
	pet, title, err := load(c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "petdesk: %v\n", err)
		return 1
	}
	if c.id == "" {
		c.id = defaultID(title)
	}
	b, err := x11.Open(c.display)
	if err != nil {
		fmt.Fprintf(stderr, "petdesk: %v\n", err)
		return 1
	}
	defer b.Close()
	opt := desktop.Options{X: c.x, Y: c.y, Scale: c.scale, Managed: c.managed, Title: title,
		ReduceMotion: c.reduceMotion, Errors: stderr}
	if c.trace != "" {
		f, err := os.Create(c.trace)
		if err != nil {
			fmt.Fprintf(stderr, "petdesk: %v\n", err)
			return 1
		}
		defer f.Close()
		opt.Trace = f
	}
	// Loading (validating a .petpack above all) and the first frame leave
	// garbage; collect it and return it to the system once the pet shows,
	// so neither a GC nor the background scavenger wakes a held pet in the
	// seconds after it appears.
	opt.FirstFrame = debug.FreeOSMemory
	// The control channel: a second pet with this ID gets a socket of its
	// own (ID.2, ...), never this one's.
	l, err := control.Listen(c.id)
	if err != nil {
		fmt.Fprintf(stderr, "petdesk: control channel: %v\n", err)
		return 1
	}
	defer l.Close()
	fmt.Fprintf(stderr, "petdesk: %s: control socket %s (petasset desktop send --id %s EVENT)\n", title, l.Path(), l.Name())
	if err := desktop.Run(b, pet, l.Messages(), opt); err != nil {
		fmt.Fprintf(stderr, "petdesk: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, "petdesk: the X display went away")
	return 0
}

// defaultID makes a control ID of a pet's name: lowercase, with every
// character control.CheckID refuses replaced by '-'.
func defaultID(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(name), ".pack"), ".petpack")
	b := []byte(name)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-') {
			b[i] = '-'
		}
	}
	if len(b) == 0 || len(b) > control.MaxIDBytes || control.CheckID(string(b)) != nil {
		return "pet"
	}
	return string(b)
}

// resolve makes a relative path name what was typed under bazel run.
func resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" {
		return filepath.Join(wd, p)
	}
	return p
}

// load reads the pet the flags name.
func load(c config, stderr io.Writer) (desktop.Pet, string, error) {
	switch {
	case c.pack != "":
		data, err := os.ReadFile(c.pack)
		if err != nil {
			return nil, "", err
		}
		p, err := desktop.FromPack(data, c.role)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", c.pack, err)
		}
		return p, filepath.Base(c.pack), nil
	case c.runtime != "":
		p, err := desktop.FromRuntime(c.runtime, c.role)
		if err != nil {
			// Section 9: a calm presentation is always available.
			fmt.Fprintf(stderr, "petdesk: %s: showing the built-in fallback presentation: %v\n", c.runtime, err)
		}
		return p, filepath.Base(c.runtime), nil
	case c.petpackFile != "":
		m, src, err := desktop.OpenPetpack(c.petpackFile)
		if err != nil {
			return nil, "", err
		}
		p, err := desktop.NewPetpack(m, src, c.seed)
		return p, m.ID, err
	default:
		s, err := library.Open(c.library, library.Options{})
		if err != nil {
			return nil, "", err
		}
		defer s.Close()
		cur, err := s.Current(c.pet)
		if err != nil {
			return nil, "", err
		}
		src := func(a petpack.Action, i int) ([]byte, error) {
			fs := cur.Frames[a]
			if i < 0 || i >= len(fs) {
				return nil, fmt.Errorf("%s: no frame %d of %s", c.pet, i, a)
			}
			return os.ReadFile(fs[i])
		}
		p, err := desktop.NewPetpack(cur.Manifest, src, c.seed)
		return p, c.pet, err
	}
}
