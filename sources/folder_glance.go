package sources

// This file is a followed folder's glances: with FolderOptions.Glance set,
// a file is not tailed and folded as it is found but looked at, its head
// and tail only, and looked at again when it changes; it is tailed from
// its start once FolderOptions.Open names it. A big folder of an agent's
// sessions is listed from what the glances say.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Glance windows: how much of a file's start and end a glance reads. A
// file no bigger than both is read whole, once. The tail window is
// widened (four times over, up to GlanceTailMaxBytes) only when it holds
// no whole line, or the glance says it holds no time (model.Glance's
// Untimed): a session whose last line is a long tool result.
const (
	GlanceHeadBytes    = 64 << 10
	GlanceTailBytes    = 64 << 10
	GlanceTailMaxBytes = 1 << 20
)

// glanceAtOnce is how many files of a folder are glanced at the same time:
// enough to keep the disk and two cores busy, few enough that the first
// rows come early.
const glanceAtOnce = 4

// glanceFile looks at the file at path whenever wake says it may have
// changed, and sends what its head and tail say when they changed, until
// open is closed (then the file is tailed from its start, as a folder's
// file without glances is) or ctx ends. A file the glance does not take is
// tailed at once.
func (f *folder) glanceFile(ctx context.Context, path string, wake <-chan struct{}, open <-chan struct{}, out chan<- model.Batch, events chan<- FolderEvent) {
	var size int64 = -1
	var mod time.Time
	for {
		select {
		case f.glancing <- struct{}{}:
		case <-open:
			f.tailFolded(ctx, path, wake, out, events)
			return
		case <-ctx.Done():
			return
		}
		g, ok, changed := f.glance(path, &size, &mod)
		<-f.glancing
		if !ok {
			f.tailFolded(ctx, path, wake, out, events)
			return
		}
		if changed {
			select {
			case out <- model.Batch{Source: path, Glance: &g}:
			case <-open:
				f.tailFolded(ctx, path, wake, out, events)
				return
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-wake:
		case <-open:
			f.tailFolded(ctx, path, wake, out, events)
			return
		case <-ctx.Done():
			return
		}
	}
}

// tailFolded tails a glanced file from its start: its records are folded
// from now on.
func (f *folder) tailFolded(ctx context.Context, path string, wake <-chan struct{}, out chan<- model.Batch, events chan<- FolderEvent) {
	t := newTailer(path, TailOptions{Poll: max(folderTailPoll, f.opts.Poll), MaxEventBytes: f.opts.MaxEventBytes, Wake: wake})
	tailFile(ctx, path, t, out, events)
}

// glance looks at the file at path when its size or modification time is
// not *size and *mod any more (and notes the new ones there): what its
// head and tail say, and whether the glance takes it (ok false for a file
// that is not what Glance knows, or cannot be read: it is tailed instead).
// The file is opened once; its bytes are read into a pooled buffer, each
// once.
func (f *folder) glance(path string, size *int64, mod *time.Time) (g model.Glance, ok, changed bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return g, errors.Is(err, os.ErrNotExist), false // gone: its tail would say nothing either
	}
	if st.Size() == *size && st.ModTime().Equal(*mod) {
		return g, true, false
	}
	open := f.opts.OpenHead
	if open == nil {
		open = func(path string) (io.ReadCloser, error) { return os.Open(path) }
	}
	r, err := open(path)
	if err != nil {
		return g, false, false
	}
	defer r.Close()
	w := getGlanceWindow()
	defer w.put()
	if err := w.read(r, st.Size()); err != nil {
		return g, false, false
	}
	for {
		g, ok = f.opts.Glance(path, w.head, w.tail)
		if !ok || !g.Untimed {
			break
		}
		if more, err := w.widen(r); err != nil || !more {
			break
		}
	}
	if !ok {
		return g, false, false
	}
	*size, *mod = st.Size(), st.ModTime()
	g.Size, g.Modified = st.Size(), st.ModTime()
	return g, true, true
}

// glanceWindow is what a glance read of a file: the whole lines of its
// first GlanceHeadBytes (head) and of its last bytes (tail, empty when
// head holds every whole line), both in buf.
type glanceWindow struct {
	buf        []byte
	head, tail []byte
	size       int64 // the file's size when it was looked at
	from       int64 // where the tail window starts in the file
	headEnd    int64 // the bytes read from the file's start
}

// glanceBufs keeps the buffers of glances done, so that listing a folder
// reads its files into the same few.
var glanceBufs = sync.Pool{New: func() any { return &glanceWindow{buf: make([]byte, GlanceHeadBytes+GlanceTailBytes)} }}

