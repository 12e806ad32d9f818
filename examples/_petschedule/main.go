// Command petschedule is a desktop app that embeds its pet: the pet asset
// pack Bazel builds from //assets/pet is compiled into it. By default it
// prints the pack's role -> frame schedule: for every role, the frames the
// role shows over its animation's cycles, read back through runtime/pack and
// timed by runtime/presentation exactly as a desktop frontend would. With
// -show it shows the embedded pet on the X display through runtime/desktop,
// as petdesk --pack does, with no file to read at all.
//
//	bazel run //examples/_petschedule:petschedule -- [-cycles N]
//	bazel run //examples/_petschedule:petschedule -- -show [-role NAME]
//
// # Why this directory starts with an underscore
//
// The pack comes from github.com/agentpet/rules_pet/assets/pet/assetpack, a
// go_library that pet_asset_pack_go_library generates inside Bazel (a .go file with
// //go:embed of the built pack). No .go file of that package exists in the
// source tree, so a plain `go build ./...` or `go vet ./...` would fail to
// resolve the import. The go tool skips directories whose names begin with
// "_" (see `go help packages`), so this program is invisible to it and the
// module stays buildable with the go tool alone, without build tags (which
// Gazelle and rules_go would need to be taught as well) or a nested module
// (which would need a replace directive and still could not resolve the
// generated package). The root BUILD.bazel has `# gazelle:exclude` for this
// directory, and its BUILD.bazel is written by hand.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentpet/rules_pet/assets/pet/assetpack"
	"github.com/agentpet/rules_pet/runtime/desktop"
	"github.com/agentpet/rules_pet/runtime/desktop/control"
	"github.com/agentpet/rules_pet/runtime/desktop/x11"
	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/runtime/presentation"
)

func main() {
	cycles := flag.Int("cycles", 1, "whole animation cycles to list per role (at least 1)")
	show := flag.Bool("show", false, "show the embedded pet on the X display ($DISPLAY) instead")
	role := flag.String("role", "activity_idle", "the role -show presents")
	flag.Parse()
	if flag.NArg() != 0 || *cycles < 1 {
		fmt.Fprintln(os.Stderr, "usage: petschedule [-cycles N] | -show [-role NAME]")
		os.Exit(2)
	}
	if *show {
		if err := showPet(*role); err != nil {
			fmt.Fprintln(os.Stderr, "petschedule:", err)
			os.Exit(1)
		}
		return
	}
	if err := printSchedule(os.Stdout, assetpack.Pack, *cycles); err != nil {
		fmt.Fprintln(os.Stderr, "petschedule:", err)
		os.Exit(1)
	}
}

// showPet shows the embedded pack on the desktop until the display goes
// away, taking control messages as the ID "petschedule".
func showPet(role string) error {
	pet, err := desktop.FromPack(assetpack.Pack, role)
	if err != nil {
		return fmt.Errorf("embedded pack: %v", err)
	}
	b, err := x11.Open("")
	if err != nil {
		return err
	}
	defer b.Close()
	l, err := control.Listen("petschedule")
	if err != nil {
		return err
	}
	defer l.Close()
	return desktop.Run(b, pet, l.Messages(), desktop.Options{X: 64, Y: 64, Scale: 2, Title: "petschedule", Errors: os.Stderr})
}

// printSchedule validates data as a PETP pack and writes, for every role in
// table order, one line per scheduled frame:
//
//	role -> animation
//	  START_MS  frame F  image ID  DURATION ms
func printSchedule(w io.Writer, data []byte, cycles int) error {
	p, err := pack.Read(data)
	if err != nil {
		return fmt.Errorf("embedded pack: %v", err)
	}
	m := p.Manifest()
	fmt.Fprintf(w, "pack: %d bytes, %d roles, fallback %s\n", len(data), len(m.Roles), m.Roles[m.Fallback].ID)
	for _, r := range m.Roles {
		fmt.Fprintf(w, "%s -> %s\n", r.ID, m.Animations[r.Animation].ID)
		for _, s := range presentation.Schedule(&m, r.ID, cycles) {
			fmt.Fprintf(w, "  %6d ms  frame %d  image %-16s %5d ms\n", s.StartMS, s.Frame, s.ImageID, s.DurationMS)
		}
	}
	return nil
}
