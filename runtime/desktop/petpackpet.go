package desktop

import (
	"bytes"
	"fmt"
	"image"
	"io/fs"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/runtime/playback"
)

// FrameSource reads one frame's PNG bytes: action, then index in the
// action's natural frame order.
type FrameSource func(a petpack.Action, i int) ([]byte, error)

// petpackPet plays a validated .petpack manifest with runtime/playback and
// decodes each frame the first time it shows.
type petpackPet struct {
	m      *petpack.Manifest
	player *playback.Player
	read   FrameSource
	cache  map[string]*image.NRGBA
}

// NewPetpack returns the pet of a validated manifest whose frames src
// reads, its idle cooldowns drawn from seed.
func NewPetpack(m *petpack.Manifest, src FrameSource, seed int64) (Pet, error) {
	pl, err := playback.New(m, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	return &petpackPet{m: m, player: pl, read: src, cache: map[string]*image.NRGBA{}}, nil
}

// InvalidPetpackError is a .petpack file the validator refused.
type InvalidPetpackError struct {
	// Path is the file as given.
	Path string
	// Err is the validator's error, every finding with its rule.
	Err error
}

func (e *InvalidPetpackError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }

// Unwrap returns the validator's error.
func (e *InvalidPetpackError) Unwrap() error { return e.Err }

// OpenPetpack validates the .petpack archive at file (an invalid one is an
// *InvalidPetpackError naming every rule broken) and returns its manifest
// and frames, read through the package the validator accepted.
func OpenPetpack(file string) (*petpack.Manifest, FrameSource, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	pkg, v := petpack.Open(bytes.NewReader(data), int64(len(data)))
	if err := v.Err(); err != nil {
		return nil, nil, &InvalidPetpackError{Path: file, Err: err}
	}
	files := pkg.FS()
	src := func(a petpack.Action, i int) ([]byte, error) {
		names := pkg.Frames(a)
		if i < 0 || i >= len(names) {
			return nil, fmt.Errorf("%s: no frame %d of %s", file, i, a)
		}
		b, err := fs.ReadFile(files, names[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, names[i], err)
		}
		return b, nil
	}
	return pkg.Manifest, src, nil
}

func (p *petpackPet) Size() (int, int) { return p.m.RenderSize.Width, p.m.RenderSize.Height }

func (p *petpackPet) Show(t int64) View {
	f := p.player.Show(t)
	return View{Key: string(f.Action) + "/" + strconv.Itoa(f.Index), Scale: f.Scale}
}

func (p *petpackPet) Next(t int64) (int64, bool) {
	p.player.Advance(t)
	return p.player.NextChange()
}

func (p *petpackPet) Image(key string) (*image.NRGBA, error) {
	if img, ok := p.cache[key]; ok {
		return img, nil
	}
	slash := strings.IndexByte(key, '/')
	i, err := strconv.Atoi(key[slash+1:])
	if slash < 0 || err != nil {
		return nil, fmt.Errorf("no frame %q", key)
	}
	data, err := p.read(petpack.Action(key[:slash]), i)
	if err != nil {
		return nil, err
	}
	img, err := DecodePNG(data)
	if err != nil {
		return nil, fmt.Errorf("frame %s: %w", key, err)
	}
	if w, h := p.Size(); img.Rect.Dx() != w || img.Rect.Dy() != h {
		return nil, fmt.Errorf("frame %s is %dx%d, the render size %dx%d", key, img.Rect.Dx(), img.Rect.Dy(), w, h)
	}
	p.cache[key] = img
	return img, nil
}

func (p *petpackPet) Command(t int64, c Command) error {
	switch {
	case c.Event != "":
		return p.player.Event(t, c.Event)
	case c.Role != "":
		return fmt.Errorf("role %s: a .petpack pet takes Agent events, not roles", c.Role)
	case c.ReduceMotion != nil:
		p.player.SetReduceMotion(t, *c.ReduceMotion)
	case c.Bubble != nil:
		p.player.SetBubble(t, *c.Bubble != "")
	}
	return nil
}

func (p *petpackPet) Pointer(t int64, in playback.Pointer) error { return p.player.Pointer(t, in) }
