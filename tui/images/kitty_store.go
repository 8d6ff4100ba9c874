package images

// What one terminal holds: the pictures sent to it, each under an image
// id, with the virtual placements (sizes in cells) made of it. A picture is
// sent the first time it is drawn and placed the first time it is drawn at
// a size; after that, drawing it costs only its placeholder cells.

import (
	"image"
	"strings"
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

// sentImage is a picture the terminal holds.
type sentImage struct {
	id     uint32
	pixels int64
	// places are its virtual placements by size in cells.
	places map[[2]int]uint32
}

// kittyStore is what a terminal holds, and the codes it must be sent
// before the lines drawn since they were last taken will show.
type kittyStore struct {
	sent map[key]*sentImage
	// failed are pictures that cannot be sent (too large even scaled
	// down, or not encodable): they are drawn in half blocks.
	failed map[key]bool
	// issued counts the ids handed out.
	issued uint32
	stored int64
	out    strings.Builder
	// reset is set when everything was deleted, so that lines drawn
	// before show blank cells and must be drawn again.
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
// in a cols×rows box, queueing its upload and its placement when the
// terminal does not hold them yet; pixels gives the decoded picture when
// it has to be sent. ok is false when the picture cannot be sent.
func (s *kittyStore) place(k key, pixels func() (image.Image, error), cols, rows int) (id, placement uint32, ok bool) {
	if s.failed[k] {
		return 0, 0, false
	}
	im := s.sent[k]
	if im == nil {
		img, err := pixels()
		if err != nil {
			s.failed[k] = true
			return 0, 0, false
		}
		id := s.nextID()
		code, w, h, err := uploadCommand(id, img, s.wrap)
		if err != nil {
			s.failed[k] = true
			return 0, 0, false
		}
		s.out.WriteString(code)
		im = &sentImage{id: id, pixels: int64(w) * int64(h), places: map[[2]int]uint32{}}
		s.sent[k] = im
		s.stored += im.pixels
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
		s.write(placeCommand(im.id, p, cols, rows))
	}
	return im.id, p, true
}

// trim deletes every picture the terminal holds once more than
// MaxKittyStored pixels were sent, and reports whether it did: lines drawn
// before then show blank cells.
func (s *kittyStore) trim() bool {
	if s.stored <= MaxKittyStored {
		return false
	}
	for _, im := range s.sent {
		s.write(deleteCommand(im.id))
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
