package window

// This file makes the rows a view shows of a thread whose items were shed:
// the items kept, the window read back, and a gap row (model.ItemGap)
// wherever items are missing between them. A thread has one window of at
// most windowMax items, dropped when the thread is trimmed again or the
// person goes back to live, so memory stays bounded by what is shown.

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// view is what the window holds of a thread whose items were shed: the
// window read back, the gap rows drawn and what is being read.
type view struct {
	// fold is the fold the window was read for: a thread that started over
	// has another, and the window is stale. In a replay, pos is the
	// player's position at the last read.
	fold *fold.Fold
	pos  int
	// window is the items read back, in Seq order, and rows the steps
	// their tool-call rows show, by index (for steps the view forgot,
	// whose stand-ins have no label).
	window []*model.Item
	rows   map[int]*model.Step
	// gaps are the gap rows of the last list, by Seq, kept so that a row
	// that did not change is the same item (the transcript's caches).
	gaps map[uint64]*gapRow
	// shown is the list last given out, reused.
	shown []*model.Item

	// reading is set while a read is under way; gen tells its answer from
	// one for a window since dropped. readingGap is the gap being read
	// (0 for a step's window).
	reading    bool
	gen        int
	readingGap uint64
	// failedGap is the gap whose read failed and why, failed; a gap that
	// failed is read again only when asked (RetryGap). triedStep is the
	// last step a window was read around, so that it is asked once.
	failedGap uint64
	failed    error
	triedStep int
}

// gapRow is a gap row: its item, and the item after it, whose Seq ends
// the gap (nil for a gap at the end, which the newest item made ends).
type gapRow struct {
	item  *model.Item
	after *model.Item
}

// viewKey names a thread's view: the thread, or in a replay, whose seeks
// give a thread a new fold each time, its source and id.
type viewKey struct {
	th     *fold.Thread
	replay string
}

// keyOf is the key of the view of the thread at at.
func (w *Window) keyOf(at At) viewKey {
	if at.Replay != nil && at.Thread != nil {
		return viewKey{replay: at.Thread.Source + "\x00" + at.Thread.ID}
	}
	return viewKey{th: at.Thread}
}

// viewOf is the view of the thread at at, made when create is set (nil
// otherwise when there is none or it is stale). A view is of one fold; in
// a replay, a seek back to where its items were read gives the thread a
// fold that has them as they were, so the view stays.
func (w *Window) viewOf(at At, create bool) *view {
	k := w.keyOf(at)
	v := w.views[k]
	if v != nil && v.fold != at.Fold {
		if at.Replay != nil && v.pos == at.Pos {
			v.fold = at.Fold
		} else {
			delete(w.views, k)
			v = nil
		}
	}
	if v == nil && create {
		if w.views == nil {
			w.views = map[viewKey]*view{}
		}
		v = &view{fold: at.Fold, triedStep: -1}
		w.views[k] = v
	}
	return v
}

// Drop lets go of the items read back for the thread at at (the person
// went back to live); it reports whether there were any, so the rows
// changed.
func (w *Window) Drop(at At) bool {
	k := w.keyOf(at)
	if w.views[k] == nil {
		return false
	}
	delete(w.views, k)
	return true
}

// Forget lets go of what the window holds of threads that are gone (their
// source started over).
func (w *Window) Forget(gone []*fold.Thread) {
	for _, th := range gone {
		delete(w.views, viewKey{th: th})
		delete(w.forgotten, th.Fold)
	}
}

// ForgetViews lets go of every view (a replay's, whose threads the window
// keys by source and id, when the screen starts over).
func (w *Window) ForgetViews() { w.views = nil }

