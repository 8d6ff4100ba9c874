package window

import "github.com/agentwatch/agentwatch/internal/words"

// Trim trims the fold of the thread at at to what the window keeps, once it
// holds twice as many items, unless looking says a person looks back in it
// (the thread on screen, not following its newest step): what they look at
// stays. It reports whether it trimmed; the items read back for the
// thread are dropped then, being far from what it keeps now.
func (w *Window) Trim(at At, looking bool) bool {
	f := at.Fold
	if f == nil || looking || len(f.Items()) < 2*w.opts.Keep.Items {
		return false
	}
	f.Trim(w.opts.Keep)
	delete(w.views, w.keyOf(at))
	return true
}

// Dropped is how many items of the thread at at the window let go (0 when
// none), and how many of them are read back and shown.
func (w *Window) Dropped(at At) (shed, readBack int) {
	if at.Fold == nil {
		return 0, 0
	}
	shed = at.Fold.Shedded().Items
	if v := w.viewOf(at, false); v != nil {
		readBack = len(v.window)
	}
	return shed, readBack
}

// count is words.Count.
func count(n int, one, many string) string { return words.Count(n, one, many) }
