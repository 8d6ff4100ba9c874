package window

// This file reads back the items around one item the view let go of, for
// a person who goes to it by other means than scrolling: a search's match
// in a message that was shed.

// WantItemsAround returns the read of the items around item seq of the
// thread at at, when seq lies in a gap of its rows (nil otherwise, or while
// a read is under way): at most a read window of them, seq in the middle.
// The gap row says it is reading meanwhile, and why when the read fails;
// the answer comes back as an ItemsReadMsg, as the other reads' do.
func (w *Window) WantItemsAround(at At, seq uint64) func() ItemsReadMsg {
	read := w.reader(at)
	if read == nil || at.Fold == nil || at.Fold.Shedded().Items == 0 {
		return nil
	}
	v := w.viewOf(at, false)
	if v == nil || v.reading {
		return nil
	}
	gap, ok := w.GapOf(at, seq)
	if !ok {
		return nil // not in a gap: kept or read back already
	}
	g := v.gaps[gap]
	end := at.Fold.ItemsMade() + 1
	if g.after != nil {
		end = g.after.Seq
	}
	n := uint64(w.readWindow())
	want := ItemsWanted{Source: at.Thread.Source, Thread: at.Thread.ID, Step: -1, Max: int(n)}
	want.From = max(gap, seq-min(seq, n/2))
	want.To = min(end, want.From+n)
	if want.To == end && g.after != nil {
		want.AfterKind, want.AfterID = g.after.Kind, g.after.ID
	}
	v.readingGap = gap
	v.reading = true
	v.gen++
	v.pos = at.Pos
	th, key, gen := at.Thread, w.keyOf(at), v.gen
	return func() ItemsReadMsg {
		got, err := read.Items(want)
		return ItemsReadMsg{th: th, key: key, gen: gen, want: want, read: got, err: err}
	}
}

// GapOf is the Seq of the gap row of the thread at at whose items include
// seq, and whether there is one: where a shed item is, when it cannot be
// read back.
func (w *Window) GapOf(at At, seq uint64) (uint64, bool) {
	v := w.viewOf(at, false)
	if v == nil {
		return 0, false
	}
	var gap uint64
	var g *gapRow
	for start, row := range v.gaps {
		if start <= seq && start > gap {
			gap, g = start, row
		}
	}
	if g == nil || g.after != nil && seq >= g.after.Seq || g.after == nil && seq > at.Fold.ItemsMade() {
		return 0, false
	}
	return gap, true
}
