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
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Glance windows: how much of a file's start and end a glance reads. A
// file no bigger than both is read whole, once.
const (
	GlanceHeadBytes = 64 << 10
	GlanceTailBytes = 128 << 10
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
func (f *folder) glance(path string, size *int64, mod *time.Time) (g model.Glance, ok, changed bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return g, errors.Is(err, os.ErrNotExist), false // gone: its tail would say nothing either
	}
	if st.Size() == *size && st.ModTime().Equal(*mod) {
		return g, true, false
	}
	head, tail, err := readGlance(path, st.Size(), f.opts.OpenHead)
	if err != nil {
		return g, false, false
	}
	g, ok = f.opts.Glance(path, head, tail)
	if !ok {
		return g, false, false
	}
	*size, *mod = st.Size(), st.ModTime()
	g.Size, g.Modified = st.Size(), st.ModTime()
	return g, true, true
}

// readGlance reads the whole lines of a file of size bytes that its first
// GlanceHeadBytes and last GlanceTailBytes hold, through open (os.Open
// when nil): the tail is sought to when the opened file can seek, and
// read through otherwise. tail is empty when head holds every whole line.
func readGlance(path string, size int64, open func(string) (io.ReadCloser, error)) (head, tail []byte, err error) {
	if open == nil {
		open = func(path string) (io.ReadCloser, error) { return os.Open(path) }
	}
	r, err := open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	buf := make([]byte, min(size, GlanceHeadBytes))
	n, err := io.ReadFull(r, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil, err
	}
	whole := buf[:n]
	headEnd := int64(bytes.LastIndexByte(whole, '\n') + 1)
	head = whole[:headEnd]
	if int64(n) < GlanceHeadBytes || size <= int64(n) {
		return head, nil, nil
	}
	from := max(int64(n), size-GlanceTailBytes)
	if s, ok := r.(io.Seeker); ok {
		if _, err := s.Seek(from, io.SeekStart); err != nil {
			return nil, nil, err
		}
	} else if _, err := io.CopyN(io.Discard, r, from-int64(n)); err != nil {
		return nil, nil, err
	}
	buf = make([]byte, size-from)
	k, err := io.ReadFull(r, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil, err
	}
	tail = buf[:k]
	if from == int64(n) {
		// The tail goes on right after the head: the head's last line,
		// cut by its edge, is whole with the tail's first bytes.
		tail = append(append(make([]byte, 0, int64(n)-headEnd+int64(k)), whole[headEnd:]...), tail...)
	} else {
		// The line the window's edge cuts is not read.
		i := bytes.IndexByte(tail, '\n')
		if i < 0 {
			return head, nil, nil
		}
		tail = tail[i+1:]
	}
	tail = tail[:bytes.LastIndexByte(tail, '\n')+1]
	return head, tail, nil
}
