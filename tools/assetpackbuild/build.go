package assetpackbuild

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/agentpet/rules_pet/internal/assetpackformat"
	"github.com/agentpet/rules_pet/internal/durable"
	"github.com/agentpet/rules_pet/runtime/manifest"
	"github.com/agentpet/rules_pet/tools/internal/boundedread"
)

// maxPNGBytes bounds how much of one image file is read. A 1024 by 1024
// RGBA PNG stored without compression is about 4 MiB, so anything past
// this is not a sprite and is refused before it is held in memory.
const maxPNGBytes = 32 << 20

// headerLength is the PNG signature and a complete IHDR chunk: all the
// header pass reads of a file.
const headerLength = len(pngSignature) + 8 + 13 + 4

// OpenFunc opens the image at path, the manifest path exactly as written.
// The file must report its size and mode from Stat, as *os.File does.
type OpenFunc func(path string) (fs.File, error)

// Build converts m into a pack, opening each image through open.
//
// It works in two passes. The header pass reads only each file's
// signature and IHDR, checks the accepted subset and lays the payloads
// out, so a set past the pack length limit is refused before any pixel is
// decoded. The decode pass then decodes and reduces the images on a pool
// of GOMAXPROCS workers, each holding one file and its decoded pixels at a
// time. Whatever the worker count, the bytes are the same and a failure is
// the one a sequential build would report: the lowest-index image's.
// Errors name the image: `image sprite_idle (sprites/idle.png): png_palette: ...`.
func Build(m *manifest.Manifest, open OpenFunc) ([]byte, error) {
	return build(m, open, runtime.GOMAXPROCS(0))
}

func build(m *manifest.Manifest, open OpenFunc, workers int) ([]byte, error) {
	return buildInto(m, open, workers, heapBuffer, nil)
}

// heapBuffer allocates a pack the caller keeps.
func heapBuffer(n int) []byte { return make([]byte, n) }

// buildInto is build with the pack allocated by alloc, which must
// return n zero bytes. When emit is not nil, a worker hands it each
// stretch of the pack it has finished (an image's colour and mask, at
// their offsets) as soon as it has, and the build hands it every other
// stretch once the pack is sealed: by the end emit has seen every byte
// once, final.
func buildInto(m *manifest.Manifest, open OpenFunc, workers int, alloc func(n int) []byte, emit func(off int, b []byte) error) ([]byte, error) {
	l, err := checkHeaders(m, open)
	if err != nil {
		return nil, err
	}
	// The pack is allocated once the headers fix its size, and each image
	// is reduced straight into its place: no second copy of the pixels.
	out := alloc(assetpackformat.PackLength(l.cursor))
	images := make([]Image, len(m.Images))
	for i, p := range l.places {
		w, h := l.dims[i][0], l.dims[i][1]
		cl, ml := assetpackformat.ColourLength(w, h), assetpackformat.MaskLength(w, h)
		images[i] = Image{Width: w, Height: h, Colour: out[p.ColourOffset : p.ColourOffset+cl : p.ColourOffset+cl], Mask: out[p.MaskOffset : p.MaskOffset+ml : p.MaskOffset+ml]}
	}
	var done func(i int) error
	if emit != nil {
		done = func(i int) error {
			p := l.places[i]
			if err := emit(p.ColourOffset, images[i].Colour); err != nil {
				return err
			}
			return emit(p.MaskOffset, images[i].Mask)
		}
	}
	if err := decodeAll(m, open, workers, images, done); err != nil {
		return nil, err
	}
	if err := checkEncodable(m, images); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	out, err = seal(m, images, l, out)
	if err != nil || emit == nil {
		return out, err
	}
	// The rest: the header and tables, the padding, the check value.
	at := 0
	for i, p := range l.places {
		for _, r := range [2][2]int{{p.ColourOffset, len(images[i].Colour)}, {p.MaskOffset, len(images[i].Mask)}} {
			if r[0] > at {
				if err := emit(at, out[at:r[0]]); err != nil {
					return nil, err
				}
			}
			if end := r[0] + r[1]; end > at {
				at = end
			}
		}
	}
	if err := emit(at, out[at:]); err != nil {
		return nil, err
	}
	return out, nil
}

// imageErr names the image an error belongs to.
func imageErr(im manifest.Image, err error) error {
	return fmt.Errorf("image %s (%s): %w", im.ID, im.Path, err)
}

// checkHeaders is the header pass: each image's header in manifest order,
// then the running pack length, so the first failure is the one the
// sequential build would meet first.
func checkHeaders(m *manifest.Manifest, open OpenFunc) (*layout, error) {
	l := newLayout(m)
	for i, im := range m.Images {
		h, err := readHeader(open, im.Path)
		if err != nil {
			return nil, imageErr(im, err)
		}
		if err := l.add(m, i, int(h.width), int(h.height)); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
	}
	return l, nil
}

// readHeader reads the signature and IHDR of one image and nothing more.
func readHeader(open OpenFunc, path string) (ihdr, error) {
	f, err := openRegular(open, path)
	if err != nil {
		return ihdr{}, err
	}
	defer f.Close()
	buf := make([]byte, headerLength)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return ihdr{}, err
	}
	// A short file gets the reason readIHDR gives its few bytes.
	return readIHDR(buf[:n])
}

