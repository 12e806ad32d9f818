#!/usr/bin/python3
"""Independent digest vectors for tools/motionqa (digest_test.go).

Run with Debian's /usr/bin/python3 (standard library only: zlib, struct,
hashlib, json) from this directory:

    /usr/bin/python3 digest_vectors.py

It writes the tiny two-frame state digest/tool/0000.png and 0001.png (2x2
RGBA, 8-bit, written here with zlib, not by Go) and prints the digests the
contract's section 6 defines, computed from the pixel values below. The Go
test decodes the PNGs and must reproduce every printed value.
"""

import hashlib
import json
import struct
import zlib

FRAMES = {
    "0000.png": [(255, 0, 0, 255), (10, 20, 30, 15), (200, 100, 50, 128), (0, 0, 0, 0)],
    "0001.png": [(255, 0, 0, 255), (1, 2, 3, 16), (200, 100, 50, 127), (9, 9, 9, 0)],
}
WIDTH = HEIGHT = 2


def png_bytes(pixels):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b""
    for y in range(HEIGHT):
        raw += b"\x00" + b"".join(bytes(p) for p in pixels[y * WIDTH:(y + 1) * WIDTH])
    ihdr = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def normalise(pixels):
    out = bytearray()
    for r, g, b, a in pixels:
        if a < 16:
            out += b"\x00\x00\x00\x00"
        else:
            out += bytes([(r * a + 127) // 255, (g * a + 127) // 255, (b * a + 127) // 255, a])
    return bytes(out)


frame_digests = {}
for name, pixels in FRAMES.items():
    with open("digest/tool/" + name, "wb") as f:
        f.write(png_bytes(pixels))
    frame_digests[name] = hashlib.sha256(normalise(pixels)).hexdigest()

motion = hashlib.sha256()
motion.update(b"apc.pet-motion-qa.v1\0tool\0")
for name in sorted(FRAMES):
    motion.update(name.encode() + b"\0" + frame_digests[name].encode() + b"\0")
motion_digest = motion.hexdigest()

frame_set_digest = hashlib.sha256(b"tool\0" + motion_digest.encode() + b"\0").hexdigest()

decoded = {}
for name, pixels in FRAMES.items():
    decoded[name] = hashlib.sha256(struct.pack("<II", WIDTH, HEIGHT) + normalise(pixels)).hexdigest()

# The manifest states of the contract's section 4 defaults, keys in the
# order of the timing digest.
states = [
    {"name": "idle", "frames_dir": "assets/frames/idle", "frame_durations_ms": [260, 220, 240, 260, 380, 640],
     "playback": {"mode": "periodic", "cooldown_ms": [2500, 5000]}, "reduced_motion_frame_index": 2},
    {"name": "waiting", "frames_dir": "assets/frames/waiting", "frame_durations_ms": [100, 100, 110, 110, 120, 130, 160, 230],
     "playback": {"mode": "burst_then_settle", "entry_repeat_count": 3, "settle_frame_index": 7}, "reduced_motion_frame_index": 4},
]
timing_digest = hashlib.sha256(json.dumps(states, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()

# The authors' five keyframes, Python's round (halves to even).
keyframes = {str(n): [round(i * (n - 1) / (min(n, 5) - 1)) for i in range(min(n, 5))] if n > 1 else [0] for n in range(1, 13)}

print(json.dumps({
    "keyframe_indices": keyframes,
    "frame_digests": frame_digests,
    "motion_digest": motion_digest,
    "frame_set_digest": frame_set_digest,
    "decoded_frame_digests": decoded,
    "timing_digest": timing_digest,
}, indent=2, sort_keys=True))
