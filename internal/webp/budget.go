package webp

// Budget bounds what a file may make us allocate. The defaults are the
// animated-preview limits of the petpack contract, section 11.
type Budget struct {
	// MaxFrames is the most ANMF frames an animated file may hold.
	MaxFrames int
	// MaxPixels bounds the canvas and every frame, in pixels.
	MaxPixels int
	// MaxDecodedBytes bounds the RGBA bytes of all frames together
	// (4 bytes a pixel), checked before anything is decoded.
	MaxDecodedBytes int64
	// MaxHuffmanGroups bounds the prefix-code groups one VP8L image may
	// declare through its entropy image.
	MaxHuffmanGroups int
	// MaxDecoderBytes bounds the estimated allocation of one call into
	// golang.org/x/image/webp for one frame; zero takes DecoderBytesFor
	// of the rest of the budget.
	MaxDecoderBytes int64
}

// Contract limits (petpack contract section 11) and our own decoder bounds.
const (
	DefaultMaxFrames       = 120
	DefaultMaxPixels       = 16777216
	DefaultMaxDecodedBytes = 128 << 20
	// libwebp's encoder never emits more than 2600 histograms
	// (MAX_HUFF_IMAGE_SIZE); 4096 leaves headroom for other encoders while
	// keeping the x/image group table near 11 MiB.
	DefaultMaxHuffmanGroups = 4096
)

// DefaultMaxDecoderBytes is DecoderBytesFor the contract's limits: what
// decoding the largest frame the pixel budget allows may cost (about
// 220 MiB for 16,777,216 pixels), so that every preview the contract's
// budgets admit can be decoded, while a stream that would make x/image
// allocate beyond that is refused before the call.
var DefaultMaxDecoderBytes = DecoderBytesFor(Budget{
	MaxFrames: DefaultMaxFrames, MaxPixels: DefaultMaxPixels,
	MaxDecodedBytes: DefaultMaxDecodedBytes, MaxHuffmanGroups: DefaultMaxHuffmanGroups,
})

// DefaultBudget returns the contract's limits.
func DefaultBudget() Budget {
	return Budget{
		MaxFrames:        DefaultMaxFrames,
		MaxPixels:        DefaultMaxPixels,
		MaxDecodedBytes:  DefaultMaxDecodedBytes,
		MaxHuffmanGroups: DefaultMaxHuffmanGroups,
		MaxDecoderBytes:  DefaultMaxDecoderBytes,
	}
}

// withDefaults fills zero fields so a partly set Budget is never unbounded.
func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	if b.MaxFrames <= 0 {
		b.MaxFrames = d.MaxFrames
	}
	if b.MaxPixels <= 0 {
		b.MaxPixels = d.MaxPixels
	}
	if b.MaxDecodedBytes <= 0 {
		b.MaxDecodedBytes = d.MaxDecodedBytes
	}
	if b.MaxHuffmanGroups <= 0 {
		b.MaxHuffmanGroups = d.MaxHuffmanGroups
	}
	if b.MaxDecoderBytes <= 0 {
		b.MaxDecoderBytes = DecoderBytesFor(b)
	}
	return b
}
