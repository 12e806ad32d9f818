package desktop

import (
	"image"
	"math"
)

// Render draws img as presented: shrunk (or grown) by press about its
// bottom centre by nearest-neighbour sampling on a canvas of img's size,
// then each pixel made an n by n block. Alpha is kept; the backend shows a
// pixel when it is 128 or more.
//
// For press != 1 the picture is sw = round(w*press) by sh = round(h*press)
// pixels, its left edge at (w-sw)/2 and its bottom on the canvas bottom;
// destination pixel (x, y) inside it samples source pixel
// ((x-x0)*w/sw, (y-y0)*h/sh), integer division.
func Render(img *image.NRGBA, press float64, n int) *image.NRGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	src := img
	if press != 1 {
		sw, sh := int(math.Round(float64(w)*press)), int(math.Round(float64(h)*press))
		x0, y0 := (w-sw)/2, h-sh
		src = image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < sh; y++ {
			sy := y * h / sh
			for x := 0; x < sw; x++ {
				sx := x * w / sw
				copy(src.Pix[(y0+y)*src.Stride+4*(x0+x):][:4], img.Pix[sy*img.Stride+4*sx:])
			}
		}
	}
	if n == 1 {
		return src
	}
	out := image.NewNRGBA(image.Rect(0, 0, w*n, h*n))
	for y := 0; y < h*n; y++ {
		row := src.Pix[(y/n)*src.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < w*n; x++ {
			copy(dst[4*x:4*x+4], row[4*(x/n):])
		}
	}
	return out
}
