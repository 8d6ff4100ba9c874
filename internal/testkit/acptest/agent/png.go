package agent

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
)

// pngSize is the width and height of the image the `all` script returns.
const pngSize = 8

// pngBase64 is the base64 of the small valid PNG (an 8×8 four-colour test
// pattern) the `all` script's image tool returns.
var pngBase64 = func() string {
	img := image.NewRGBA(image.Rect(0, 0, pngSize, pngSize))
	colours := []color.RGBA{{0xe0, 0x40, 0x40, 0xff}, {0x40, 0xc0, 0x40, 0xff}, {0x40, 0x60, 0xe0, 0xff}, {0xf0, 0xd0, 0x30, 0xff}}
	for y := range pngSize {
		for x := range pngSize {
			img.Set(x, y, colours[(y/(pngSize/2))*2+x/(pngSize/2)])
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory RGBA image cannot fail
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}()
