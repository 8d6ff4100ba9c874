package images

import (
	"image"
	"strings"

	"github.com/agentwatch/agentwatch/tui/render"
)

// Picture is a screenshot opened to be drawn on one terminal. It is meant
// for the drawing at hand: Terminal.Open it again for the next one.
type Picture struct {
	t    *Terminal
	key  key
	data []byte
	// img is the decoded picture, nil until something needs its pixels.
	img  image.Image
	w, h int
}

// Size is the picture's size in pixels.
func (p *Picture) Size() (w, h int) { return p.w, p.h }

// Rows is how many rows of cols cells the picture takes when it may take
// up to maxRows: as many as it needs at its aspect ratio (cells about twice
// as tall as wide, as for half blocks), one or two when it is named by text.
func (p *Picture) Rows(cols, maxRows int) int {
	if cols < 1 || maxRows < 1 || p.w < 1 || p.h < 1 {
		return 0
	}
	if p.t.Mode() == Text {
		return textRows(p.w, p.h, cols, maxRows)
	}
	_, th := render.FitBox(p.w, p.h, cols, 2*maxRows)
	return min(maxRows, (th+1)/2)
}

// Lines draws the picture in a cols×rows box: exactly rows lines of
// exactly cols cells. As pixels, the picture's part of the box (as for
// half blocks, cells about twice as tall as wide) is placeholder cells, the
// placement the terminal fits the picture into; a picture the terminal
// does not hold yet queues an Upload, and its placement waits for it. A picture that cannot be sent, and
// any picture on a terminal drawing half blocks, is drawn with
// render.HalfBlock; on one drawing text, it is named. cols or rows below 1
// give nil.
func (p *Picture) Lines(cols, rows int) []string {
	if cols < 1 || rows < 1 {
		return nil
	}
	switch p.t.Mode() {
	case Text:
		return textLines(p.w, p.h, cols, rows)
	case Pixels:
		// The placement is as many cells as the picture covers at its
		// aspect ratio, centred in the box as half blocks are: cells
		// beside the picture would cost bytes in every frame and show
		// nothing.
		tw, th := render.FitBox(p.w, p.h, cols, 2*rows)
		bw, bh := min(tw, kittyMaxSpan), min((th+1)/2, kittyMaxSpan)
		if id, placement, ok := p.t.kitty.place(p.key, p.w, p.h, p.source(), bw, bh); ok {
			return centre(placeholderLines(id, placement, bw, bh), bw, cols, rows)
		}
	}
	img, err := p.pixels()
	if err != nil {
		return nil
	}
	return render.HalfBlock(img, cols, rows)
}

// source returns what gives an Upload the decoded picture, on any
// goroutine: the picture decoded already, or its bytes decoded then.
func (p *Picture) source() func() (image.Image, error) {
	if img := p.img; img != nil {
		return func() (image.Image, error) { return img, nil }
	}
	data := p.data
	return func() (image.Image, error) { return render.DecodeImage(data) }
}

// pixels decodes the picture if it was not decoded yet.
func (p *Picture) pixels() (image.Image, error) {
	if p.img == nil {
		img, err := render.DecodeImage(p.data)
		if err != nil {
			return nil, err
		}
		p.img = img
	}
	return p.img, nil
}

// centre puts lines of w cells in the middle of a cols×rows box of blanks.
func centre(lines []string, w, cols, rows int) []string {
	left := (cols - w) / 2
	pad, rest := strings.Repeat(" ", left), strings.Repeat(" ", cols-w-left)
	blank := strings.Repeat(" ", cols)
	out := make([]string, rows)
	top := (rows - len(lines)) / 2
	for i := range out {
		if j := i - top; j >= 0 && j < len(lines) {
			out[i] = pad + lines[j] + rest
		} else {
			out[i] = blank
		}
	}
	return out
}
