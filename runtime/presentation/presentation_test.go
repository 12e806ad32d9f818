package presentation

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

// canonicalText is the example of manifest contract section 10.
const canonicalText = `manifest pet 1

# pet presentation assets for v0.2.0

[images]
sprite_fallback   sprites/fallback.png
sprite_idle       sprites/idle.png
sprite_curious    sprites/curious.png
sprite_attentive  sprites/attentive.png
sprite_happy      sprites/happy.png

[animations]
anim_fallback   sprite_fallback 1000
anim_idle       sprite_idle 900
anim_curious    sprite_curious 700
anim_attentive  sprite_attentive 700
anim_happy      sprite_happy 300 sprite_idle 300

[roles]
activity_idle       anim_idle
activity_curious    anim_curious
activity_attentive  anim_attentive
expression_neutral  anim_idle
expression_happy    anim_happy
fallback_default    anim_fallback

[fallback]
fallback_default
`

// Indices into the canonical manifest.
const (
	imgFallback, imgIdle, imgHappy = 0, 1, 4
	animFallback, animIdle         = 0, 1
	animHappy                      = 4
	frameFallback, frameIdle       = 0, 1
	frameHappy0, frameHappy1       = 4, 5 // sprite_happy, then sprite_idle
	roleIdle, roleHappy, roleFall  = 0, 4, 5
)

func parse(t testing.TB, text string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return m
}

// sixteenFrames has one animation of 16 frames lasting 1, 2, ..., 16 ms
// (136 ms a cycle) and one of 16 frames of 60000 ms (960000 ms, the longest
// cycle the limits allow).
func sixteenFrames() string {
	var short, long strings.Builder
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&short, " img%d %d", i%2, i)
		fmt.Fprintf(&long, " img%d 60000", i%2)
	}
	return "manifest pet 1\n[images]\nimg0 sprites/0.png\nimg1 sprites/1.png\n" +
		"[animations]\nshort" + short.String() + "\nlong" + long.String() + "\n" +
		"[roles]\nrole_short short\nrole_long long\n[fallback]\nrole_short\n"
}

func TestSelect(t *testing.T) {
	canon := parse(t, canonicalText)
	sixteen := parse(t, sixteenFrames())
	happy := func(frame, image int, until uint64) Selection {
		return Selection{Role: roleHappy, RoleID: "expression_happy", Animation: animHappy, Frame: frame, Image: image, UntilNextMS: until}
	}
	fallback := func(until uint64) Selection {
		return Selection{Role: roleFall, RoleID: "fallback_default", UsedFallback: true, Animation: animFallback, Frame: frameFallback, Image: imgFallback, UntilNextMS: until}
	}
	short := func(frame int, until uint64) Selection {
		return Selection{Role: 0, RoleID: "role_short", Animation: 0, Frame: frame, Image: (frame + 1) % 2, UntilNextMS: until}
	}
	long := func(frame int, until uint64) Selection {
		return Selection{Role: 1, RoleID: "role_long", Animation: 1, Frame: 16 + frame, Image: (frame + 1) % 2, UntilNextMS: until}
	}
	tests := []struct {
		name    string
		m       *manifest.Manifest
		role    string
		elapsed uint64
		want    Selection
	}{
		{"happy at 0", canon, "expression_happy", 0, happy(frameHappy0, imgHappy, 300)},
		{"happy at 299, last ms of frame 0", canon, "expression_happy", 299, happy(frameHappy0, imgHappy, 1)},
		{"happy at 300, first ms of frame 1", canon, "expression_happy", 300, happy(frameHappy1, imgIdle, 300)},
		{"happy at 599, last ms of the cycle", canon, "expression_happy", 599, happy(frameHappy1, imgIdle, 1)},
		{"happy at 600 wraps", canon, "expression_happy", 600, happy(frameHappy0, imgHappy, 300)},
		{"happy at 10^12 (mod 600 = 400)", canon, "expression_happy", 1_000_000_000_000, happy(frameHappy1, imgIdle, 200)},
		{"happy at max uint64 (mod 600 = 15)", canon, "expression_happy", math.MaxUint64, happy(frameHappy0, imgHappy, 285)},
		{"happy at max uint64 - 15 (mod 600 = 0)", canon, "expression_happy", math.MaxUint64 - 15, happy(frameHappy0, imgHappy, 300)},
		{"happy at max uint64 - 16 (mod 600 = 599)", canon, "expression_happy", math.MaxUint64 - 16, happy(frameHappy1, imgIdle, 1)},
		{"single frame at 0", canon, "activity_idle", 0, Selection{Role: roleIdle, RoleID: "activity_idle", Animation: animIdle, Frame: frameIdle, Image: imgIdle, UntilNextMS: 900}},
		{"single frame at 899", canon, "activity_idle", 899, Selection{Role: roleIdle, RoleID: "activity_idle", Animation: animIdle, Frame: frameIdle, Image: imgIdle, UntilNextMS: 1}},
		{"single frame at 900 shows it again", canon, "activity_idle", 900, Selection{Role: roleIdle, RoleID: "activity_idle", Animation: animIdle, Frame: frameIdle, Image: imgIdle, UntilNextMS: 900}},
		{"single frame at max uint64", canon, "activity_idle", math.MaxUint64, Selection{Role: roleIdle, RoleID: "activity_idle", Animation: animIdle, Frame: frameIdle, Image: imgIdle, UntilNextMS: 900 - math.MaxUint64%900}},
		{"roles sharing an animation", canon, "expression_neutral", 5, Selection{Role: 3, RoleID: "expression_neutral", Animation: animIdle, Frame: frameIdle, Image: imgIdle, UntilNextMS: 895}},
		{"unmapped role uses fallback", canon, "activity_sleeping", 0, fallback(1000)},
		{"empty role uses fallback", canon, "", 1500, fallback(500)},
		{"role ids are case sensitive", canon, "Expression_happy", 0, fallback(1000)},
		{"fallback role asked for by name is not a fallback", canon, "fallback_default", 999,
			Selection{Role: roleFall, RoleID: "fallback_default", Animation: animFallback, Frame: frameFallback, Image: imgFallback, UntilNextMS: 1}},
		{"16 frames at 0", sixteen, "role_short", 0, short(0, 1)},
		{"16 frames at 1", sixteen, "role_short", 1, short(1, 2)},
		{"16 frames at 2", sixteen, "role_short", 2, short(1, 1)},
		{"16 frames at 3", sixteen, "role_short", 3, short(2, 3)},
		{"16 frames at 120, first ms of the last", sixteen, "role_short", 120, short(15, 16)},
		{"16 frames at 135, last ms of the cycle", sixteen, "role_short", 135, short(15, 1)},
		{"16 frames at 136 wraps", sixteen, "role_short", 136, short(0, 1)},
		{"16 frames at max uint64 (mod 136 = 119)", sixteen, "role_short", math.MaxUint64, short(14, 1)},
		{"longest cycle at max uint64 (mod 960000 = 111615)", sixteen, "role_long", math.MaxUint64, long(1, 8385)},
		{"longest cycle at 959999", sixteen, "role_long", 959999, long(15, 1)},
		{"unmapped role in another manifest", sixteen, "nope", 0,
			Selection{Role: 0, RoleID: "role_short", UsedFallback: true, Animation: 0, Frame: 0, Image: 1, UntilNextMS: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Select(tc.m, tc.role, tc.elapsed); got != tc.want {
				t.Errorf("Select(%q, %d) =\n %+v, want\n %+v", tc.role, tc.elapsed, got, tc.want)
			}
		})
	}
}

