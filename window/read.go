package window

// This file reads items back as a person goes to them: scrolling to a gap
// row, Enter on it, or selecting a step whose row was shed reads a window
// of items back from the source (its Reader), or in a replay from the
// timeline, off the view's goroutine; the answer comes back as an
// ItemsReadMsg, which TookItems shows with the items kept.

import (
	"slices"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// readWindow is how many items one read brings back (the items a thread
// keeps); a thread's window holds at most twice that.
func (w *Window) readWindow() int { return w.opts.Keep.Items }
func (w *Window) windowMax() int  { return 2 * w.opts.Keep.Items }

// ItemsReadMsg brings items read back, or why they could not be.
type ItemsReadMsg struct {
	th   *fold.Thread
	key  viewKey
	gen  int
	want ItemsWanted
	read ItemsRead
	err  error
}

// reader is how items of the thread at at are read back: from its source,
// or in a replay from the timeline (nil when its source is not a file).
func (w *Window) reader(at At) Reader {
	if at.Replay != nil {
		return at.Replay
	}
	if at.Thread == nil {
		return nil
	}
	return w.sourceReader(at.Thread.Source)
}

// sourceReader is how what the window let go of source is read back (nil
// when it cannot be), asked of Options.Reader once.
func (w *Window) sourceReader(source string) Reader {
	if w.opts.Reader == nil {
		return nil
	}
	if r, ok := w.readers[source]; ok {
		return r
	}
	if w.readers == nil {
		w.readers = map[string]Reader{}
	}
	r := w.opts.Reader(source)
	w.readers[source] = r
	return r
}

// CanRead reports whether what the window let go of the thread at at can
// be read back.
func (w *Window) CanRead(at At) bool { return w.reader(at) != nil }

// Sight is what the person sees that may want items read back: the step
// selected (-1 for none) and whether the view follows the newest, whether
// the selected step's row is among the rows (HasRow), and the gap row in
// view (GapSeq, GapOK; Below when it was come to from below). Drawn says
// the rows were drawn in this frame (not those of a frame before the
// thread list or a zoomed panel).
type Sight struct {
	Selected   int
	ToolCallID string
	Following  bool
	HasRow     bool
	GapSeq     uint64
	Below      bool
	GapOK      bool
	Drawn      bool
}

// WantItems decides whether items of the thread at at are to be read back
// now that the person sees s: the selected step's row, or a gap row in
// view. Nothing is read while a read is under way, and a gap that failed
// is not read again until RetryGap. It returns the read to run off the
// view's goroutine (nil for none); the rows say it is reading meanwhile.
func (w *Window) WantItems(at At, s Sight) func() ItemsReadMsg {
	read := w.reader(at)
	if read == nil || at.Fold == nil || at.Fold.Shedded().Items == 0 {
		return nil
	}
	v := w.viewOf(at, true)
	if v.reading {
		return nil
	}
	want := ItemsWanted{Source: at.Thread.Source, Thread: at.Thread.ID, Step: -1, Max: w.readWindow()}
	switch {
	case s.Selected >= 0 && !s.Following && s.Selected != v.triedStep && !s.HasRow:
		v.triedStep = s.Selected
		want.Step, want.ToolCallID = s.Selected, s.ToolCallID
	case s.GapOK && s.Drawn && s.GapSeq != v.failedGap && v.gaps[s.GapSeq] != nil:
		g := v.gaps[s.GapSeq]
		end := at.Fold.ItemsMade() + 1 // a gap at the end
		if g.after != nil {
			end = g.after.Seq
		}
		want.From, want.To = s.GapSeq, end
		if s.Below {
			// Come to from below: the items just above those in view.
			want.From = max(s.GapSeq, end-min(end, uint64(w.readWindow())))
		} else {
			want.To = min(end, s.GapSeq+uint64(w.readWindow()))
		}
		if want.To == end && g.after != nil {
			want.AfterKind, want.AfterID = g.after.Kind, g.after.ID
		}
		v.readingGap = s.GapSeq
	default:
		return nil
	}
	v.reading = true
	v.gen++
	v.pos = at.Pos
	th, key, gen := at.Thread, w.keyOf(at), v.gen
	return func() ItemsReadMsg {
		got, err := read.Items(want)
		return ItemsReadMsg{th: th, key: key, gen: gen, want: want, read: got, err: err}
	}
}

// TookItems shows the items read back in the window of their thread. It
// reports whether they are of the thread at at (the view then draws its
// rows again, keeping those in view where they were), and the step whose
// row was wanted (-1 for a gap's items).
func (w *Window) TookItems(at At, m ItemsReadMsg) (shown bool, step int, err error) {
	v := w.views[m.key]
	if v == nil || v.gen != m.gen || !v.reading {
		return false, -1, nil // dropped meanwhile
	}
	v.reading = false
	gap := v.readingGap
	v.readingGap = 0
	if m.err != nil {
		if m.want.Step >= 0 {
			// A step's row has no gap of its own: the top one says why.
			gap = 0
			for seq := range v.gaps {
				if gap == 0 || seq < gap {
					gap = seq
				}
			}
		}
		v.failedGap, v.failed = gap, m.err
	} else {
		v.window = mergeWindow(v.window, m.read.Items, w.windowMax())
		v.keepRows(m.read.Steps)
	}
	return m.th == at.Thread, m.want.Step, m.err
}

// keepRows keeps the steps read back with the window's items, and lets go
// of those whose items the window no longer holds.
func (v *view) keepRows(steps []*model.Step) {
	if v.rows == nil {
		v.rows = map[int]*model.Step{}
	}
	for _, s := range steps {
		v.rows[s.Index] = s
	}
	in := make(map[int]bool, len(v.window))
	for _, it := range v.window {
		if it.Kind == model.ItemToolCall {
			in[it.Step] = true
		}
	}
	for i := range v.rows {
		if !in[i] {
			delete(v.rows, i)
		}
	}
}

// mergeWindow adds items read back to a window of at most most items.
// Items near the window (closer than most items: between them there may be
// items kept, such as a run still open) join it, which then loses what
// lies farthest from them past most items; items far from it replace it.
// (Had only items right next to it joined, two reads on either side of an
// item kept would each replace the other's, and the view read them back
// for ever.)
func mergeWindow(window, items []*model.Item, most int) []*model.Item {
	if len(items) == 0 {
		return window
	}
	lo, hi := items[0].Seq, items[len(items)-1].Seq
	if len(window) == 0 || hi+uint64(most) < window[0].Seq || lo > window[len(window)-1].Seq+uint64(most) {
		return slices.Clone(items[max(0, len(items)-most):])
	}
	out := make([]*model.Item, 0, len(window)+len(items))
	i, j := 0, 0
	for i < len(window) || j < len(items) {
		switch {
		case j >= len(items) || i < len(window) && window[i].Seq < items[j].Seq:
			out = append(out, window[i])
			i++
		case i < len(window) && window[i].Seq == items[j].Seq:
			out = append(out, items[j]) // read again: the newer
			i++
			j++
		default:
			out = append(out, items[j])
			j++
		}
	}
	if len(out) <= most {
		return out
	}
	if lo < window[0].Seq {
		return slices.Clone(out[:most]) // read upwards: the newest go
	}
	return slices.Clone(out[len(out)-most:])
}

// Abandon forgets a read under way for the thread at at whose answer will
// not come (the program that was to run it dropped it): the next WantItems
// may ask again.
func (w *Window) Abandon(at At) {
	if v := w.viewOf(at, false); v != nil {
		v.reading, v.readingGap = false, 0
	}
}