func getGlanceWindow() *glanceWindow { return glanceBufs.Get().(*glanceWindow) }

// put gives the window's buffer back for the next glance; one widened
// past the usual windows is let go, so that what is kept stays small.
func (w *glanceWindow) put() {
	if cap(w.buf) > GlanceHeadBytes+GlanceTailBytes {
		return
	}
	*w = glanceWindow{buf: w.buf}
	glanceBufs.Put(w)
}

// read reads the head and tail of r, a file of size bytes: the whole file
// in one read when it is no bigger than both windows, else its head, then
// its tail, sought to when r can seek and read through otherwise. A tail
// window that holds no whole line is widened at once.
func (w *glanceWindow) read(r io.Reader, size int64) error {
	w.size = size
	if size <= GlanceHeadBytes+GlanceTailBytes {
		n, err := readUpTo(r, w.buf[:size])
		if err != nil {
			return err
		}
		w.head, w.tail, w.from, w.headEnd = wholeLines(w.buf[:n]), nil, int64(n), int64(n)
		return nil
	}
	n, err := readUpTo(r, w.buf[:GlanceHeadBytes])
	if err != nil {
		return err
	}
	w.head, w.headEnd = wholeLines(w.buf[:n]), int64(n)
	if int64(n) < GlanceHeadBytes {
		return nil // the file shrank under the glance: its head is all there is
	}
	w.from = size - GlanceTailBytes
	if s, ok := r.(io.Seeker); ok {
		_, err = s.Seek(w.from, io.SeekStart)
	} else {
		_, err = io.CopyN(io.Discard, r, w.from-w.headEnd)
	}
	if err != nil {
		return err
	}
	k, err := readUpTo(r, w.buf[GlanceHeadBytes:GlanceHeadBytes+GlanceTailBytes])
	if err != nil {
		return err
	}
	w.setTail(w.buf[GlanceHeadBytes : GlanceHeadBytes+k])
	if len(w.tail) == 0 {
		_, err = w.widen(r)
	}
	return err
}

// widen reads the tail window further back, four times as far (up to
// GlanceTailMaxBytes, or to the head's end), the bytes before the window
// read only: more reports whether the window grew. A window that still
// holds no whole line is widened again.
func (w *glanceWindow) widen(r io.Reader) (more bool, err error) {
	for {
		old := w.size - w.from
		if w.from <= w.headEnd || old >= GlanceTailMaxBytes {
			return more, nil
		}
		s, ok := r.(io.Seeker)
		if !ok {
			return more, nil // read through once already: the head is what is left
		}
		from := max(w.headEnd, w.size-min(4*old, GlanceTailMaxBytes))
		buf := make([]byte, GlanceHeadBytes+(w.size-from))
		copy(buf, w.buf[:GlanceHeadBytes])
		tailAt := int64(GlanceHeadBytes)
		// The window read so far goes at the end; the bytes before it are
		// read in front of it.
		copy(buf[tailAt+(w.from-from):], w.buf[GlanceHeadBytes:GlanceHeadBytes+old])
		if _, err := s.Seek(from, io.SeekStart); err != nil {
			return more, err
		}
		if _, err := io.ReadFull(r, buf[tailAt:tailAt+(w.from-from)]); err != nil {
			return more, err
		}
		w.buf, w.from, more = buf, from, true
		window := buf[tailAt:]
		if from == w.headEnd {
			// The tail goes on right after the head: the head's last line,
			// cut by its edge, is whole with the tail's first bytes.
			cut := w.headEnd - int64(len(w.head))
			window = buf[tailAt-cut:]
			w.tail = window[:bytes.LastIndexByte(window, '\n')+1]
			return more, nil
		}
		w.setTail(window)
		if len(w.tail) > 0 {
			return more, nil
		}
	}
}

// setTail sets the tail to the whole lines of window, a tail window that
// starts within the file: the line its edge cuts is not read.
func (w *glanceWindow) setTail(window []byte) {
	i := bytes.IndexByte(window, '\n')
	if i < 0 {
		w.tail = nil
		return
	}
	w.tail = wholeLines(window[i+1:])
}

// wholeLines is b up to its last line end.
func wholeLines(b []byte) []byte { return b[:bytes.LastIndexByte(b, '\n')+1] }

// readUpTo reads len(b) bytes of r, fewer at its end.
func readUpTo(r io.Reader, b []byte) (int, error) {
	n, err := io.ReadFull(r, b)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return n, err
	}
	return n, nil
}
