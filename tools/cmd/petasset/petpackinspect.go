package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// petpackInspection is the `petpack inspect --json` document.
type petpackInspection struct {
	Path       string            `json:"path"`
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Style      string            `json:"style"`
	Quality    petpack.Quality   `json:"quality"`
	RenderSize petpack.Size      `json:"render_size"`
	Entries    []inspectedEntry  `json:"entries"`
	States     []inspectedState  `json:"states"`
	Warnings   []petpack.Finding `json:"warnings"`
}

type inspectedEntry struct {
	Path string `json:"path"`
	// Size is the entry's uncompressed length; Stored its length in the
	// archive (the file's own length for a package directory).
	Size   int64 `json:"size"`
	Stored int64 `json:"stored_size"`
}

type inspectedState struct {
	Name             petpack.Action       `json:"name"`
	Mode             petpack.PlaybackMode `json:"mode"`
	Frames           int                  `json:"frames"`
	FrameDurationsMS []int                `json:"frame_durations_ms"`
	CycleMS          int                  `json:"cycle_ms"`
	ReducedMotion    int                  `json:"reduced_motion_frame_index"`
}

// petpackInspect validates a .petpack (or package directory) and prints
// its entries with their sizes, its states with their durations, and its
// warnings. Only a valid package is described: the listing of an archive
// the validator refused would show bytes no reader will ever use.
func petpackInspect(args []string, stdout io.Writer) error {
	fs := newFlags("petpack inspect")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	path, err := oneArg(fs.Args(), "FILE|DIR")
	if err != nil {
		return err
	}
	v, entries, err := inspectEntries(path)
	if err != nil {
		return err
	}
	if !v.OK() {
		return rejectedVerdict(path, v)
	}
	m := v.Manifest
	doc := petpackInspection{Path: path, ID: m.ID, Name: m.Name, Style: m.Style, Quality: m.Quality, RenderSize: m.RenderSize, Entries: entries, Warnings: v.Warnings}
	for _, s := range m.States {
		cycle := 0
		for _, d := range s.FrameDurationsMS {
			cycle += d
		}
		doc.States = append(doc.States, inspectedState{s.Name, s.Playback.Mode, len(s.FrameDurationsMS), s.FrameDurationsMS, cycle, s.ReducedMotionFrameIndex})
	}
	if doc.Warnings == nil {
		doc.Warnings = []petpack.Finding{}
	}
	if *asJSON {
		return writeJSON(stdout, doc)
	}
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "%s\t%s %q, %s, %s quality %dx%d, %d entries, %d bytes uncompressed, %d warnings\n", path, m.ID, m.Name, m.Style, m.Quality, m.RenderSize.Width, m.RenderSize.Height, len(entries), total, len(v.Warnings))
	fmt.Fprintln(w, "\nentry\tsize\tstored")
	for _, e := range entries {
		fmt.Fprintf(w, "%s\t%d\t%d\n", e.Path, e.Size, e.Stored)
	}
	fmt.Fprintln(w, "\nstate\tmode\tframes\tcycle ms\treduced\tdurations ms")
	for _, s := range doc.States {
		d := make([]string, len(s.FrameDurationsMS))
		for i, ms := range s.FrameDurationsMS {
			d[i] = fmt.Sprint(ms)
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%s\n", s.Name, s.Mode, s.Frames, s.CycleMS, s.ReducedMotion, strings.Join(d, " "))
	}
	if len(v.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings")
		for _, f := range v.Warnings {
			fmt.Fprintf(w, "%s\n", f)
		}
	}
	return w.Flush()
}

// inspectEntries validates path (petpack.OpenPath: an archive or a
// package directory, no link followed) and lists the files of a valid one
// in path order, through the validator's own reader.
func inspectEntries(path string) (*petpack.Verdict, []inspectedEntry, error) {
	pkg, v := petpack.OpenPath(path)
	if pkg == nil {
		return v, nil, nil
	}
	defer pkg.Close()
	var out []inspectedEntry
	for _, e := range pkg.Entries() {
		out = append(out, inspectedEntry{e.Path, e.Size, e.StoredSize})
	}
	return v, out, nil
}
