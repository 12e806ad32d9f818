package vectors_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentpet/rules_pet/runtime/pack"
	"github.com/agentpet/rules_pet/runtime/presentation"
	"github.com/agentpet/rules_pet/tests/vectors"
)

// The C reader is reached through firmware/tools/pet_pack_check, a small
// host program around firmware/pet_pack.c. It is found, in this order, at
// $PET_PACK_CHECK (firmware/fuzz.sh points it at a sanitizer build), in the
// Bazel runfiles (//firmware:pet_pack_check), or compiled here with $CC (cc
// by default) from the firmware sources, under AddressSanitizer and
// UndefinedBehaviorSanitizer when the compiler has them.

var (
	helperOnce sync.Once
	helperPath string
	helperErr  error
	helperTmp  string

	serverMu sync.Mutex
	server   *cServer
)

func TestMain(m *testing.M) {
	// The helper frees what it allocates; leak checking at its exit needs
	// ptrace, which some containers refuse, and would only add noise.
	if os.Getenv("ASAN_OPTIONS") == "" {
		os.Setenv("ASAN_OPTIONS", "detect_leaks=0")
	}
	code := m.Run()
	serverMu.Lock()
	if server != nil {
		server.close()
	}
	serverMu.Unlock()
	if helperTmp != "" {
		os.RemoveAll(helperTmp)
	}
	os.Exit(code)
}

// checker returns the path of the C helper, building it on first use.
func checker(t testing.TB) string {
	t.Helper()
	helperOnce.Do(func() { helperPath, helperErr = findOrBuildChecker() })
	if helperErr != nil {
		t.Fatalf("C reader helper: %v", helperErr)
	}
	return helperPath
}

const firmwareDir = "../../firmware"

func findOrBuildChecker() (string, error) {
	if p := os.Getenv("PET_PACK_CHECK"); p != "" {
		return p, nil
	}
	if dir := os.Getenv("TEST_SRCDIR"); dir != "" {
		ws := os.Getenv("TEST_WORKSPACE")
		if ws == "" {
			ws = "rules_pet"
		}
		p := filepath.Join(dir, ws, "firmware", "pet_pack_check")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("under Bazel the helper must be a data dependency: %v", err)
		}
		return p, nil
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	tmp, err := os.MkdirTemp("", "pet_pack_check")
	if err != nil {
		return "", err
	}
	helperTmp = tmp
	srcs := []string{filepath.Join(firmwareDir, "pet_pack.c"), filepath.Join(firmwareDir, "tools", "pet_pack_check.c")}
	base := []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g", "-I" + firmwareDir}
	var failures []string
	for _, extra := range [][]string{
		{"-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"},
		nil,
	} {
		out := filepath.Join(tmp, fmt.Sprintf("pet_pack_check%d", len(failures)))
		args := append(append(append([]string{}, base...), extra...), "-o", out)
		args = append(args, srcs...)
		if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			failures = append(failures, fmt.Sprintf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg))
			continue
		}
		// A sanitizer build that links but cannot run here (no runtime,
		// ptrace limits) falls back to the plain one.
		if msg, err := exec.Command(out, "--rules").CombinedOutput(); err != nil {
			failures = append(failures, fmt.Sprintf("%s --rules: %v\n%s", out, err, msg))
			continue
		}
		return out, nil
	}
	return "", errors.New(strings.Join(failures, "\n"))
}

// cServer is one running `pet_pack_check --serve`.
type cServer struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	w      *bufio.Writer
	r      *bufio.Reader
	stderr *bytes.Buffer
}

func startServer(path string) (*cServer, error) {
	cmd := exec.Command(path, "--serve")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &cServer{cmd: cmd, in: in, w: bufio.NewWriterSize(in, 1<<16), r: bufio.NewReaderSize(out, 1<<16), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *cServer) close() {
	s.in.Close()
	s.cmd.Wait()
}

func (s *cServer) dump(data []byte) (string, error) {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(data)))
	if _, err := s.w.Write(n[:]); err != nil {
		return "", err
	}
	if _, err := s.w.Write(data); err != nil {
		return "", err
	}
	if err := s.w.Flush(); err != nil {
		return "", err
	}
	var b strings.Builder
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return "", err
		}
		if line == "end\n" {
			return b.String(), nil
		}
		b.WriteString(line)
	}
}

