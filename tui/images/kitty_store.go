package images

// What one terminal holds: the pictures sent to it, each under an image
// id, with the virtual placements (sizes in cells) made of it. A picture is
// sent the first time it is drawn and placed the first time it is drawn at
// a size; after that, drawing it costs only its placeholder cells. Its
// upload is encoded off the screen's goroutine (Upload), so a new picture
// does not hold up the frame that first shows it.

import (
	"image"
	"strings"

	"github.com/agentwatch/agentwatch/tui/render"
)

// MaxKittyStored is how many pixels of pictures one terminal is asked to
// hold (four bytes each once the terminal has decoded them: 128 MiB, under
// kitty's default quota of 320 MB). When more have been sent, every
// picture is deleted at the start of the next frame and those still in
// view are sent again.
const MaxKittyStored = 1 << 25

// kittyIDs is how many image ids are handed out before they are reused:
// 255 foreground colours (1–255; 0 reads as no colour) times 256 values of
// the third diacritic.
const kittyIDs = 255 * 256

// kittyPlacements is how many placements a picture gets before they are
// reused: one underline colour each (1–255).
const kittyPlacements = 255

// key tells pictures apart by content: the SHA-256 of their bytes.
type key [32]byte

// sentImage is a picture the terminal holds, or will once its upload is
// encoded.
type sentImage struct {
	id     uint32
	pixels int64
	// places are its virtual placements by size in cells.
	places map[[2]int]uint32
	// encoding is set while its upload is being encoded; the placements
	// made meanwhile wait in waiting, as they must follow the upload.
	encoding bool
	waiting  []string
}

// kittyStore is what a terminal holds, the uploads still to encode, and
// the codes it must be sent before the lines drawn since they were last
// taken will show.
type kittyStore struct {
	sent map[key]*sentImage
	// failed are pictures that cannot be sent (too large even scaled
	// down, or not encodable): they are drawn in half blocks.
	failed map[key]bool
	// issued counts the ids handed out.
	issued uint32
	stored int64
	out    strings.Builder
	// uploads are the pictures drawn that are still to be encoded.
	uploads []Upload
	// reset is set when lines drawn before may show the wrong thing
	// (pictures deleted, placements reused, an upload that failed), so
	// that they are drawn again.
	reset bool
	// wrap, when set, wraps each code for a multiplexer to pass on.
	wrap func(string) string
}

// write queues one code, wrapped when the terminal is behind tmux.
func (s *kittyStore) write(code string) {
	if s.wrap != nil {
		code = s.wrap(code)
	}
	s.out.WriteString(code)
}

func newKittyStore() *kittyStore {
	return &kittyStore{sent: map[key]*sentImage{}, failed: map[key]bool{}}
}

// nextID hands out the next image id: the low byte 1–255 (a 256-colour
// foreground), the high byte 0–255 (the third diacritic, left out when 0),
// so that the first 255 pictures' cells carry two diacritics, not three.
func (s *kittyStore) nextID() uint32 {
	n := s.issued % kittyIDs
	s.issued++
	return (n/255)<<24 | (1 + n%255)
}

// place returns the image id and placement id that show the picture k
// (w×h pixels) in a cols×rows box. A picture the terminal does not hold
// yet gets an id at once and an Upload to encode from pixels; a size it
// is not placed at yet gets a placement, queued after the upload. ok is
// false for a picture that could not be sent.
func (s *kittyStore) place(k key, w, h int, pixels func() (image.Image, error), cols, rows int) (id, placement uint32, ok bool) {
	if s.failed[k] {
		return 0, 0, false
	}
	im := s.sent[k]
	if im == nil {
		im = &sentImage{id: s.nextID(), places: map[[2]int]uint32{}, encoding: true}
		// Counted at the size it will most likely be sent at.
		if w > MaxKittySide || h > MaxKittySide {
			w, h = render.FitBox(w, h, MaxKittySide, MaxKittySide)
		}
		im.pixels = int64(w) * int64(h)
		s.stored += im.pixels
		s.sent[k] = im
		s.uploads = append(s.uploads, Upload{key: k, id: im.id, pixels: pixels, wrap: s.wrap})
	}
	size := [2]int{cols, rows}
	p, ok := im.places[size]
	if !ok {
		if len(im.places) >= kittyPlacements {
			// Placement ids are reused from 1: lines drawn with the old
			// ones are drawn again (reset), as after a purge.
			clear(im.places)
			s.reset = true
		}
		p = uint32(len(im.places) + 1)
		im.places[size] = p
		if code := placeCommand(im.id, p, cols, rows); im.encoding {
			im.waiting = append(im.waiting, code)
		} else {
			s.write(code)
		}
	}
	return im.id, p, true
}

// finish takes an upload's codes, encoded: they are queued, then the
// placements made while it was encoded. An upload for a picture deleted
// since (trim), or sent again under another id, is dropped. One that
// failed marks the picture to be drawn in half blocks, and the lines drawn
// with its cells to be drawn again.
func (s *kittyStore) finish(e Encoded) {
	im := s.sent[e.key]
	if im == nil || im.id != e.id || !im.encoding {
		return
	}
	if e.err != nil {
		delete(s.sent, e.key)
		s.stored -= im.pixels
		s.failed[e.key] = true
		s.reset = true
		return
	}
	s.out.WriteString(e.code) // wrapped already, chunk by chunk
	for _, code := range im.waiting {
		s.write(code)
	}
	s.stored += int64(e.w)*int64(e.h) - im.pixels
	im.pixels, im.encoding, im.waiting = int64(e.w)*int64(e.h), false, nil
}

// trim deletes every picture the terminal holds once more than
// MaxKittyStored pixels were sent, and reports whether it did: lines drawn
// before then show blank cells. Uploads still being encoded are dropped
// when they come back.
func (s *kittyStore) trim() bool {
	if s.stored <= MaxKittyStored {
		return false
	}
	for _, im := range s.sent {
		if !im.encoding {
			s.write(deleteCommand(im.id))
		}
	}
	clear(s.sent)
	s.stored = 0
	return true
}

// take returns the codes queued since the last take.
func (s *kittyStore) take() string {
	out := s.out.String()
	s.out.Reset()
	return out
}

// takeUploads returns the uploads queued since the last call.
func (s *kittyStore) takeUploads() []Upload {
	u := s.uploads
	s.uploads = nil
	return u
}