// decodeAll converts every image on a pool of workers. Indexes are handed
// out in increasing order and a worker skips any index above the lowest
// failure seen, so every image below that failure is still converted and
// the reported error is the lowest-index one.
// Each image is reduced into images[i], which the header pass sized.
func decodeAll(m *manifest.Manifest, open OpenFunc, workers int, images []Image, done func(i int) error) error {
	n := len(m.Images)
	if workers > n {
		workers = n
	}
	if workers < 1 {
		workers = 1
	}
	var (
		mu       sync.Mutex
		next     int
		firstBad = n
		firstErr error
		wg       sync.WaitGroup
	)
	// take returns the next index to convert, or -1 when none is left
	// worth converting.
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if next >= firstBad {
			return -1
		}
		next++
		return next - 1
	}
	fail := func(i int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if i < firstBad {
			firstBad, firstErr = i, err
		}
	}
	// The inflated rows of the largest image, the fast path's one
	// image-sized buffer.
	maxRaw := 0
	for _, im := range images {
		if n := filteredSize(im.Width, im.Height, 4); n > maxRaw {
			maxRaw = n
		}
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fast := new(fastDecoder) // this worker's buffers, reused image to image
			raw, free := newScratch(maxRaw)
			defer free()
			fast.raw = raw[:0]
			for i := take(); i >= 0; i = take() {
				im := m.Images[i]
				err := convertFile(open, im.Path, &images[i], fast)
				if err == nil && done != nil {
					err = done(i)
				}
				if err != nil {
					fail(i, imageErr(im, err))
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// convertFile reads one image whole, into the worker's file buffer, and
// reduces it into dst.
func convertFile(open OpenFunc, path string, dst *Image, fast *fastDecoder) error {
	data, err := readImage(open, path, fast.file)
	if err != nil {
		return err
	}
	fast.file = data
	return convertInto(data, dst, fast)
}

// openRegular opens path and refuses anything but a regular file.
func openRegular(open OpenFunc, path string) (fs.File, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, nil
}

// readImage reads a regular file of at most maxPNGBytes into buf, or
// into a new buffer sized from Stat when buf is too small.
func readImage(open OpenFunc, path string, buf []byte) ([]byte, error) {
	f, err := openRegular(open, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := boundedread.ReadInto(buf, f, maxPNGBytes)
	if err != nil {
		return nil, err
	}
	if len(data) > maxPNGBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxPNGBytes)
	}
	return data, nil
}

// BuildFile parses the manifest at manifestPath and builds its pack,
// resolving image paths against the manifest's directory (the asset set's
// root, manifest contract section 7). A manifest rejection reads
// `FILE:LINE: RULE: message` and wraps the *manifest.Error.
func BuildFile(manifestPath string) ([]byte, error) {
	return buildFile(manifestPath, heapBuffer, nil)
}

func buildFile(manifestPath string, alloc func(n int) []byte, emit func(off int, b []byte) error) ([]byte, error) {
	m, err := manifest.ReadFile(manifestPath)
	if err != nil {
		return nil, err
	}
	data, err := buildInto(m, dirOpener(filepath.Dir(manifestPath)), runtime.GOMAXPROCS(0), alloc, emit)
	if err != nil {
		// Name the manifest, as every other rejection does, so a build
		// log points at the asset set the image belongs to.
		return nil, fmt.Errorf("%s: %w", manifestPath, err)
	}
	return data, nil
}

// dirOpener opens manifest paths below root. Symbolic links are followed,
// because Bazel hands actions their inputs as links.
func dirOpener(root string) OpenFunc {
	return func(p string) (fs.File, error) {
		// The parser has already refused absolute paths, `..` and
		// backslashes, so joining cannot leave the asset set.
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err // a nil *os.File must not become a non-nil fs.File
		}
		return f, nil
	}
}

// WriteFile builds the pack of the manifest at manifestPath and writes it
// to outPath atomically with mode 0644. The workers write each image into
// a temporary file beside outPath as they finish it, so the copy into the
// page cache overlaps the decoding; the file becomes outPath only once the
// whole pack is sealed and synced. When the build fails it removes the
// temporary file and also a pack left at outPath by an earlier run,
// because the step after the converter embeds whatever file it finds
// (section 12).
func WriteFile(manifestPath, outPath string) error {
	p, err := durable.Create(outPath)
	if err == nil {
		// The pack is dropped once written, so it can live outside the heap.
		free := func() {}
		defer func() { free() }()
		var size, written int64
		var flush sync.Once
		_, err = buildFile(manifestPath, func(n int) []byte {
			var b []byte
			b, free = newScratch(n)
			size = int64(n)
			return b
		}, func(off int, b []byte) error {
			if err := p.WriteAt(b, int64(off)); err != nil {
				return err
			}
			// Half the pack written: the disk starts on it while the
			// workers convert the rest.
			if atomic.AddInt64(&written, int64(len(b))) >= size/2 {
				flush.Do(func() { go p.Flush() })
			}
			return nil
		})
		if err == nil {
			return p.Commit(0o644, nil)
		}
		p.Abort()
	}
	if rmErr := removeStale(outPath); rmErr != nil {
		return fmt.Errorf("%w (and the stale output could not be removed: %v)", err, rmErr)
	}
	return err
}

// removeStale removes outPath when it is a regular file; anything else at
// that path is not an earlier pack and is left alone.
func removeStale(outPath string) error {
	fi, err := os.Lstat(outPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	return os.Remove(outPath)
}
