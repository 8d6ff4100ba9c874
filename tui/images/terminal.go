package images

import (
	"crypto/sha256"
	"image"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
)

// maxKnownSizes bounds how many pictures' sizes a Terminal remembers so
// as not to decode them again; past it the memory starts over.
const maxKnownSizes = 4096

// Terminal is one terminal's side of drawing pictures: the way it draws
// them now (a Mode), the pictures it already holds, and the escape codes
// it must be sent before what was drawn shows. Each screen has its own,
// since each terminal holds its own pictures; it is not safe for
// concurrent use. A nil *Terminal draws half blocks.
type Terminal struct {
	mode Mode
	// version changes whenever lines drawn before may no longer show
	// what they should: the mode changed, or the pictures were deleted.
	version uint64
	kitty   *kittyStore
	// sizes are the sizes of pictures opened before, by content, so that
	// a picture drawn as pixels or text is decoded once, not per view.
	sizes map[key]image.Point
}

// NewTerminal returns a Terminal that draws in mode m and holds nothing.
func NewTerminal(m Mode) *Terminal {
	return &Terminal{mode: m, kitty: newKittyStore(), sizes: map[key]image.Point{}}
}

// Mode is how pictures are drawn now.
func (t *Terminal) Mode() Mode {
	if t == nil {
		return HalfBlocks
	}
	return t.mode
}

// SetMode changes how pictures are drawn from now on; lines drawn before
// should be drawn again (Version changes).
func (t *Terminal) SetMode(m Mode) {
	if t.mode != m {
		t.mode = m
		t.version++
	}
}

// Version is a number that changes whenever lines drawn before may no
// longer be right: callers that cache drawn lines keep it with them and
// draw again when it differs.
func (t *Terminal) Version() uint64 {
	if t == nil {
		return 0
	}
	return t.version
}

// SetTmux says whether the terminal is tmux: every code is then wrapped in
// tmux's passthrough (ansi.TmuxPassthrough), which tmux hands to the
// terminal it runs in when its allow-passthrough option is on, and drops
// otherwise. Unwrapped, tmux would take each code for a pane title and
// show it in its status line.
func (t *Terminal) SetTmux(on bool) {
	t.kitty.wrap = nil
	if on {
		t.kitty.wrap = ansi.TmuxPassthrough
	}
}

// Trim is called before a frame is drawn: once the terminal was sent more
// than MaxKittyStored pixels, every picture is deleted (the codes queue for
// Commands) and Version changes, so what is in view is drawn, and sent,
// again. Version changes too when a picture could not be sent, so that it
// is drawn in half blocks.
func (t *Terminal) Trim() {
	if t == nil {
		return
	}
	if t.kitty.trim() || t.kitty.reset {
		t.kitty.reset = false
		t.version++
	}
}

// Uploads returns, once, the pictures drawn as pixels since the last call
// that the terminal does not hold: each to be encoded (Upload.Encode, off
// the screen's goroutine) and handed back to Finish.
func (t *Terminal) Uploads() []Upload {
	if t == nil {
		return nil
	}
	return t.kitty.takeUploads()
}

// Finish takes an upload encoded: its codes, then those of the placements
// made meanwhile, queue for Commands. When it could not be encoded the
// picture is drawn in half blocks from then on (Version changes).
func (t *Terminal) Finish(e Encoded) {
	if t == nil {
		return
	}
	t.kitty.finish(e)
}

// Commands returns, once, the escape codes queued since the last call:
// uploads finished, placements, deletes. They must reach the terminal
// (tea.Raw) for the placeholder cells to show; "" when there are none.
func (t *Terminal) Commands() string {
	if t == nil {
		return ""
	}
	return t.kitty.take()
}

// Open reads a screenshot's bytes (PNG, JPEG or GIF, through
// render.DecodeImage and its size limit) as a Picture to draw. A picture
// seen before is not decoded again unless it is drawn in half blocks.
// It fails when the bytes do not decode.
func (t *Terminal) Open(data []byte) (*Picture, error) {
	if t.Mode() == HalfBlocks {
		img, err := render.DecodeImage(data)
		if err != nil {
			return nil, err
		}
		b := img.Bounds()
		return &Picture{data: data, img: img, w: b.Dx(), h: b.Dy()}, nil
	}
	k := key(sha256.Sum256(data))
	if size, ok := t.sizes[k]; ok {
		return &Picture{t: t, key: k, data: data, w: size.X, h: size.Y}, nil
	}
	img, err := render.DecodeImage(data)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	if len(t.sizes) >= maxKnownSizes {
		clear(t.sizes)
	}
	t.sizes[k] = image.Pt(b.Dx(), b.Dy())
	return &Picture{t: t, key: k, data: data, img: img, w: b.Dx(), h: b.Dy()}, nil
}
