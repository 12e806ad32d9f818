package webpenc

import "testing"

// lz77Value is the decoder's side of RFC 9649 section 3.5.2.2: a prefix
// symbol and its extra bits back to the value.
func lz77Value(sym int, extra uint32) int {
	if sym < 4 {
		return sym + 1
	}
	nExtra := uint(sym-2) >> 1
	offset := (2 + sym&1) << nExtra
	return offset + int(extra) + 1
}

// TestPrefixEncode checks every length and distance code the encoder may
// write against the decoder's formula.
func TestPrefixEncode(t *testing.T) {
	for v := 1; v <= maxDistanceCode; v++ {
		sym, nExtra, extra := prefixEncode(v)
		if extra >= 1<<nExtra && nExtra > 0 || nExtra == 0 && extra != 0 {
			t.Fatalf("%d: extra %d does not fit %d bits", v, extra, nExtra)
		}
		if want := uint(sym-2) >> 1; sym >= 4 && nExtra != want {
			t.Fatalf("%d: symbol %d with %d extra bits, the decoder reads %d", v, sym, nExtra, want)
		}
		if got := lz77Value(sym, extra); got != v {
			t.Fatalf("%d encodes as symbol %d extra %d, which decodes to %d", v, sym, extra, got)
		}
		if v <= maxCopyLength && sym >= numLengthCodes {
			t.Fatalf("length %d needs symbol %d, past the %d length codes", v, sym, numLengthCodes)
		}
		if sym >= numDistanceCodes {
			t.Fatalf("%d needs symbol %d, past the %d distance codes", v, sym, numDistanceCodes)
		}
	}
}
