//go:build js && wasm

// Command playerwasm is the petpack_player page's runtime: runtime/playback
// compiled to WebAssembly. It validates the .petpack the page fetched with
// runtime/petpack, hands the page each frame's PNG bytes (the browser
// decodes them; no image codec is linked for drawing) and answers the
// page's questions about what shows at the page's time. It exposes one
// object, globalThis.petPlayer, and calls globalThis.petPlayerReady()
// once that object exists.
package main

import (
	"bytes"
	"io/fs"
	"math/rand"
	"syscall/js"

	"github.com/agentpet/rules_pet/runtime/petpack"
	"github.com/agentpet/rules_pet/runtime/playback"
)

// pet is the loaded package: its manifest and each action's PNG frames in
// playing order.
type pet struct {
	m      *petpack.Manifest
	frames map[petpack.Action][][]byte
}

var (
	loaded *pet
	player *playback.Player
)

func main() {
	api := map[string]interface{}{
		"load":         js.FuncOf(load),
		"reset":        js.FuncOf(reset),
		"frame":        js.FuncOf(frame),
		"event":        js.FuncOf(event),
		"pointer":      js.FuncOf(pointer),
		"bubble":       js.FuncOf(bubble),
		"reduceMotion": js.FuncOf(reduceMotion),
		"show":         js.FuncOf(show),
		"next":         js.FuncOf(next),
	}
	js.Global().Set("petPlayer", js.ValueOf(api))
	if ready := js.Global().Get("petPlayerReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the page calls in; main must not return
}

func fail(msg string) interface{} { return map[string]interface{}{"error": msg} }

// load(bytes Uint8Array) validates the archive and keeps its frames:
// {width, height, name, counts: {action: n}} or {error}.
func load(_ js.Value, args []js.Value) interface{} {
	if len(args) != 1 {
		return fail("load(bytes)")
	}
	b := make([]byte, args[0].Get("length").Int())
	js.CopyBytesToGo(b, args[0])
	pkg, v := petpack.Open(bytes.NewReader(b), int64(len(b)))
	if pkg == nil {
		return fail(v.Err().Error())
	}
	// The validator listed each action's frames in natural order and
	// reads them again bounded and CRC-checked: no second ZIP reader.
	p := &pet{m: pkg.Manifest, frames: map[petpack.Action][][]byte{}}
	counts := map[string]interface{}{}
	for _, st := range pkg.Manifest.States {
		names := pkg.Frames(st.Name)
		for _, name := range names {
			data, err := fs.ReadFile(pkg.FS(), name)
			if err != nil {
				return fail(err.Error())
			}
			p.frames[st.Name] = append(p.frames[st.Name], data)
		}
		counts[string(st.Name)] = len(names)
	}
	loaded = p
	if msg := start(1); msg != "" {
		return fail(msg)
	}
	return map[string]interface{}{
		"width":  v.Manifest.RenderSize.Width,
		"height": v.Manifest.RenderSize.Height,
		"name":   v.Manifest.Name,
		"counts": counts,
	}
}

func start(seed int64) string {
	p, err := playback.New(loaded.m, rand.New(rand.NewSource(seed)))
	if err != nil {
		return err.Error()
	}
	player = p
	return ""
}

// reset(seed) starts the pet again at its t=0 with a new seed.
func reset(_ js.Value, args []js.Value) interface{} {
	if loaded == nil || len(args) != 1 {
		return "reset(seed) before load"
	}
	if msg := start(int64(args[0].Int())); msg != "" {
		return msg
	}
	return nil
}

// frame(action, index) returns the frame's PNG bytes as a Uint8Array.
func frame(_ js.Value, args []js.Value) interface{} {
	if loaded == nil || len(args) != 2 {
		return nil
	}
	fs := loaded.frames[petpack.Action(args[0].String())]
	i := args[1].Int()
	if i < 0 || i >= len(fs) {
		return nil
	}
	out := js.Global().Get("Uint8Array").New(len(fs[i]))
	js.CopyBytesToJS(out, fs[i])
	return out
}

func ms(v js.Value) int64 { return int64(v.Float()) }

func errValue(err error) interface{} {
	if err != nil {
		return err.Error()
	}
	return nil
}

// event(t, name): an Agent event; returns an error message or null.
func event(_ js.Value, args []js.Value) interface{} {
	if player == nil || len(args) != 2 {
		return "event(t, name) before load"
	}
	return errValue(player.Event(ms(args[0]), args[1].String()))
}

// pointer(t, input): a pointer input; returns an error message or null.
func pointer(_ js.Value, args []js.Value) interface{} {
	if player == nil || len(args) != 2 {
		return "pointer(t, input) before load"
	}
	return errValue(player.Pointer(ms(args[0]), playback.Pointer(args[1].String())))
}

// bubble(t, shown) says whether bubble content shows.
func bubble(_ js.Value, args []js.Value) interface{} {
	if player != nil && len(args) == 2 {
		player.SetBubble(ms(args[0]), args[1].Bool())
	}
	return nil
}

// reduceMotion(t, on) switches Reduce Motion.
func reduceMotion(_ js.Value, args []js.Value) interface{} {
	if player != nil && len(args) == 2 {
		player.SetReduceMotion(ms(args[0]), args[1].Bool())
	}
	return nil
}

// show(t) returns {action, frame, scale} at t.
func show(_ js.Value, args []js.Value) interface{} {
	if player == nil || len(args) != 1 {
		return nil
	}
	f := player.Show(ms(args[0]))
	return map[string]interface{}{"action": string(f.Action), "frame": f.Index, "scale": f.Scale}
}

// next() returns when the next visible change is due, or -1 for never.
func next(_ js.Value, _ []js.Value) interface{} {
	if player == nil {
		return -1
	}
	t, ok := player.NextChange()
	if !ok {
		return -1
	}
	return float64(t)
}