// Rows is the list a view shows of the thread at at: the items kept, the
// window read back, and a gap row wherever items are missing between them.
// Item sequence numbers start at 1 and are never skipped, so a jump in them
// is where items were shed. The list is the window's own: read it only.
func (w *Window) Rows(at At) []*model.Item {
	kept := at.Fold.Items()
	v := w.viewOf(at, false)
	if at.Fold.Shedded().Items == 0 && (v == nil || len(v.window) == 0) {
		if v != nil {
			v.gaps = nil
		}
		return kept
	}
	v = w.viewOf(at, true)
	gaps := make(map[uint64]*gapRow, len(v.gaps))
	out := v.shown[:0]
	next := uint64(1)
	above := false // whether items read back come before
	push := func(it *model.Item, read bool) {
		if read && it.Seq < next {
			return // kept as well: the item kept is the newer
		}
		if it.Seq > next {
			out = append(out, w.gapRowAt(at, v, gaps, next, it, int(it.Seq-next), !above))
		}
		above = above || read
		out = append(out, it)
		next = max(next, it.Seq+1)
	}
	win := v.window
	for i, j := 0, 0; i < len(kept) || j < len(win); {
		if j >= len(win) || i < len(kept) && kept[i].Seq <= win[j].Seq {
			push(kept[i], false)
			i++
		} else {
			push(win[j], true)
			j++
		}
	}
	if made := at.Fold.ItemsMade(); next <= made {
		// The newest items went too (a replay sheds all that is finished
		// at its checkpoints).
		out = append(out, w.gapRowAt(at, v, gaps, next, nil, int(made-next+1), !above))
	}
	v.gaps, v.shown = gaps, out
	return out
}

// RowSteps are the steps read back for rows whose step the view forgot, by
// index (nil for none): such a row draws the step read back.
func (w *Window) RowSteps(at At) map[int]*model.Step {
	if v := w.viewOf(at, false); v != nil {
		return v.rows
	}
	return nil
}

// Item is the item with Seq seq among those read back for the thread at at
// (nil for none).
func (w *Window) Item(at At, seq uint64) *model.Item {
	if v := w.viewOf(at, false); v != nil {
		return FindItem(v.window, seq)
	}
	return nil
}

// FindItem finds the item with Seq seq in items, which are in Seq order.
func FindItem(items []*model.Item, seq uint64) *model.Item {
	lo, hi := 0, len(items)
	for lo < hi {
		mid := (lo + hi) / 2
		if items[mid].Seq < seq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(items) && items[lo].Seq == seq {
		return items[lo]
	}
	for _, it := range items { // not in Seq order after all
		if it.Seq == seq {
			return it
		}
	}
	return nil
}

// gapRowAt is the gap row of the n items from seq on, before the item after
// (nil for a gap at the end), kept in gaps.
func (w *Window) gapRowAt(at At, v *view, gaps map[uint64]*gapRow, seq uint64, after *model.Item, n int, top bool) *model.Item {
	g := v.gaps[seq]
	if g == nil {
		// A gap row's Seq is that of an item shed, which may be read
		// back: its versions are far above any item's, so that the
		// transcript never takes one's rendering for the other's.
		g = &gapRow{item: &model.Item{Seq: seq, Kind: model.ItemGap, Status: model.StatusCompleted, Step: -1, Version: gapVersions}}
	}
	g.after = after
	if text := w.gapText(at, v, seq, n, top); text != g.item.Text {
		g.item.Text = text
		g.item.Version++
	}
	gaps[seq] = g
	return g.item
}

// gapVersions is where the versions of gap rows start.
const gapVersions = 1 << 62

// gapText is what the gap row at seq of n items says: how many are
// missing (earlier ones at the top, with nothing read back above), and
// whether they can be read back, are being read or failed.
func (w *Window) gapText(at At, v *view, seq uint64, n int, top bool) string {
	s := "⋮ " + count(n, "item", "items") + " not kept"
	if top {
		s = "▲ " + count(n, "earlier item", "earlier items") + " not kept"
	}
	switch {
	case at.Thread == nil:
		return s
	case w.reader(at) == nil:
		return s + " (" + at.Thread.Source + " is not a file; --record FILE keeps a stream)"
	case v.reading && v.readingGap == seq:
		return s + " · reading back…"
	case v.failed != nil && v.failedGap == seq:
		return s + " · reading them back failed: " + v.failed.Error()
	case top:
		return s + " · scroll up or Enter to read them back"
	}
	return s + " · scroll or Enter to read them back"
}

// IsGap reports whether seq is the Seq of a gap row of the thread at at.
func (w *Window) IsGap(at At, seq uint64) bool {
	v := w.viewOf(at, false)
	return v != nil && v.gaps[seq] != nil
}

// RetryGap lets the gap row seq, whose read failed, be read again (Enter
// or a click on it); it reports whether it did, so the rows changed.
func (w *Window) RetryGap(at At, seq uint64) bool {
	if v := w.viewOf(at, false); v != nil && v.failedGap == seq {
		v.failedGap, v.failed = 0, nil
		return true
	}
	return false
}
