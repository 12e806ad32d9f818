package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
	"github.com/agentpet/rules_pet/tools/assetpackc"
	"github.com/agentpet/rules_pet/tools/internal/boundedread"
)

// newFlags returns a flag set whose parse errors become usage errors rather
// than the flag package's own exit.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses flags before, between and after the positional
// arguments (up to a "--", after which everything is positional), and
// leaves the positionals in fs.Args(). -h or --help gives helpRequested.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return helpRequested{fs}
			}
			return usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	// Parsing a lone terminator sets no flag and records pos as the
	// positionals fs.Args() returns.
	return fs.Parse(append([]string{"--"}, pos...))
}

// required reports a usage error for the first empty flag value.
func required(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if fs.Lookup(n).Value.String() == "" {
			return usageError{"--" + n + " is required"}
		}
	}
	if fs.NArg() != 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

func packBuild(args []string, stdout io.Writer) error {
	fs := newFlags("pack build")
	manifestPath := fs.String("manifest", "", "manifest `FILE`")
	out := fs.String("out", "", "output pack `FILE`")
	warningsPath := fs.String("warnings", "", "write the warnings, one a line, to `FILE` (empty when there are none)")
	var declared stringList
	fs.Var(&declared, "declared", "an image `PATH` (manifest-relative) the build provides; repeatable")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := required(fs, "manifest", "out"); err != nil {
		return err
	}
	// The build checks the manifest itself (the same parser and the same
	// declared-image rule as `manifest check`), so no separate check's
	// stamp can be skipped, and a rejected manifest leaves no pack.
	m, err := readManifest(*manifestPath)
	if err == nil {
		err = checkDeclared(*manifestPath, m, declared)
	}
	if err != nil {
		removeOutputs(*out, *warningsPath)
		return err
	}
	// The build's heap is small and nearly all live (each worker's PNG
	// file buffer, the tables; the pack and the inflated rows are
	// mapped outside it), yet the default 4 MiB goal collected it once
	// or twice per set, stopping the workers each time; a goal five
	// times the live heap skips that at no real cost in memory.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if err := assetpackbuild.WriteFile(*manifestPath, *out); err != nil {
		removeOutputs(*warningsPath)
		return rejected{err.Error()}
	}
	if *warningsPath != "" {
		var text string
		for _, w := range unusedImages(*manifestPath, m, declared) {
			text += w + "\n"
		}
		// Shown once when the action runs; the file keeps them for a cached
		// rebuild and for the strict check.
		fmt.Fprint(stdout, text)
		if err := durable.Write(*warningsPath, []byte(text), 0o644); err != nil {
			return fmt.Errorf("writing the warnings: %w", err)
		}
	}
	return nil // otherwise quiet on success: the rules run this for every build
}

// readPack reads and validates a pack file; the rejection is in the
// `FILE: RULE: message` form.
func readPack(path string) ([]byte, *pack.Pack, error) {
	data, err := readPackFile(path)
	if err != nil {
		return nil, nil, err
	}
	p, err := pack.Read(data)
	if err != nil {
		return nil, nil, rejected{fmt.Sprintf("%s: %v", path, err)}
	}
	return data, p, nil
}

// readPackFile reads at most one byte past the pack length limit, so an
// oversized file is refused (by the reader's length rule) without being
// held whole. The buffer is sized from Stat: one allocation of the file's
// size, where io.ReadAll's doubling held and copied up to twice as much.
func readPackFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, rejected{fmt.Sprintf("%s: pack_unreadable: %v", path, unwrapPath(err))}
	}
	defer f.Close()
	data, err := boundedread.Read(f, assetpackformat.MaxPackLength)
	if err != nil {
		return nil, rejected{fmt.Sprintf("%s: pack_unreadable: %v", path, unwrapPath(err))}
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func packVerify(args []string, stdout io.Writer) error {
	fs := newFlags("pack verify")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	path, err := oneArg(fs.Args(), "FILE")
	if err != nil {
		return err
	}
	data, p, err := readPack(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: ok: %d bytes, %d images, %d animations, %d frames, %d roles\n",
		path, len(data), len(p.Images), len(p.Animations), len(p.Frames), len(p.Roles))
	return nil
}

func packDiff(args []string, stdout io.Writer) error {
	fs := newFlags("pack diff")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError{"want GOT and WANT"}
	}
	gotPath, wantPath := fs.Arg(0), fs.Arg(1)
	got, err := readPackFile(gotPath)
	if err != nil {
		return err
	}
	want, err := readPackFile(wantPath)
	if err != nil {
		return err
	}
	if bytes.Equal(got, want) {
		return nil
	}
	return rejected{fmt.Sprintf("%s differs from %s: first difference in %s", gotPath, wantPath, assetpackformat.FirstDifference(got, want))}
}

