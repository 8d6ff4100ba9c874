package render

import "image"

// Scale returns img resized to w×h pixels as a new opaque picture: each
// pixel the average of the source pixels it covers, transparency
// composited on the panel's dark background, exactly as HalfBlock samples
// it. Screens that draw real pixels send this copy, never the bytes the
// picture was decoded from. A w or h below 1 counts as 1; a nil or empty img
// gives a w×h picture of the background.
func Scale(img image.Image, w, h int) *image.RGBA {
	w, h = max(w, 1), max(h, 1)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	if img == nil || img.Bounds().Empty() {
		for i := 0; i < len(out.Pix); i += 4 {
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = byte(matte[0]>>8), byte(matte[1]>>8), byte(matte[2]>>8), 0xff
		}
		return out
	}
	for i, c := range downscale(img, w, h) {
		p := out.Pix[4*i : 4*i+4 : 4*i+4]
		p[0], p[1], p[2], p[3] = byte(c>>16), byte(c>>8), byte(c), 0xff
	}
	return out
}