func TestSelectIndex(t *testing.T) {
	m := parse(t, canonicalText)
	tests := []struct {
		role         int
		wantRole     int
		wantFallback bool
	}{
		{roleHappy, roleHappy, false},
		{0, 0, false},
		{len(m.Roles) - 1, len(m.Roles) - 1, false},
		{-1, roleFall, true},
		{len(m.Roles), roleFall, true},
		{math.MaxInt, roleFall, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.role), func(t *testing.T) {
			got := SelectIndex(m, tc.role, 0)
			if got.Role != tc.wantRole || got.UsedFallback != tc.wantFallback {
				t.Errorf("SelectIndex(%d) = role %d fallback %v, want role %d fallback %v",
					tc.role, got.Role, got.UsedFallback, tc.wantRole, tc.wantFallback)
			}
			if byName := Select(m, m.Roles[got.Role].ID, 0); !tc.wantFallback && byName != got {
				t.Errorf("SelectIndex = %+v, Select by name = %+v", got, byName)
			}
		})
	}
}

func TestSchedule(t *testing.T) {
	m := parse(t, canonicalText)
	tests := []struct {
		name   string
		role   string
		cycles int
		want   []Step
	}{
		{"two cycles of happy", "expression_happy", 2, []Step{
			{StartMS: 0, Frame: frameHappy0, Image: imgHappy, ImageID: "sprite_happy", DurationMS: 300},
			{StartMS: 300, Frame: frameHappy1, Image: imgIdle, ImageID: "sprite_idle", DurationMS: 300},
			{StartMS: 600, Frame: frameHappy0, Image: imgHappy, ImageID: "sprite_happy", DurationMS: 300},
			{StartMS: 900, Frame: frameHappy1, Image: imgIdle, ImageID: "sprite_idle", DurationMS: 300},
		}},
		{"single frame", "activity_idle", 1, []Step{
			{StartMS: 0, Frame: frameIdle, Image: imgIdle, ImageID: "sprite_idle", DurationMS: 900},
		}},
		{"unmapped role schedules fallback", "nope", 1, []Step{
			{StartMS: 0, Frame: frameFallback, Image: imgFallback, ImageID: "sprite_fallback", DurationMS: 1000},
		}},
		{"zero cycles", "expression_happy", 0, nil},
		{"negative cycles", "expression_happy", -3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Schedule(m, tc.role, tc.cycles)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Schedule(%q, %d) =\n %+v, want\n %+v", tc.role, tc.cycles, got, tc.want)
			}
			for _, st := range got {
				sel := Select(m, tc.role, st.StartMS)
				if sel.Frame != st.Frame || sel.UntilNextMS != uint64(st.DurationMS) {
					t.Errorf("Select at step start %d = frame %d until %d, want frame %d until %d",
						st.StartMS, sel.Frame, sel.UntilNextMS, st.Frame, st.DurationMS)
				}
			}
		})
	}
}

func BenchmarkSelect(b *testing.B) {
	m := parse(b, canonicalText)
	long := parse(b, sixteenFrames())
	benches := []struct {
		name string
		m    *manifest.Manifest
		role string
	}{
		{"canonical/two_frames", m, "expression_happy"},
		{"canonical/unmapped", m, "activity_sleeping"},
		{"sixteen_frames", long, "role_long"},
	}
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var sink Selection
			for i := 0; i < b.N; i++ {
				sink = Select(bc.m, bc.role, uint64(i)*7919)
			}
			_ = sink
		})
	}
}
