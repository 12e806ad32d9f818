// Command petbench is the benchmark suite's helper (tools/bench.sh): it
// writes the sprite sets and runs the baselines the suite compares
// rules_pet against, each as a whole process so that both sides pay the
// same start-up.
//
//	petbench sets DIR [NAME ...]         write the sets (all without NAME)
//	petbench decode -workers N MANIFEST  decode the set's PNGs with image/png
//	petbench readcrc FILE                os.ReadFile + crc32.ChecksumIEEE
//	petbench pet FRAMES DIR              write the high-tier pet and its spec.json
//	petbench preview SPEC                decode the spec's frames, encode a preview
package main

import (
	"bytes"
	"flag"
	"fmt"
	"hash/crc32"
	"image/png"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentpet/rules_pet/internal/testsupport/benchsets"
	"github.com/agentpet/rules_pet/runtime/manifest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "petbench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: petbench sets DIR [NAME ...] | decode -workers N MANIFEST | readcrc FILE | pet FRAMES DIR | preview SPEC")
	}
	switch args[0] {
	case "sets":
		return sets(args[1:])
	case "decode":
		return decode(args[1:])
	case "pet":
		return pet(args[1:])
	case "preview":
		return preview(args[1:])
	case "readcrc":
		if len(args) != 2 {
			return fmt.Errorf("readcrc: want one FILE")
		}
		data, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		fmt.Printf("%08x\n", crc32.ChecksumIEEE(data))
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func sets(args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("sets: want DIR")
	}
	list := benchsets.Sets
	if len(args) > 1 {
		list = nil
		for _, n := range args[1:] {
			s, err := benchsets.Lookup(n)
			if err != nil {
				return err
			}
			list = append(list, s)
		}
	}
	for _, s := range list {
		mp, err := benchsets.Write(args[0], s)
		if err != nil {
			return fmt.Errorf("set %s: %w", s.Name, err)
		}
		fmt.Println(mp)
	}
	return nil
}

// decode is the baseline the converter's speed is held against: read and
// decode every image of the manifest with image/png on n workers, and do
// nothing with the pixels.
func decode(args []string) error {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	workers := fs.Int("workers", 1, "decoding goroutines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *workers < 1 {
		return fmt.Errorf("decode: want -workers N (N >= 1) and one MANIFEST")
	}
	m, err := manifest.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	root := filepath.Dir(fs.Arg(0))
	jobs := make(chan string)
	errs := make(chan error, len(m.Images))
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
				if err == nil {
					_, err = png.Decode(bytes.NewReader(data))
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", p, err)
				}
			}
		}()
	}
	for _, im := range m.Images {
		jobs <- im.Path
	}
	close(jobs)
	wg.Wait()
	close(errs)
	return <-errs
}