func packInspect(args []string, stdout io.Writer) error {
	fs := newFlags("pack inspect")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	path, err := oneArg(fs.Args(), "FILE")
	if err != nil {
		return err
	}
	data, p, err := readPack(path)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, inspection{Header: p.Header, Regions: assetpackformat.Regions(data), Manifest: toJSON(manifestOf(p)), Entries: entriesOf(p), Check: p.Check})
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	h := p.Header
	fmt.Fprintf(w, "%s\t%d bytes, format %d, RGB565 high byte first, 1-bit mask, check %08x\n", path, h.PackLength, h.Version, p.Check)
	fmt.Fprintln(w, "\nregion\toffset\tlength")
	for _, r := range assetpackformat.Regions(data) {
		fmt.Fprintf(w, "%s\t%d\t%d\n", r.Name, r.Offset, r.Length)
	}
	fmt.Fprintln(w, "\nimage\tid\twidth\theight\tcolour\tmask")
	for i, im := range p.Images {
		e := p.Entries[i]
		fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%d@%d\t%d@%d\n", i, im.ID, e.Width, e.Height, e.ColourLength, e.ColourOffset, e.MaskLength, e.MaskOffset)
	}
	fmt.Fprintln(w, "\nanimation\tid\tframes")
	for i, a := range p.Animations {
		frames := make([]string, a.FrameCount)
		for k := range frames {
			f := p.Frames[int(a.FirstFrame)+k]
			frames[k] = fmt.Sprintf("[%d] %s %d ms", int(a.FirstFrame)+k, p.Images[f.Image].ID, f.DurationMS)
		}
		fmt.Fprintf(w, "%d\t%s\t%s\n", i, a.ID, strings.Join(frames, ", "))
	}
	fmt.Fprintln(w, "\nrole\tid\tanimation")
	for i, r := range p.Roles {
		mark := ""
		if i == int(h.FallbackRole) {
			mark = "  (fallback)"
		}
		fmt.Fprintf(w, "%d\t%s\t%s%s\n", i, r.ID, p.Animations[r.Animation].ID, mark)
	}
	return w.Flush()
}

// inspection is the `pack inspect --json` document.
type inspection struct {
	Header   pack.Header              `json:"header"`
	Regions  []assetpackformat.Region `json:"regions"`
	Manifest jsonManifest             `json:"manifest"`
	Entries  []jsonEntry              `json:"entries"`
	Check    uint32                   `json:"check"`
}

type jsonEntry struct {
	Image        string `json:"image"`
	Width        uint16 `json:"width"`
	Height       uint16 `json:"height"`
	ColourOffset uint32 `json:"colour_offset"`
	ColourLength uint32 `json:"colour_length"`
	MaskOffset   uint32 `json:"mask_offset"`
	MaskLength   uint32 `json:"mask_length"`
}

func manifestOf(p *pack.Pack) *manifest.Manifest {
	m := p.Manifest()
	return &m
}

func entriesOf(p *pack.Pack) []jsonEntry {
	es := make([]jsonEntry, len(p.Entries))
	for i, e := range p.Entries {
		es[i] = jsonEntry{p.Images[i].ID, e.Width, e.Height, e.ColourOffset, e.ColourLength, e.MaskOffset, e.MaskLength}
	}
	return es
}

func packCC(args []string, stdout io.Writer) error {
	fs := newFlags("pack cc")
	in := fs.String("pack", "", "pack `FILE`")
	symbol := fs.String("symbol", "", "C array `NAME`")
	header := fs.String("header", "", "output header `FILE`")
	source := fs.String("source", "", "output source `FILE`")
	include := fs.String("include", "", "how the source includes the header")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := required(fs, "pack", "symbol", "header", "source", "include"); err != nil {
		return err
	}
	data, _, err := readPack(*in)
	if err != nil {
		return err
	}
	h, c, err := assetpackc.Generate(data, *symbol, *include)
	if err != nil {
		return usageError{err.Error()}
	}
	if err := durable.Write(*header, h, 0o644); err != nil {
		return err
	}
	return durable.Write(*source, c, 0o644)
}
