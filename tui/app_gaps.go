package tui

// This file puts back what the screen shed as a person goes to it. The
// transcript shows a gap row (model.ItemGap) wherever items were shed;
// scrolling to one, Enter on it, or selecting a step whose row was shed
// reads a window of items back from the source's file
// (AppOptions.ReadItems), or in a replay from the timeline
// (replay.Timeline.Items), and shows it with the items kept. A thread has
// one window of at most windowMax items, dropped when the thread is shed
// again or the person goes back to live, so memory stays bounded by what
// is shown.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// ItemsWanted is what the screen asks AppOptions.ReadItems for: the items
// From ≤ Seq < To of a thread, or, when Step is not -1, about Max items
// around the tool-call item of step Step.
type ItemsWanted struct {
	// Source and Thread name the thread (fold.Thread's Source and ID).
	Source, Thread string
	// From and To are the items wanted by Seq, when Step is -1.
	From, To uint64
	// AfterKind and AfterID are the kind and id of item To, which the
	// screen shows: a file without it is not the one the screen folded
	// ("" when the screen does not know item To).
	AfterKind model.ItemKind
	AfterID   string
	// Step, when not -1, is the step whose tool-call item is wanted with
	// the items around it, and ToolCallID its tool call's id, which the
	// file must have too.
	Step       int
	ToolCallID string
	// Max is how many items are wanted at most.
	Max int
}

// ItemsRead is what a read back brings: the items, and the steps their
// tool-call rows show, without their content (a row draws a step's label,
// status and result mark; the panel reads a selected step back whole).
type ItemsRead struct {
	Items []*model.Item
	Steps []*model.Step
}

// readWindow is how many items one read brings back; a thread's window
// holds at most windowMax of them.
const (
	readWindow = screenKeepItems
	windowMax  = 2 * readWindow
)

