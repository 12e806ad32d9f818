// Command gen writes the shared PETP v1 vectors: tests/vectors/packs/*.pack
// and tests/vectors/VECTORS.txt, from tests/vectors.Generate. It builds the
// canonical pack from assets/pet with tools/assetpackbuild and refuses to write
// anything unless it equals tests/golden/pet.pack and the Go reader gives
// every vector its expected verdict.
//
//	go run ./tests/vectors/gen                  # from the repository root
//	go run ./tests/vectors/gen -large DIR       # also write the large vectors to DIR
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/tests/vectors"
	"github.com/agentpet/rules_pet/tools/assetpackbuild"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	large := flag.String("large", "", "also write the large vectors (16 MiB) and their manifest to this directory")
	onlyLarge := flag.Bool("only-large", false, "with -large: write only the large vectors")
	flag.Parse()
	if err := run(*root, *large, *onlyLarge); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(root, large string, onlyLarge bool) error {
	if !onlyLarge {
		canonical, err := assetpackbuild.BuildFile(filepath.Join(root, "assets", "pet", "manifest.petasset"))
		if err != nil {
			return err
		}
		golden, err := os.ReadFile(filepath.Join(root, "tests", "golden", "pet.pack"))
		if err != nil {
			return err
		}
		if !bytes.Equal(canonical, golden) {
			return fmt.Errorf("the pack built from assets/pet differs from tests/golden/pet.pack: %s", assetpackformat.FirstDifference(canonical, golden))
		}
		vs, err := vectors.Generate(canonical)
		if err != nil {
			return err
		}
		if err := check(vs); err != nil {
			return err
		}
		dir := filepath.Join(root, "tests", "vectors")
		if err := vectors.Write(dir, vs); err != nil {
			return err
		}
		fmt.Printf("gen: wrote %d vectors to %s\n", len(vs), dir)
	}
	if large != "" {
		vs, err := vectors.Large()
		if err != nil {
			return err
		}
		if err := check(vs); err != nil {
			return err
		}
		if err := vectors.Write(large, vs); err != nil {
			return err
		}
		fmt.Printf("gen: wrote %d large vectors to %s\n", len(vs), large)
	}
	return nil
}

// check refuses vectors the Go reader does not judge as expected, so a
// wrong expectation is caught before it is written.
func check(vs []vectors.Vector) error {
	bad := 0
	for _, v := range vs {
		if got := vectors.Verdict(v.Data); got != v.Expect {
			fmt.Fprintf(os.Stderr, "gen: %s: the Go reader says %s, the vector expects %s (%s)\n", v.Name, got, v.Expect, v.Desc)
			bad++
		}
	}
	if bad > 0 {
		return errors.New("expectations disagree with runtime/pack; nothing written")
	}
	return nil
}
