package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentpet/rules_pet/runtime/desktop/control"
)

// desktopSend sends one control message to a running desktop pet and
// waits for its reply. A pet's refusal, and no pet running, are exit 1.
func desktopSend(args []string, stdout io.Writer) error {
	fs := newFlags("desktop send")
	id := fs.String("id", "", "the pet's `ID` (ID.N for the N-th pet with one ID); needed only when several pets run")
	clear := fs.Bool("clear", false, "with bubble and no TEXT: clear the bubble")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	m, err := desktopMessage(fs.Args(), *clear)
	if err != nil {
		return err
	}
	if err := control.Send(*id, m); err != nil {
		var refused *control.Error
		if errors.As(err, &refused) || errors.Is(err, control.ErrNotRunning) {
			return rejected{"petasset desktop send: " + err.Error()}
		}
		return err
	}
	return nil
}

// desktopMessage turns the positional arguments into a message: EVENT,
// role NAME, bubble TEXT..., bubble --clear, or reduce-motion on|off.
// Message.Check's refusals (an unknown event, a bad role, bubble text too
// long) are usage errors: nothing was sent.
func desktopMessage(args []string, clear bool) (control.Message, error) {
	if len(args) == 0 {
		return control.Message{}, usageError{"want a message: EVENT, role NAME, bubble TEXT, bubble --clear or reduce-motion on|off"}
	}
	var m control.Message
	if clear && (args[0] != "bubble" || len(args) != 1) {
		return m, usageError{"--clear goes with bubble alone: bubble --clear"}
	}
	switch args[0] {
	case "role":
		if len(args) != 2 {
			return m, usageError{"role wants exactly one NAME"}
		}
		m = control.RoleMessage(args[1])
	case "bubble":
		if clear {
			m = control.ClearBubble()
			break
		}
		// The words after "bubble" are the text, so an unquoted sentence
		// works; --clear is the only way to send an empty bubble.
		text := strings.Join(args[1:], " ")
		if text == "" {
			return m, usageError{"bubble wants TEXT (or --clear)"}
		}
		m = control.BubbleMessage(text)
	case "reduce-motion":
		if len(args) != 2 || args[1] != "on" && args[1] != "off" {
			return m, usageError{"reduce-motion wants on or off"}
		}
		m = control.ReduceMotionMessage(args[1] == "on")
	default:
		if len(args) != 1 {
			return m, usageError{fmt.Sprintf("unexpected argument %q after the event", args[1])}
		}
		m = control.EventMessage(args[0])
	}
	if err := m.Check(); err != nil {
		return m, usageError{err.Error()}
	}
	return m, nil
}
