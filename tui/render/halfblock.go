package render

// Screenshots drawn as text: every terminal, SSH session and golden file can
// show a picture made of '▀' cells whose foreground is one pixel and whose
// background is the pixel under it. Richer protocols (kitty, iTerm2) come
// later; this is the fallback they all drop back to.

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF for DecodeImage
	_ "image/jpeg"
	_ "image/png"
	"strconv"

	"github.com/agentwatch/agentwatch/tui/styles"
)

// MaxImagePixels is the largest picture DecodeImage accepts, in pixels
// (16 Mpx, e.g. 4096×4096: 64 MB once decoded as RGBA).
const MaxImagePixels = 1 << 24

// ErrImageTooLarge is returned by DecodeImage when the image header claims
// more than MaxImagePixels pixels.
var ErrImageTooLarge = errors.New("image too large")

// DecodeImage decodes PNG, JPEG or GIF bytes (the first frame of a GIF). It
// reads the header first and refuses images over MaxImagePixels with
// ErrImageTooLarge, so a hostile 50,000×50,000 header cannot make the
// decoder allocate gigabytes.
func DecodeImage(data []byte) (image.Image, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode image header: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("decode %s image: empty (%d×%d)", format, cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return nil, fmt.Errorf("decode %s image of %d×%d: %w (limit %d pixels)",
			format, cfg.Width, cfg.Height, ErrImageTooLarge, MaxImagePixels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode %s image: %w", format, err)
	}
	return img, nil
}

// matte is what transparent pixels are composited onto: the dark panel
// background #101014.
var matte = [3]uint32{0x10 * 0x101, 0x10 * 0x101, 0x14 * 0x101}

// maxSamples caps how many source pixels are read along each axis of one
// target pixel. A box wider than that is sampled at a stride, so a
// screenshot of any size costs at most cols×2rows×64×64 reads.
const maxSamples = 64

// HalfBlock draws an image in a cols×rows cell box with the upper-half-block
// character '▀' (foreground = top pixel, background = bottom pixel), two
// image rows per text row, keeping the aspect ratio (terminal cells are about
// twice as tall as wide) and centring it in the box. The image is scaled to
// Fit the box, down or up; downscaling averages every source pixel a target
// pixel covers (a box filter), compositing alpha on #101014.
//
// Each line is exactly cols cells wide (spaces outside the picture), sets
// 24-bit colours (`ESC[38;2;R;G;Bm`, `ESC[48;2;R;G;Bm`) only when they change
// from the previous cell, and ends with `ESC[0m`. A picture with an odd
// number of pixel rows leaves the background of its last row the terminal's
// own. HalfBlock returns nil when cols or rows is not positive or img is nil,
// and blank lines when img is empty.
func HalfBlock(img image.Image, cols, rows int) []string {
	if cols <= 0 || rows <= 0 || img == nil {
		return nil
	}
	lines := make([]string, rows)
	b := img.Bounds()
	if b.Empty() {
		blank := blankLine(cols)
		for i := range lines {
			lines[i] = blank
		}
		return lines
	}

	tw, th := FitBox(b.Dx(), b.Dy(), cols, 2*rows)
	px := downscale(img, tw, th)
	picRows := (th + 1) / 2
	top, left := (rows-picRows)/2, (cols-tw)/2
	right := cols - left - tw

	blank := blankLine(cols)
	buf := make([]byte, 0, cols*40)
	for y := range lines {
		py := y - top
		if py < 0 || py >= picRows {
			lines[y] = blank
			continue
		}
		buf = appendSpaces(buf[:0], left)
		fg, bg := defaultColour, defaultColour
		for x := range tw {
			up, down := px[2*py*tw+x], defaultColour
			if 2*py+1 < th {
				down = px[(2*py+1)*tw+x]
			}
			if up != fg {
				buf = appendSGR(buf, 38, up)
				fg = up
			}
			if down != bg {
				buf = appendSGR(buf, 48, down)
				bg = down
			}
			buf = append(buf, "▀"...)
		}
		if right > 0 {
			if bg != defaultColour {
				buf = appendSGR(buf, 48, defaultColour)
			}
			buf = appendSpaces(buf, right)
		}
		buf = append(buf, styles.Reset...)
		lines[y] = string(buf)
	}
	return lines
}

// defaultColour stands for the terminal's own colour; real colours are
// 0xRRGGBB and never reach 1<<24.
const defaultColour uint32 = 1 << 24

func blankLine(cols int) string {
	return string(appendSpaces(make([]byte, 0, cols+len(styles.Reset)), cols)) + styles.Reset
}

func appendSpaces(buf []byte, n int) []byte {
	for range n {
		buf = append(buf, ' ')
	}
	return buf
}

// appendSGR sets the foreground (layer 38) or background (layer 48) to c.
func appendSGR(buf []byte, layer int, c uint32) []byte {
	buf = append(buf, "\x1b["...)
	if c == defaultColour {
		buf = strconv.AppendInt(buf, int64(layer+1), 10) // 39 or 49
		return append(buf, 'm')
	}
	buf = strconv.AppendInt(buf, int64(layer), 10)
	buf = append(buf, ";2;"...)
	buf = strconv.AppendUint(buf, uint64(c>>16), 10)
	buf = append(buf, ';')
	buf = strconv.AppendUint(buf, uint64(c>>8&0xff), 10)
	buf = append(buf, ';')
	buf = strconv.AppendUint(buf, uint64(c&0xff), 10)
	return append(buf, 'm')
}

// FitBox returns the size of a w×h picture scaled to Fit a boxW×boxH box of
// square pixels (half cells), keeping its aspect ratio, at least 1×1.
func FitBox(w, h, boxW, boxH int) (tw, th int) {
	if int64(w)*int64(boxH) <= int64(h)*int64(boxW) {
		th = boxH
		tw = int((2*int64(w)*int64(boxH) + int64(h)) / (2 * int64(h)))
	} else {
		tw = boxW
		th = int((2*int64(h)*int64(boxW) + int64(w)) / (2 * int64(w)))
	}
	return min(max(tw, 1), boxW), min(max(th, 1), boxH)
}

// span is the run of source coordinates one target pixel averages: from lo
// (inclusive) to hi (exclusive), every step-th one.
type span struct{ lo, hi, step int }

// spans divides src source pixels (starting at origin) among dst target
// pixels. When scaling up a span is the one nearest source pixel.
func spans(origin, src, dst int) []span {
	s := make([]span, dst)
	for i := range s {
		lo := int(int64(i) * int64(src) / int64(dst))
		hi := int(int64(i+1) * int64(src) / int64(dst))
		if hi <= lo {
			hi = lo + 1
		}
		n, step := hi-lo, 1
		if n > maxSamples {
			step = (n + maxSamples - 1) / maxSamples
			// Centre the samples in the span rather than crowding its start.
			count := (n + step - 1) / step
			lo += (n - 1 - (count-1)*step) / 2
		}
		s[i] = span{origin + lo, origin + hi, step}
	}
	return s
}

// downscale returns img resized to tw×th as packed 0xRRGGBB colours, each
// the average of the source pixels it covers, composited on the matte.
func downscale(img image.Image, tw, th int) []uint32 {
	b := img.Bounds()
	xs, ys := spans(b.Min.X, b.Dx(), tw), spans(b.Min.Y, b.Dy(), th)
	at := pixelReader(img)
	out := make([]uint32, tw*th)
	for ty, sy := range ys {
		for tx, sx := range xs {
			var r, g, bl, a, n uint64
			for y := sy.lo; y < sy.hi; y += sy.step {
				for x := sx.lo; x < sx.hi; x += sx.step {
					pr, pg, pb, pa := at(x, y)
					r, g, bl, a = r+uint64(pr), g+uint64(pg), bl+uint64(pb), a+uint64(pa)
					n++
				}
			}
			// Premultiplied average plus the matte showing through: c + m·(1−α).
			bare := n*0xffff - a
			cr := (r + uint64(matte[0])*bare/0xffff) / n
			cg := (g + uint64(matte[1])*bare/0xffff) / n
			cb := (bl + uint64(matte[2])*bare/0xffff) / n
			out[ty*tw+tx] = uint32(min(cr, 0xffff)>>8)<<16 | uint32(min(cg, 0xffff)>>8)<<8 | uint32(min(cb, 0xffff)>>8)
		}
	}
	return out
}

// pixelReader returns a function giving the premultiplied 16-bit colour at
// (x, y), the same values as img.At(x, y).RGBA(). The common decoded types
// are read directly: going through the color.Color interface costs an
// allocation per pixel.
func pixelReader(img image.Image) func(x, y int) (r, g, b, a uint32) {
	switch m := img.(type) {
	case *image.RGBA:
		return func(x, y int) (r, g, b, a uint32) { return m.RGBAAt(x, y).RGBA() }
	case *image.NRGBA:
		return func(x, y int) (r, g, b, a uint32) { return m.NRGBAAt(x, y).RGBA() }
	case *image.Gray:
		return func(x, y int) (r, g, b, a uint32) { return m.GrayAt(x, y).RGBA() }
	case *image.YCbCr:
		return func(x, y int) (r, g, b, a uint32) { return m.YCbCrAt(x, y).RGBA() }
	case *image.Paletted:
		// An index past the palette (possible in a hand-built image) reads
		// as transparent instead of panicking as Paletted.At would.
		var table [256][4]uint32
		for i, c := range m.Palette {
			if i < len(table) && c != nil {
				table[i][0], table[i][1], table[i][2], table[i][3] = c.RGBA()
			}
		}
		// spans keeps (x, y) inside the bounds, so Pix can be indexed directly.
		return func(x, y int) (r, g, b, a uint32) {
			c := &table[m.Pix[m.PixOffset(x, y)]]
			return c[0], c[1], c[2], c[3]
		}
	}
	return func(x, y int) (r, g, b, a uint32) {
		c := img.At(x, y)
		if c == nil {
			return 0, 0, 0, 0
		}
		return c.RGBA()
	}
}
