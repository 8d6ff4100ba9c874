package transcript

import "github.com/agentwatch/agentwatch/tui/images"

// SetPictures sets how the computer cards draw their screenshots (nil:
// half blocks). Cards drawn another way, or before the Terminal's Version
// changed, are drawn again.
func (t *Transcript) SetPictures(pics *images.Terminal) {
	if t.pictures == pics && t.picturesAt == pics.Version() {
		return
	}
	t.pictures, t.picturesAt = pics, pics.Version()
	clear(t.cache)
}