// cDump is the C reader's dump of data (see pet_pack_check.c). A helper
// that dies, a sanitizer report for instance, fails the test with its
// stderr and is restarted for the next input.
func cDump(t testing.TB, data []byte) string {
	t.Helper()
	path := checker(t)
	serverMu.Lock()
	defer serverMu.Unlock()
	if server == nil {
		s, err := startServer(path)
		if err != nil {
			t.Fatalf("start %s --serve: %v", path, err)
		}
		server = s
	}
	out, err := server.dump(data)
	if err != nil {
		server.in.Close()
		werr := server.cmd.Wait()
		msg := server.stderr.String()
		server = nil
		t.Fatalf("C reader died on a %d-byte input (%v, exit %v):\n%s", len(data), err, werr, msg)
	}
	return out
}

// firstLine is the verdict line of a dump, without "verdict ".
func firstLine(dump string) string {
	if i := strings.IndexByte(dump, '\n'); i >= 0 {
		dump = dump[:i]
	}
	return strings.TrimPrefix(dump, "verdict ")
}

// selectTimes are the elapsed times pet_pack_check asks every role at.
var selectTimes = []uint64{
	0, 1, 299, 300, 599, 600, 999, 1000, 1799, 59999, 60000, 959999, 960000,
	4294967295, 4294967296 + 123, 18446744073709551615,
}

func hexID(id string) string {
	if id == "" {
		return "-"
	}
	return hex.EncodeToString([]byte(id))
}

// goDump is what the C helper prints for data, computed from runtime/pack
// and runtime/presentation: the verdict, and for an accepted pack every
// table record, every payload's offset, length and CRC, the role found for
// each identifier, and the selection for every role (and one past the
// table, and an unknown name) at every time in selectTimes.
func goDump(data []byte) string {
	var b strings.Builder
	var p pack.Pack
	fmt.Fprintf(&b, "verdict %s\n", vectors.Verdict(data))
	if err := pack.ReadInto(data, &p); err != nil {
		return b.String()
	}
	h := p.Header
	fmt.Fprintf(&b, "counts images %d animations %d frames %d roles %d fallback %d\n", h.ImageCount, h.AnimationCount, h.FrameCount, h.RoleCount, h.FallbackRole)
	for i, im := range p.Images {
		e := p.Entries[i]
		fmt.Fprintf(&b, "image %d %s %dx%d colour %d %d %08x mask %d %d %08x\n", i, hexID(im.ID), e.Width, e.Height,
			e.ColourOffset, len(e.Colour), crc32.ChecksumIEEE(e.Colour), e.MaskOffset, len(e.Mask), crc32.ChecksumIEEE(e.Mask))
	}
	for i, a := range p.Animations {
		fmt.Fprintf(&b, "animation %d %s first %d count %d\n", i, hexID(a.ID), a.FirstFrame, a.FrameCount)
	}
	for i, f := range p.Frames {
		fmt.Fprintf(&b, "frame %d image %d duration %d\n", i, f.Image, f.DurationMS)
	}
	m := p.Manifest()
	for i, r := range p.Roles {
		fmt.Fprintf(&b, "role %d %s animation %d find %d\n", i, hexID(r.ID), r.Animation, m.RoleIndex(r.ID))
	}
	sel := func(s presentation.Selection) {
		fb := 0
		if s.UsedFallback {
			fb = 1
		}
		fmt.Fprintf(&b, "role %d fallback %d animation %d frame %d image %d next %d\n", s.Role, fb, s.Animation, s.Frame, s.Image, s.UntilNextMS)
	}
	for i := 0; i <= len(p.Roles); i++ {
		for _, ms := range selectTimes {
			fmt.Fprintf(&b, "select %d at %d ", i, ms)
			sel(presentation.SelectIndex(&m, i, ms))
		}
	}
	for _, ms := range selectTimes {
		fmt.Fprintf(&b, "select unknown at %d ", ms)
		sel(presentation.Select(&m, "no such role", ms))
	}
	return b.String()
}

// compare fails when the Go and C readers disagree on data: in verdict, or
// for an accepted pack in any lookup.
func compare(t testing.TB, what string, data []byte) {
	t.Helper()
	g, c := goDump(data), cDump(t, data)
	if g == c {
		return
	}
	if gv, cv := firstLine(g), firstLine(c); gv != cv {
		t.Fatalf("%s: Go says %s, C says %s", what, gv, cv)
	}
	gl, cl := strings.Split(g, "\n"), strings.Split(c, "\n")
	for i := 0; i < len(gl) && i < len(cl); i++ {
		if gl[i] != cl[i] {
			t.Fatalf("%s: the readers agree on the verdict but differ at dump line %d:\n  Go: %s\n  C:  %s", what, i+1, gl[i], cl[i])
		}
	}
	t.Fatalf("%s: the dumps differ in length: Go %d lines, C %d lines", what, len(gl), len(cl))
}
