package motionqa

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"image"
	"strconv"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// VisibleAlpha is the alpha at and above which a pixel counts as visible
// in every measurement and digest (the authors' threshold).
const VisibleAlpha = 16

// Normalize returns the compositor-visible bytes of a frame: a pixel with
// alpha under VisibleAlpha becomes 0,0,0,0, any other has each colour
// channel premultiplied as (c*a + 127) / 255 and keeps its alpha. Colour
// hidden under transparency can therefore not fake a change of motion.
func Normalize(img *image.NRGBA) []byte {
	out := make([]byte, len(img.Pix))
	for i := 0; i+3 < len(img.Pix); i += 4 {
		a := uint32(img.Pix[i+3])
		if a < VisibleAlpha {
			continue
		}
		out[i] = byte((uint32(img.Pix[i])*a + 127) / 255)
		out[i+1] = byte((uint32(img.Pix[i+1])*a + 127) / 255)
		out[i+2] = byte((uint32(img.Pix[i+2])*a + 127) / 255)
		out[i+3] = byte(a)
	}
	return out
}

// FrameDigest is the hex SHA-256 of a frame's normalised RGBA bytes.
func FrameDigest(img *image.NRGBA) string {
	sum := sha256.Sum256(Normalize(img))
	return hex.EncodeToString(sum[:])
}

// DecodedFrameDigest is FrameDigest with the width and height (little-endian
// uint32 each) hashed first: the authors' per-frame identity for deciding
// which states a revision changed.
func DecodedFrameDigest(img *image.NRGBA) string {
	h := sha256.New()
	var dim [8]byte
	binary.LittleEndian.PutUint32(dim[:4], uint32(img.Rect.Dx()))
	binary.LittleEndian.PutUint32(dim[4:], uint32(img.Rect.Dy()))
	h.Write(dim[:])
	h.Write(Normalize(img))
	return hex.EncodeToString(h.Sum(nil))
}

// NamedDigest is one frame's file name and FrameDigest.
type NamedDigest struct {
	Name, Digest string
}

// MotionDigest binds a state's frames, in natural order: SHA-256 hex of
// "apc.pet-motion-qa.v1\0" state "\0", then name "\0" digest "\0" a frame.
func MotionDigest(state petpack.Action, frames []NamedDigest) string {
	h := sha256.New()
	h.Write([]byte(ReportSchema + "\x00" + string(state) + "\x00"))
	for _, f := range frames {
		h.Write([]byte(f.Name + "\x00" + f.Digest + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// FrameSetDigest binds the motion digests of the given states: SHA-256 hex
// of state "\0" motion_digest "\0" for each state of petpack.Actions() that
// digests holds, in that fixed order.
func FrameSetDigest(digests map[petpack.Action]string) string {
	h := sha256.New()
	for _, a := range petpack.Actions() {
		if d, ok := digests[a]; ok {
			h.Write([]byte(string(a) + "\x00" + d + "\x00"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TimingJSON is the compact JSON of the manifest's states array in manifest
// order, keys in the order name, frames_dir, frame_durations_ms, playback
// (mode, then entry_repeat_count, settle_frame_index and cooldown_ms when
// present), reduced_motion_frame_index: the bytes timing_digest hashes.
func TimingJSON(states []petpack.State) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, st := range states {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":`)
		writeJSONString(&b, string(st.Name))
		b.WriteString(`,"frames_dir":`)
		writeJSONString(&b, st.FramesDir)
		b.WriteString(`,"frame_durations_ms":`)
		writeInts(&b, st.FrameDurationsMS)
		b.WriteString(`,"playback":{"mode":`)
		writeJSONString(&b, string(st.Playback.Mode))
		if p := st.Playback.EntryRepeatCount; p != nil {
			b.WriteString(`,"entry_repeat_count":` + strconv.Itoa(*p))
		}
		if p := st.Playback.SettleFrameIndex; p != nil {
			b.WriteString(`,"settle_frame_index":` + strconv.Itoa(*p))
		}
		if p := st.Playback.CooldownMS; p != nil {
			b.WriteString(`,"cooldown_ms":`)
			writeInts(&b, p[:])
		}
		b.WriteString(`},"reduced_motion_frame_index":` + strconv.Itoa(st.ReducedMotionFrameIndex) + "}")
	}
	b.WriteByte(']')
	return b.Bytes()
}

// TimingDigest is the hex SHA-256 of TimingJSON.
func TimingDigest(states []petpack.State) string {
	sum := sha256.Sum256(TimingJSON(states))
	return hex.EncodeToString(sum[:])
}

func writeInts(b *bytes.Buffer, v []int) {
	b.WriteByte('[')
	for i, n := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(n))
	}
	b.WriteByte(']')
}

// writeJSONString writes s as a JSON string without HTML escaping, as
// Python's json.dumps(ensure_ascii=False) and serde_json write it.
func writeJSONString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(tmp.Bytes(), []byte("\n")))
}
