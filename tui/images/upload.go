package images

import "image"

// Upload is a picture the screen drew as pixels and the terminal does not
// hold yet: its encoding, which takes long enough that it runs off the
// screen's goroutine (0.2 s for a 1280×800 window on the development
// machine, 0.5–0.9 s for one full of noise: both encodings are tried).
// Encode is safe to call on any goroutine; what it returns goes back to
// Terminal.Finish on the screen's.
type Upload struct {
	key    key
	id     uint32
	pixels func() (image.Image, error)
	wrap   func(string) string
}

// Encoded is an Upload's escape codes, or why there are none.
type Encoded struct {
	key  key
	id   uint32
	code string
	w, h int
	err  error
}

// Encode decodes the picture if it was not decoded yet and encodes it
// for the terminal (uploadCommand). It reads the picture and writes
// nothing else.
func (u Upload) Encode() Encoded {
	e := Encoded{key: u.key, id: u.id}
	img, err := u.pixels()
	if err != nil {
		e.err = err
		return e
	}
	e.code, e.w, e.h, e.err = uploadCommand(u.id, img, u.wrap)
	return e
}

// Err is why the picture could not be encoded, nil when it was.
func (e Encoded) Err() error { return e.err }
