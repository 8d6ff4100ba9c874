package sources

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

func (t *tailer) event(e TailEvent) { t.evq = append(t.evq, e) }

// tailNow is a channel that is always ready: a select case on it does not
// wait.
var tailNow = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// check brings the tail up to date with the file system.
//
// The path is looked up before the open file is read: what the lookup
// finds happened before that read, so when the new file at the path has
// content, a writer that moved to it had written its last to the old file
// already, and the old file read to its end has all of it.
func (t *tailer) check() {
	defer t.park()
	if t.f == nil && t.parked != nil && !t.unpark() {
		return
	}
	if t.f == nil {
		t.open(false)
		return
	}
	named, err := os.Stat(t.path)
	if t.rewritten() {
		t.truncated()
	}
	if !t.more {
		// In a read in steps the loop reads the next step once this one's
		// records are sent; reading on here would read the whole file
		// before the first of them goes, when looks come faster than the
		// steps are parsed (a slow machine, a busy folder).
		t.drain()
	}
	cur, serr := t.f.Stat()
	if serr == nil {
		t.size = cur.Size()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !t.waiting {
			t.waiting, t.gone = true, true
			t.event(TailWaiting)
		}
		if t.letGo() {
			t.finish()
		}
	case err != nil || serr != nil:
	case !os.SameFile(cur, named):
		// The new file is taken once it has content (the writer is on it)
		// or the old one has gone quiet, and never before the old one is
		// read to its end (a big file is read in steps).
		if !t.more && (named.Size() > 0 || t.letGo()) {
			t.finish()
			t.open(true)
		}
	default:
		t.detached = false
		if t.waiting { // the old file is at the path again
			t.waiting, t.gone = false, false
			t.event(TailFollowing)
		}
	}
}

// letGo tells whether the open file, which is no longer the one at the
// path, may be closed: whether it has not grown for tailLetGo. Until then
// it is read on, since its writer may still hold it: a rotation renames the
// log (and may make an empty new one), and the writer writes its last lines
// to the old file before it moves to the new. A deleted log is let go too,
// so that its space is not held for as long as the tail runs.
func (t *tailer) letGo() bool {
	now := time.Now()
	if !t.detached || t.off != t.idleOff || t.more {
		t.detached = true
		t.idleOff, t.idleSince = t.off, now
		return false
	}
	return now.Sub(t.idleSince) >= t.quiet
}

// truncated starts the current file over from its top: it was truncated
// or rewritten, and what was read of it is gone.
func (t *tailer) truncated() {
	t.restart()
	t.startOver()
	t.event(TailTruncated)
}

// open opens the file by path, reporting what happened.
func (t *tailer) open(rotated bool) {
	if !t.take() {
		return // it waits for a place, and looks again once it has one
	}
	f, err := os.Open(t.path)
	if err != nil {
		t.give()
		t.cannotOpen(err)
		return
	}
	t.f = f
	t.unopened = nil
	if st, err := f.Stat(); err == nil {
		t.size = st.Size()
		if !t.opened && !t.waiting && !rotated {
			t.held = st.Size()
		}
	}
	t.opened = true
	t.restart()
	if rotated || t.gone {
		t.startOver()
		t.event(TailRotated)
	} else {
		t.event(TailFollowing)
	}
	t.waiting, t.gone = false, false
	if from := t.from; from != nil {
		t.from = nil
		if !t.takeUp(*from) {
			// What the reader restored is not this file's start: it drops it.
			t.startOver()
			t.event(TailTruncated)
		}
	}
	t.drain()
}

// finish closes the current file, turning anything left over into a record.
func (t *tailer) finish() {
	t.flushRest()
	t.f.Close()
	t.f = nil
	t.detached = false
	t.give()
}

// restart resets the parse state to the top of the current file.
func (t *tailer) restart() {
	t.off, t.base = 0, 0
	t.head, t.mark = t.head[:0], t.mark[:0]
	t.buf = t.buf[:0]
	t.format = tailUnknown
	t.inArr, t.arrEnd, t.unfinished = false, false, 0
	t.sse, t.sseN, t.skip = t.sse[:0], 0, false
	t.translator = nil
}

// rewritten tells whether the file's first bytes are no longer those read.
func (t *tailer) rewritten() bool {
	return len(t.head) > 0 && !t.holds(t.head, 0)
}

// cannotOpen reports a failed open of the file: that it is not there, or
// why it is there and could not be opened (once for each new reason).
func (t *tailer) cannotOpen(err error) {
	if errors.Is(err, fs.ErrNotExist) {
		if !t.waiting {
			t.waiting = true
			t.event(TailWaiting)
		}
		return
	}
	if t.unopened == nil || t.unopened.Error() != err.Error() {
		t.unopened = err
		t.event(TailUnopened)
	}
}
