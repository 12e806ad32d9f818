package main

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentpet/rules_pet/runtime/desktop/control"
)

// TestDesktopSend runs `petasset desktop send` against real listeners:
// each form delivers its message, a bad one is a usage error that sends
// nothing, no pet is exit 1 with the reason, and with two pets the ID
// chooses.
func TestDesktopSend(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", shortTempDir(t))
	if code, _, stderr := runCLI("desktop", "send", "thinking"); code != exitRejected || !strings.Contains(stderr, "no desktop pet is running") {
		t.Errorf("with no pet: exit %d, stderr %q", code, stderr)
	}
	l, err := control.Listen("pet_tabby")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cases := []struct {
		args []string
		want control.Message
		code int
		msg  string
	}{
		{args: []string{"thinking"}, want: control.EventMessage("thinking")},
		{args: []string{"--id", "pet_tabby", "done"}, want: control.EventMessage("done")},
		{args: []string{"role", "activity_curious"}, want: control.RoleMessage("activity_curious")},
		{args: []string{"bubble", "Build", "is", "green"}, want: control.BubbleMessage("Build is green")},
		{args: []string{"bubble", "--clear"}, want: control.ClearBubble()},
		{args: []string{"reduce-motion", "on"}, want: control.ReduceMotionMessage(true)},
		{args: []string{"reduce-motion", "off"}, want: control.ReduceMotionMessage(false)},
		{args: []string{"dance"}, code: exitUsage, msg: "control_unknown_event"},
		{args: []string{}, code: exitUsage, msg: "want a message"},
		{args: []string{"done", "now"}, code: exitUsage, msg: "unexpected argument"},
		{args: []string{"role"}, code: exitUsage, msg: "role wants"},
		{args: []string{"role", "Big"}, code: exitUsage, msg: "control_invalid_role"},
		{args: []string{"bubble"}, code: exitUsage, msg: "bubble wants TEXT"},
		{args: []string{"bubble", strings.Repeat("x", control.MaxBubbleRunes+1)}, code: exitUsage, msg: "control_bubble_too_long"},
		{args: []string{"done", "--clear"}, code: exitUsage, msg: "--clear goes with bubble"},
		{args: []string{"reduce-motion", "maybe"}, code: exitUsage, msg: "on or off"},
		{args: []string{"--id", "nobody", "done"}, code: exitRejected, msg: `no desktop pet is running with ID "nobody"`},
		{args: []string{"--id", "Bad/ID", "done"}, code: exitRejected, msg: "pet ID"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(append([]string{"desktop", "send"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
			continue
		}
		if c.code != exitOK {
			continue
		}
		select {
		case got := <-l.Messages():
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%q delivered %+v, want %+v", c.args, got, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q delivered nothing", c.args)
		}
	}
	select {
	case m := <-l.Messages():
		t.Errorf("a refused command delivered %+v", m)
	default:
	}

	second, err := control.Listen("pet_tabby")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if code, _, stderr := runCLI("desktop", "send", "tool"); code != exitRejected || !strings.Contains(stderr, "pet_tabby, pet_tabby.2") {
		t.Errorf("two pets, no ID: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI("desktop", "send", "--id", "pet_tabby.2", "tool"); code != exitOK {
		t.Fatalf("--id pet_tabby.2: exit %d, stderr %q", code, stderr)
	}
	if got := <-second.Messages(); got.Event != "tool" {
		t.Errorf("the second pet got %+v", got)
	}
}

// shortTempDir is t.TempDir, or a directory under /tmp when that path is
// too long for the control sockets below it (sun_path holds 107 bytes;
// Bazel's TEST_TMPDIR can use most of them).
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if len(dir) <= 60 {
		return dir
	}
	dir, err := os.MkdirTemp("/tmp", "petasset")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