// shedView is what the screen holds of a thread whose items were shed:
// the window read back, the gap rows drawn and what is being read.
type shedView struct {
	// fold is the fold the window was read for: a thread that started over
	// has another, and the window is stale. In a replay, pos is the
	// player's position at the last read.
	fold *fold.Fold
	pos  int
	// window is the items read back, in Seq order, and rows the steps
	// their tool-call rows show, by index (for steps the screen forgot,
	// whose stand-ins have no label).
	window []*model.Item
	rows   map[int]*model.Step
	// gaps are the gap rows of the last list, by Seq, kept so that a row
	// that did not change is the same item (the transcript's caches).
	gaps map[uint64]*gapRow
	// shown is the list last handed to the transcript, reused.
	shown []*model.Item

	// reading is set while a read is under way; gen tells its answer from
	// one for a window since dropped. readingGap is the gap being read
	// (0 for a step's window).
	reading    bool
	gen        int
	readingGap uint64
	// failedGap is the gap whose read failed and why, failed; a gap that
	// failed is read again only on Enter. triedStep is the last step a
	// window was read around, so that it is asked once.
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

// readItemsMsg brings items read back, or why they could not be.
type readItemsMsg struct {
	th   *fold.Thread
	gen  int
	want ItemsWanted
	read ItemsRead
	err  error
}

// curThread is the thread on screen: of a source of threads, the one a
// replay plays, or a live agent's session as a thread of its recording
// (nil in other modes).
func (a *App) curThread() *fold.Thread {
	switch m := a.mode.(type) {
	case *replayMode:
		return m.player.Thread()
	case *sessionMode:
		return a.recordedSession()
	case *threadsView:
		return m.cur
	}
	return nil
}

// viewKey names a thread's shed view: the thread, or in a replay, whose
// seeks give a thread a new fold each time, its source and id.
type viewKey struct {
	th     *fold.Thread
	replay string
}

// viewKeyOf is th's viewKey.
func (a *App) viewKeyOf(th *fold.Thread) viewKey {
	if a.modeIs(modeReplay) && th != nil {
		return viewKey{replay: th.Source + "\x00" + th.ID}
	}
	return viewKey{th: th}
}

// shedViewOf is the shed view of the thread on screen, made when create
// is set (nil otherwise when there is none or it is stale). A view is of
// one fold; in a replay, a seek back to where its items were read gives
// the thread a fold that has them as they were, so the view stays.
func (a *App) shedViewOf(create bool) *shedView {
	k := a.viewKeyOf(a.curThread())
	v := a.shedViews[k]
	if v != nil && v.fold != a.fold {
		if r, ok := a.mode.(*replayMode); ok && v.pos == r.player.Pos() {
			v.fold = a.fold
		} else {
			delete(a.shedViews, k)
			v = nil
		}
	}
	if v == nil && create {
		if a.shedViews == nil {
			a.shedViews = map[viewKey]*shedView{}
		}
		v = &shedView{fold: a.fold, triedStep: -1}
		a.shedViews[k] = v
	}
	return v
}

// dropWindow forgets the window read back for th: it was shed again, or
// the person went back to live.
func (a *App) dropWindow(th *fold.Thread) {
	k := a.viewKeyOf(th)
	if v := a.shedViews[k]; v != nil {
		delete(a.shedViews, k)
		if th == a.curThread() {
			a.refresh()
		}
	}
}

// itemReader is how items of the thread on screen are read back: from its
// file, or in a replay from the timeline's checkpoints, as they were at the
// player's position (nil when its source is not a file).
func (a *App) itemReader() func(ItemsWanted) (ItemsRead, error) {
	th := a.curThread()
	if r, ok := a.mode.(*replayMode); ok && th != nil {
		tl, k := r.player.Timeline(), r.player.Pos()
		return func(w ItemsWanted) (ItemsRead, error) {
			items, steps, _, err := tl.Items(k, w.Source, w.Thread, w.From, w.To)
			return ItemsRead{Items: items, Steps: steps}, err
		}
	}
	if th == nil || a.opts.ReadItems == nil {
		return nil
	}
	if r, ok := a.readers[th.Source]; ok {
		return r
	}
	if a.readers == nil {
		a.readers = map[string]func(ItemsWanted) (ItemsRead, error){}
	}
	r := a.opts.ReadItems(th.Source)
	a.readers[th.Source] = r
	return r
}

// shownItems is the list the transcript shows: the items kept, the window
// read back, and a gap row wherever items are missing between them. Item
// sequence numbers start at 1 and are never skipped, so a jump in them is
// where items were shed.
func (a *App) shownItems() []*model.Item {
	kept := a.fold.Items()
	v := a.shedViewOf(false)
	if a.fold.Shedded().Items == 0 && (v == nil || len(v.window) == 0) {
		if v != nil {
			v.gaps = nil
		}
		return kept
	}
	v = a.shedViewOf(true)
	gaps := make(map[uint64]*gapRow, len(v.gaps))
	out := v.shown[:0]
	next := uint64(1)
	above := false // whether items read back come before
	push := func(it *model.Item, read bool) {
		if read && it.Seq < next {
			return // kept as well: the item kept is the newer
		}
		if it.Seq > next {
			out = append(out, a.gapRowAt(v, gaps, next, it, int(it.Seq-next), !above))
		}
		above = above || read
		out = append(out, it)
		next = max(next, it.Seq+1)
	}
	w := v.window
	for i, j := 0, 0; i < len(kept) || j < len(w); {
		if j >= len(w) || i < len(kept) && kept[i].Seq <= w[j].Seq {
			push(kept[i], false)
			i++
		} else {
			push(w[j], true)
			j++
		}
	}
	if made := a.fold.ItemsMade(); next <= made {
		// The newest items went too (a replay sheds all that is finished
		// at its checkpoints).
		out = append(out, a.gapRowAt(v, gaps, next, nil, int(made-next+1), !above))
	}
	v.gaps, v.shown = gaps, out
	return out
}

// gapRowAt is the gap row of the n items from seq on, before the item after
// (nil for a gap at the end), kept in gaps.
func (a *App) gapRowAt(v *shedView, gaps map[uint64]*gapRow, seq uint64, after *model.Item, n int, top bool) *model.Item {
	g := v.gaps[seq]
	if g == nil {
		// A gap row's Seq is that of an item shed, which may be read
		// back: its versions are far above any item's, so that the
		// transcript never takes one's rendering for the other's.
		g = &gapRow{item: &model.Item{Seq: seq, Kind: model.ItemGap, Status: model.StatusCompleted, Step: -1, Version: gapVersions}}
	}
	g.after = after
	if text := a.gapText(v, seq, n, top); text != g.item.Text {
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
func (a *App) gapText(v *shedView, seq uint64, n int, top bool) string {
	s := "⋮ " + count(n, "item", "items") + " not kept"
	if top {
		s = "▲ " + count(n, "earlier item", "earlier items") + " not kept"
	}
	th := a.curThread()
	switch {
	case th == nil:
		return s
	case a.itemReader() == nil:
		return s + " (" + th.Source + " is not a file; --record FILE keeps a stream)"
	case v.reading && v.readingGap == seq:
		return s + " · reading back…"
	case v.failed != nil && v.failedGap == seq:
		return s + " · reading them back failed: " + v.failed.Error()
	case top:
		return s + " · scroll up or Enter to read them back"
	}
	return s + " · scroll or Enter to read them back"
}

// gapAt is the gap row whose item has Seq seq (nil for none).
func (a *App) gapAt(seq uint64) *gapRow {
	if v := a.shedViewOf(false); v != nil {
		return v.gaps[seq]
	}
	return nil
}

// retryGap reads the gap row seq back again after it failed (Enter or a
// click on it).
func (a *App) retryGap(seq uint64) {
	if v := a.shedViewOf(false); v != nil && v.failedGap == seq {
		v.failedGap, v.failed = 0, nil
		a.refresh()
	}
}

// readItemsCmd reads items back when the person went to some that were
// shed: the selected step's row, or a gap row in view. Nothing is read
// while a read is under way, and a gap that failed is not read again
// until Enter.
func (a *App) readItemsCmd() tea.Cmd {
	th := a.curThread()
	read := a.itemReader()
	if read == nil || a.fold.Shedded().Items == 0 {
		return nil
	}
	v := a.shedViewOf(true)
	if v.reading {
		return nil
	}
	want := ItemsWanted{Source: th.Source, Thread: th.ID, Step: -1, Max: readWindow}
	s := a.step()
	switch seq, below, ok := a.transcript.GapInView(); {
	case s != nil && !a.following && a.selected != v.triedStep && !a.transcript.HasStep(a.selected):
		v.triedStep = a.selected
		want.Step, want.ToolCallID = a.selected, s.ToolCallID
	case ok && a.geo.transcript.h > 0 && seq != v.failedGap && v.gaps[seq] != nil:
		// (The transcript was drawn in this frame: its rows are not those
		// of a frame before the thread list or the zoomed panel.)
		g := v.gaps[seq]
		end := a.fold.ItemsMade() + 1 // a gap at the end
		if g.after != nil {
			end = g.after.Seq
		}
		want.From, want.To = seq, end
		if below {
			// Come to from below: the items just above those in view.
			want.From = max(seq, end-min(end, uint64(readWindow)))
		} else {
			want.To = min(end, seq+uint64(readWindow))
		}
		if want.To == end && g.after != nil {
			want.AfterKind, want.AfterID = g.after.Kind, g.after.ID
		}
		v.readingGap = seq
	default:
		return nil
	}
	v.reading = true
	v.gen++
	if r, ok := a.mode.(*replayMode); ok {
		v.pos = r.player.Pos()
	}
	a.refresh() // the gap row says it is reading
	gen := v.gen
	return func() tea.Msg {
		got, err := read(want)
		return readItemsMsg{th: th, gen: gen, want: want, read: got, err: err}
	}
}

// onReadItems shows the items read back in the window of their thread,
// keeping the rows in view where they were.
func (a *App) onReadItems(m readItemsMsg) {
	v := a.shedViews[a.viewKeyOf(m.th)]
	if v == nil || v.gen != m.gen || !v.reading {
		return // dropped meanwhile
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
		v.window = mergeWindow(v.window, m.read.Items)
		v.keepRows(m.read.Steps)
	}
	if m.th != a.curThread() {
		return
	}
	mark := a.transcript.MarkView()
	a.refresh()
	if m.err == nil {
		a.transcript.ReturnTo(mark) // (a gap row that says why stays where it is)
	}
	if m.want.Step >= 0 && m.want.Step == a.selected {
		a.transcript.ShowStep(a.selected)
	}
}

// keepRows keeps the steps read back with the window's items, and lets go
// of those whose items the window no longer holds.
func (v *shedView) keepRows(steps []*model.Step) {
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

// mergeWindow adds items read back to a window. Items near the window
// (closer than windowMax items: between them there may be items kept, such
// as a run still open) join it, which then loses what lies farthest from
// them past windowMax items; items far from it replace it. (Had only items
// right next to it joined, two reads on either side of an item kept would
// each replace the other's, and the screen read them back for ever.)
func mergeWindow(window, items []*model.Item) []*model.Item {
	if len(items) == 0 {
		return window
	}
	lo, hi := items[0].Seq, items[len(items)-1].Seq
	if len(window) == 0 || hi+windowMax < window[0].Seq || lo > window[len(window)-1].Seq+windowMax {
		return slices.Clone(items[max(0, len(items)-windowMax):])
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
	if len(out) <= windowMax {
		return out
	}
	if lo < window[0].Seq {
		return slices.Clone(out[:windowMax]) // read upwards: the newest go
	}
	return slices.Clone(out[len(out)-windowMax:])
}
