package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentpet/rules_pet/runtime/desktop/control"
)

// copyTree copies the runtime copy at src to a new directory, dropping the
// manifest lines that start with one of drop, and returns the directory.
func copyTree(t *testing.T, src string, drop ...string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "manifest.petasset" {
			var kept []string
			for _, l := range strings.Split(string(data), "\n") {
				dropped := false
				for _, d := range drop {
					dropped = dropped || strings.HasPrefix(l, d+" ")
				}
				if !dropped {
					kept = append(kept, l)
				}
			}
			data = []byte(strings.Join(kept, "\n"))
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestEventsReachManifestPets: every Agent event reaches a pack pet and a
// runtime-copy pet through control's event -> role table, and an event
// whose role the manifest does not map presents the fallback role
// (manifest contract section 5.4). The images expected are read off the
// manifests by hand (the golden pack is //assets/pet, whose manifest is
// the canonical runtime copy's), not through the table.
func TestEventsReachManifestPets(t *testing.T) {
	const canonical = "../assetset/testdata/canonical"
	all := map[string]string{
		"start": "sprite_idle", "thinking": "sprite_curious", "plan": "sprite_curious",
		"tool": "sprite_attentive", "waiting": "sprite_attentive",
		"done": "sprite_happy", "failed": "sprite_idle", // expression_neutral is anim_idle
	}
	// Without activity_attentive and expression_neutral, tool, waiting
	// and failed present fallback_default.
	partial := map[string]string{}
	for e, img := range all {
		partial[e] = img
	}
	partial["tool"], partial["waiting"], partial["failed"] = "sprite_fallback", "sprite_fallback", "sprite_fallback"
	packData, err := os.ReadFile("../../tests/golden/pet.pack")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		pet  func(role string) (Pet, error)
		want map[string]string
	}{
		{"pack", func(role string) (Pet, error) { return FromPack(packData, role) }, all},
		{"runtime copy", func(role string) (Pet, error) { return FromRuntime(canonical, role) }, all},
		{"runtime copy lacking two roles", func(role string) (Pet, error) {
			return FromRuntime(copyTree(t, canonical, "activity_attentive", "expression_neutral"), role)
		}, partial},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.want) != len(control.EventRoles()) {
				t.Fatalf("%d expectations for %d events", len(tc.want), len(control.EventRoles()))
			}
			for _, r := range control.EventRoles() {
				// Start from a role showing another image, so the
				// event must change what shows.
				first := "fallback_default"
				if tc.want[r.Event] == "sprite_fallback" {
					first = "activity_curious"
				}
				p, err := tc.pet(first)
				if err != nil {
					t.Fatal(err)
				}
				if p.Show(0).Key == tc.want[r.Event] {
					t.Fatalf("role %s already shows %s", first, tc.want[r.Event])
				}
				if err := p.Command(10, control.EventMessage(r.Event)); err != nil {
					t.Fatalf("event %s: %v", r.Event, err)
				}
				if got := p.Show(10).Key; got != tc.want[r.Event] {
					t.Errorf("event %s shows %s, want %s", r.Event, got, tc.want[r.Event])
				}
			}
		})
	}
}
