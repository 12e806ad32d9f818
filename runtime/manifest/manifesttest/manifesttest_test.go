package manifesttest

import (
	"reflect"
	"testing"

	"github.com/agentpet/rules_pet/runtime/manifest"
)

func TestLimitsParses(t *testing.T) {
	m := Limits(6)
	got, err := manifest.Parse(manifest.Format(m))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatal("the limits manifest does not survive Format and Parse")
	}
	if len(m.Images) != manifest.MaxImages || len(m.Animations) != manifest.MaxAnimations ||
		len(m.Frames) != manifest.MaxFrames || len(m.Roles) != manifest.MaxRoles ||
		m.Animations[0].FrameCount != manifest.MaxFramesPerAnimation {
		t.Errorf("not at the limits: %d images, %d animations, %d frames, %d roles", len(m.Images), len(m.Animations), len(m.Frames), len(m.Roles))
	}
	if l := Limits(manifest.MaxIdentifierBytes); len(l.Images[0].ID) != manifest.MaxIdentifierBytes {
		t.Errorf("image id %q", l.Images[0].ID)
	}
}
