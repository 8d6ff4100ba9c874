package images

// The kitty graphics protocol's escape codes that agentwatch sends: the
// query that asks whether the terminal speaks it, the upload of a picture,
// the virtual placement its placeholder cells show, and the delete that
// frees it. All are quiet (q=2) except the query, whose answer is the point:
// a terminal that answers every command would type its answers into the
// screen's keyboard.

import (
	"errors"
	"fmt"
	"image"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/agentwatch/agentwatch/tui/render"
)

// QueryID is the image id of the graphics query; the terminal's answer
// names it.
const QueryID = 31

// graphicsQuery asks the terminal to check, without keeping it, a 1×1 RGB
// picture sent in the escape code itself: a terminal that speaks the
// protocol answers with QueryID and "OK", one that does not ignores it.
var graphicsQuery = func() string {
	o := kitty.Options{Action: kitty.Query, ID: QueryID, Format: kitty.RGB, ImageWidth: 1, ImageHeight: 1, Transmission: kitty.Direct}
	return ansi.KittyGraphics([]byte("AAAA"), o.Options()...)
}()

const (
	// MaxKittySide is the longest side, in pixels, of a picture sent to
	// the terminal; a larger one is scaled down first. A 1280-pixel-wide
	// screenshot already has more pixels than a 100-column panel shows with
	// a 10-pixel font, and halves what a full-HD screenshot costs to send.
	MaxKittySide = 1280
	// MaxKittyUpload is the most bytes one picture's upload may take,
	// escape codes included. A picture over it is scaled down by half, at
	// most kittyShrinks times, and drawn in half blocks if it still is.
	MaxKittyUpload = 4 << 20
	// kittyShrinks is how many times a picture over MaxKittyUpload is
	// halved before giving up on sending it.
	kittyShrinks = 3
)

// errUploadTooLarge says a picture would take more than MaxKittyUpload
// bytes to send even at an eighth of its size.
var errUploadTooLarge = errors.New("picture too large to send")

// uploadCommand returns the escape codes that send img to the terminal as
// image id, without showing it: img's pixels drawn again (render.Scale,
// fitting MaxKittySide) and encoded by kitty.EncodeGraphics, base64 in
// chunks of at most 4096 bytes, each passed through wrap when it is not
// nil. w and h are the size sent.
func uploadCommand(id uint32, img image.Image, wrap func(string) string) (code string, w, h int, err error) {
	b := img.Bounds()
	w, h = b.Dx(), b.Dy()
	if w > MaxKittySide || h > MaxKittySide {
		w, h = render.FitBox(w, h, MaxKittySide, MaxKittySide)
	}
	for range kittyShrinks + 1 {
		code, err := smallestUpload(id, render.Scale(img, w, h), wrap)
		if err != nil {
			return "", 0, 0, err
		}
		if len(code) <= MaxKittyUpload {
			return code, w, h, nil
		}
		w, h = max(1, w/2), max(1, h/2)
	}
	return "", 0, 0, fmt.Errorf("%w: over %d bytes", errUploadTooLarge, MaxKittyUpload)
}

// smallestUpload encodes img both ways the protocol offers and keeps the
// shorter: as a PNG, or as its RGB bytes deflated (zlib).
//
// Neither wins everywhere. Measured on 1280×800 pictures: for text and
// flat panes (a desktop app's window) the deflated bytes are 27% smaller
// than the PNG (140 KB against 192 KB, codes included), the demo's
// 16-colour screenshots 33%; for smooth gradients (a photo) the PNG is 6.7
// times smaller (199 KB against 1.33 MB). Both encodings take 70–200 ms
// for 1280×800 on the development machine, once per picture and terminal.
func smallestUpload(id uint32, img *image.RGBA, wrap func(string) string) (string, error) {
	b := img.Bounds()
	ways := []kitty.Options{
		{Format: kitty.PNG},
		{Format: kitty.RGB, Compression: kitty.Zlib, ImageWidth: b.Dx(), ImageHeight: b.Dy()},
	}
	best := ""
	for _, o := range ways {
		// Transmission is set here, not left to its default: EncodeGraphics
		// reads it before the defaults are filled in, and sends nothing
		// without it.
		o.Action, o.Transmission, o.ID, o.Quiet, o.Chunk = kitty.Transmit, kitty.Direct, int(id), 2, true
		o.ChunkFormatter = wrap
		var out strings.Builder
		if err := kitty.EncodeGraphics(&out, img, &o); err != nil {
			return "", fmt.Errorf("encode picture for the terminal: %w", err)
		}
		if best == "" || out.Len() < len(best) {
			best = out.String()
		}
	}
	return best, nil
}

// placeCommand returns the escape code that makes placement placement of
// image id a virtual one of cols×rows cells: the terminal fits the picture
// into that box, keeping its aspect ratio and centring it, and shows the
// part of it each placeholder cell names.
func placeCommand(id, placement uint32, cols, rows int) string {
	o := kitty.Options{Action: kitty.Put, ID: int(id), PlacementID: int(placement), VirtualPlacement: true,
		Columns: cols, Rows: rows, Quiet: 2}
	return ansi.KittyGraphics(nil, o.Options()...)
}

// deleteCommand returns the escape code that deletes image id with its
// placements and frees its data in the terminal.
func deleteCommand(id uint32) string {
	o := kitty.Options{Action: kitty.Delete, Delete: kitty.DeleteID, DeleteResources: true, ID: int(id), Quiet: 2}
	return ansi.KittyGraphics(nil, o.Options()...)
}
