package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/assets/pet/assetpack"
)

func TestPrintScheduleOfEmbeddedPack(t *testing.T) {
	var out bytes.Buffer
	if err := printSchedule(&out, assetpack.Pack, 2); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"pack: 44232 bytes, 6 roles, fallback fallback_default\n",
		"expression_happy -> anim_happy\n" +
			"       0 ms  frame 4  image sprite_happy       300 ms\n" +
			"     300 ms  frame 5  image sprite_idle        300 ms\n" +
			"     600 ms  frame 4  image sprite_happy       300 ms\n" +
			"     900 ms  frame 5  image sprite_idle        300 ms\n",
		"fallback_default -> anim_fallback\n" +
			"       0 ms  frame 0  image sprite_fallback   1000 ms\n" +
			"    1000 ms  frame 0  image sprite_fallback   1000 ms\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("schedule lacks\n%s\ngot:\n%s", want, got)
		}
	}
}

func TestPrintScheduleRejectsABrokenPack(t *testing.T) {
	broken := append([]byte(nil), assetpack.Pack...)
	broken[0] = 'X'
	if err := printSchedule(new(bytes.Buffer), broken, 1); err == nil || !strings.Contains(err.Error(), "bad_magic") {
		t.Errorf("printSchedule(broken) = %v, want a bad_magic rejection", err)
	}
}
