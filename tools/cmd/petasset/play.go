package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strconv"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/runtime/playback"
)

// petpackPlay validates an archive, runs a JSON-lines script of Agent
// events, pointer input, bubble and Reduce Motion switches and stalls on
// runtime/playback, and prints one JSON line per visible change. The
// script is parsed whole before anything is printed.
func petpackPlay(args []string, stdout io.Writer) error {
	fs := newFlags("petpack play")
	scriptPath := fs.String("script", "", "the JSON-lines `SCRIPT`")
	seed := fs.String("seed", "1", "the seed of the cooldown random source, an integer")
	// PET comes first in the documented form, so parse flags on either side.
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return usageError{"want a PET.petpack argument"}
	}
	pet := rest[0]
	if err := parseFlags(fs, rest[1:]); err != nil {
		return err
	}
	if err := required(fs, "script"); err != nil {
		return err
	}
	n, err := strconv.ParseInt(*seed, 10, 64)
	if err != nil {
		return usageError{fmt.Sprintf("--seed %q is not an integer", *seed)}
	}
	v := petpack.ValidatePath(pet)
	if !v.OK() {
		return rejectedVerdict(pet, v)
	}
	data, err := os.ReadFile(*scriptPath)
	if err != nil {
		return rejected{fmt.Sprintf("%s: script_unreadable: %v", *scriptPath, err)}
	}
	script, err := playback.ParseScript(data)
	if err != nil {
		var se *playback.ScriptError
		if errors.As(err, &se) && se.Line > 0 {
			return rejected{fmt.Sprintf("%s:%d: script_malformed: %s", *scriptPath, se.Line, se.Msg)}
		}
		if se != nil {
			return rejected{fmt.Sprintf("%s: script_malformed: %s", *scriptPath, se.Msg)}
		}
		return rejected{fmt.Sprintf("%s: script_malformed: %v", *scriptPath, err)}
	}
	p, err := playback.New(v.Manifest, rand.New(rand.NewSource(n)))
	if err != nil {
		return rejected{fmt.Sprintf("%s: %v", pet, err)}
	}
	w := bufio.NewWriter(stdout)
	var line []byte
	err = playback.Trace(p, script, func(l playback.Line) error {
		line = append(l.AppendJSON(line[:0]), '\n')
		_, err := w.Write(line)
		return err
	})
	if err != nil {
		return err
	}
	return w.Flush()
}
