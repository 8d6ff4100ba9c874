package transcript

// This file holds the transcript's virtual list: which rows are visible,
// following the bottom, scrolling. How one item becomes rows is in
// render.go.

import (
	"sort"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/search"
)

// Transcript shows the items of a run as rows: user and assistant messages as
// markdown (glamour, dark style, word-wrapped to the width, rendered once per
// item, width and version and cached; finished items never re-rendered), reasoning
// collapsed to one dim line ("▸ thinking: first words…") unless expanded, tool calls
// as one render.StepRow each, errors and diagnostics as red rows, runs as a dim separator
// ("── run r2 (continues r1) ──", "(branch of r1)"), other kinds as one dim line. Only the visible
// rows are rendered: item heights are cached per width, unknown heights estimated.
//
// It is a plain component: the screen calls SetItems, SetSize, ScrollBy,
// the cursor's and mark's methods (cursor.go) and View; it runs no Update
// loop and is not safe for concurrent use.
type Transcript struct {
	items []*model.Item
	steps []*model.Step
	// runs are the thread's runs, to say how each run joins the tree.
	runs []*model.Run

	width, height int

	// follow pins the view to the bottom. When it is off, the first visible
	// row is line topOff of the item topSeq: anchoring to an item rather than
	// a row number keeps the view still while items are appended or stream.
	follow  bool
	topSeq  uint64
	topPart int
	topOff  int

	expanded map[uint64]bool
	cache    map[renderKey]*renderedItem

	// entries is the virtual list when an item has a long text drawn in
	// parts (nil when the items are the list), and parts where each such
	// text is cut (parts.go).
	entries []listEntry
	parts   map[uint64]*textParts

	// markdown turns message text into styled text wrapped to width cells;
	// tests replace it to count calls.
	markdown func(src string, width int) string
	glamour  markdownRenderer

	// renders counts items rendered (cache misses), and markdownBytes
	// the bytes of text given to markdown, for tests.
	renders       int
	markdownBytes int
	// rows is which entry each row of the last View shows (-1 for none),
	// and rowLine which line of that entry.
	rows    []int
	rowLine []int

	// The replies, indexed by SetItems (see replyIndex in render.go).
	replies replyIndex
	// forgotten is the last count of a run's forgotten steps a card made.
	forgotten forgottenCount
	// rowSteps are steps read back for rows of forgotten steps (SetRowSteps).
	rowSteps map[int]*model.Step

	// mark is the step whose row is marked as selected (-1 for none);
	// cursor is the row the keys move while cursorShown (cursor.go).
	mark        int
	cursor      cursorAnchor
	cursorShown bool

	// keep, when set, leaves out the tool-call rows of steps a filter
	// hides; match draws a search's matches (filter.go).
	keep  func(step int) bool
	match search.Matcher

	// pictures draws the cards' screenshots, as of its version
	// picturesAt (pictures.go).
	pictures   *images.Terminal
	picturesAt uint64

	// quiet says the source can bring nothing to the replies' open runs
	// (it ended, or is a replay): no card says ● LIVE (SetSourceLive).
	quiet bool
	// compactCards draws every computer card in three lines (SetSize).
	compactCards bool
}

// compactBelow is the height below which the transcript draws its
// computer cards in three lines instead of six: at 80×24 the sheet leaves
// the transcript nine rows, and a full card took six of them.
const compactBelow = 16

// New returns an empty transcript that follows the bottom.
func New() *Transcript {
	t := &Transcript{
		follow:   true,
		mark:     -1,
		expanded: map[uint64]bool{},
		cache:    map[renderKey]*renderedItem{},
	}
	t.markdown = t.glamour.render
	return t
}

// SetItems replaces the items and steps shown. Items are matched to cached
// renderings by Seq and Version, so only new or changed items (and tool
// calls whose step changed) are rendered again, and only when visible.
// The fold updates items in place, so SetItems may be passed the same
// slices again after a batch.
func (t *Transcript) SetItems(items []*model.Item, steps []*model.Step) {
	t.items, t.steps = items, steps
	// Drop renderings of items no longer shown (a replay seeked back), but
	// only when the cache has clearly outgrown the list: a scan per batch
	// would cost more than the memory.
	t.index()
	if len(t.cache) > 2*t.count()+64 {
		keep := make(map[renderKey]*renderedItem, t.count())
		for e := range t.count() {
			k := t.keyOf(e)
			if r, ok := t.cache[k]; ok {
				keep[k] = r
			}
		}
		t.cache = keep
	}
	t.replies.index(items)
}

// SetRowSteps gives, by index, steps read back for rows whose step the
// screen forgot (the steps given to SetItems hold a stand-in there, with
// no label): such a row draws the step read back. Nil for none.
func (t *Transcript) SetRowSteps(rows map[int]*model.Step) { t.rowSteps = rows }

// SetRuns gives the thread's runs (in the order they started), which the
// run lines name: "continues r1", "branch of r1".
func (t *Transcript) SetRuns(runs []*model.Run) { t.runs = runs }

// SetSourceLive says whether the source can still bring events to an open
// run: only then does the newest reply's card say ● LIVE. A replay, or a
// stream that ended, leaves open runs that nothing will finish.
func (t *Transcript) SetSourceLive(live bool) { t.quiet = !live }

// SetSize sets the size of the view in cells. Renderings of another width
// are redone lazily, as their items come into view.
func (t *Transcript) SetSize(width, height int) {
	t.width, t.height = max(width, 0), max(height, 0)
	t.compactCards = t.height < compactBelow
}

// SetLight chooses glamour's light style for markdown (a light terminal
// background) or its dark one (the default); rendered rows are redrawn.
func (t *Transcript) SetLight(light bool) {
	if t.glamour.light == light {
		return
	}
	t.glamour = markdownRenderer{light: light}
	t.markdown = t.glamour.render
	clear(t.cache)
}

// Len is how many items the transcript holds.
func (t *Transcript) Len() int { return len(t.items) }

// MarkdownBytes is how many bytes of message text the transcript has
// rendered as markdown so far: what a frame costs, for tests that hold a
// long text to the rows in view.
func (t *Transcript) MarkdownBytes() int { return t.markdownBytes }

// Light reports whether markdown is drawn in glamour's light style.
func (t *Transcript) Light() bool { return t.glamour.light }

// Following reports whether the view is pinned to the bottom, showing new
// rows as they arrive.
func (t *Transcript) Following() bool { return t.follow }

// ToggleExpanded shows a collapsed reasoning item in full, or collapses it
// again.
func (t *Transcript) ToggleExpanded(seq uint64) {
	if t.expanded[seq] {
		delete(t.expanded, seq)
	} else {
		t.expanded[seq] = true
	}
	t.index()
}

// ItemAt returns the item shown at row of the last View (0 is the top), for
// mouse clicks; ok is false for a row below the last item or out of range.
func (t *Transcript) ItemAt(row int) (seq uint64, ok bool) {
	if row < 0 || row >= len(t.rows) || t.rows[row] < 0 || t.rows[row] >= t.count() {
		return 0, false
	}
	return t.items[t.entry(t.rows[row]).item].Seq, true
}

// CardAt returns the current step of the computer card shown at row of the
// last View (0 is the top), as an index into the steps given to SetItems,
// for a click or Enter on the card; ok is false for a row outside a card.
func (t *Transcript) CardAt(row int) (step int, ok bool) {
	if row < 0 || row >= len(t.rows) || t.rows[row] < 0 || t.rows[row] >= t.count() {
		return 0, false
	}
	r, found := t.cache[t.keyOf(t.rows[row])]
	if !found || r.cardRows == 0 || r.width != t.width {
		return 0, false
	}
	if t.rowLine[row] < len(r.lines)-r.cardRows {
		return 0, false
	}
	return r.cardStep, true
}

// ScrollBy moves the view rows rows down (up when negative). Scrolling up
// stops following; scrolling down until the last row is visible resumes it.
//
// A long jump steps over items by their cached or estimated heights, so it
// renders nothing but what ends up visible; a jump of up to a few screens
// measures the items it passes, so the rows move exactly.
func (t *Transcript) ScrollBy(rows int) {
	if rows == 0 || t.count() == 0 || t.width <= 0 || t.height <= 0 {
		return
	}
	idx, off := t.top()
	if t.follow {
		if rows > 0 {
			return
		}
		idx, off = t.bottomTop()
	}
	exact := rows >= -3*t.height && rows <= 3*t.height
	height := func(i int) int {
		if exact {
			return len(t.lines(i))
		}
		return t.heightOf(i)
	}
	off += rows
	for off < 0 && idx > 0 {
		idx--
		off += height(idx)
	}
	if off < 0 {
		off = 0
	}
	for idx < t.count() && off >= height(idx) {
		off -= height(idx)
		idx++
	}
	if idx >= t.count() {
		t.follow = true
		return
	}
	t.follow = false
	t.anchor(idx, off)
	if t.fitsBelow(idx, off) {
		t.follow = true
	}
}

// ScrollTo shows the item seq at the top of the view (following the bottom
// again when everything from it down fits). An unknown seq does nothing.
func (t *Transcript) ScrollTo(seq uint64) {
	idx := t.indexOf(seq)
	if idx < 0 {
		return
	}
	t.follow = false
	t.anchor(idx, 0)
	if t.width > 0 && t.height > 0 && t.fitsBelow(idx, 0) {
		t.follow = true
	}
}

// View draws the visible rows: exactly height lines, each exactly width
// cells. Only the items on screen are rendered (or taken from the cache).
func (t *Transcript) View() []string {
	out := make([]string, 0, t.height)
	t.rows, t.rowLine = t.rows[:0], t.rowLine[:0]
	if t.height == 0 {
		return out
	}
	if t.width == 0 {
		for range t.height {
			out = append(out, "")
			t.rows, t.rowLine = append(t.rows, -1), append(t.rowLine, 0)
		}
		return out
	}
	idx, off := 0, 0
	if t.follow {
		idx, off = t.bottomTop()
	} else {
		idx, off = t.top()
		if t.fitsBelow(idx, off) {
			// The bottom is in view (items shrank, or the width grew): that
			// is where following resumes.
			t.follow = true
			idx, off = t.bottomTop()
		}
	}
	for i := idx; i < t.count() && len(out) < t.height; i++ {
		ls := t.lines(i)
		first := 0
		if i == idx {
			first = min(off, len(ls))
		}
		for j, l := range ls[first:] {
			if len(out) == t.height {
				break
			}
			out = append(out, l)
			t.rows, t.rowLine = append(t.rows, i), append(t.rowLine, first+j)
		}
	}
	blank := strings.Repeat(" ", t.width)
	for len(out) < t.height {
		out = append(out, blank)
		t.rows, t.rowLine = append(t.rows, -1), append(t.rowLine, 0)
	}
	t.decorate(out)
	return out
}

// top resolves the scroll anchor to an entry index and a line within it.
func (t *Transcript) top() (idx, off int) {
	idx = t.indexOf(t.topSeq)
	if idx < 0 {
		return 0, 0
	}
	// The part anchored, or the item's last when it has fewer parts now.
	for p := t.topPart; p > 0 && idx+1 < t.count(); p-- {
		if next := t.entry(idx + 1); next.item != t.entry(idx).item {
			break
		}
		idx++
	}
	return idx, max(0, min(t.topOff, len(t.lines(idx))-1))
}

// anchor makes line off of entry idx the top of the view.
func (t *Transcript) anchor(idx, off int) {
	e := t.entry(idx)
	t.topSeq, t.topPart, t.topOff = t.items[e.item].Seq, e.part, off
}

// bottomTop is the anchor that shows the last row at the bottom of the view
// (or the first row at the top when everything fits), found by rendering
// items upwards from the last until the view is full.
func (t *Transcript) bottomTop() (idx, off int) {
	need := t.height
	for i := t.count() - 1; i >= 0; i-- {
		h := len(t.lines(i))
		if h >= need {
			return i, h - need
		}
		need -= h
	}
	return 0, 0
}

// fitsBelow reports whether the rows from line off of item idx to the end
// fit in the view, that is, the bottom is visible from there.
func (t *Transcript) fitsBelow(idx, off int) bool {
	rest := -off
	for i := idx; i < t.count(); i++ {
		rest += len(t.lines(i))
		if rest > t.height {
			return false
		}
	}
	return true
}

// indexOf finds the first entry of the item with sequence number seq.
func (t *Transcript) indexOf(seq uint64) int {
	i := t.itemIndex(seq)
	if i < 0 || t.entries == nil {
		return i
	}
	// An item the list leaves out (a filtered tool call) finds the entry
	// after it, or the last one.
	e := sort.Search(len(t.entries), func(e int) bool { return t.entries[e].item >= i })
	return min(e, len(t.entries)-1)
}

// itemIndex finds the item with sequence number seq. Items come from the
// fold in Seq order, so a binary search finds it; a scan covers callers
// that pass another order.
func (t *Transcript) itemIndex(seq uint64) int {
	n := len(t.items)
	i := sort.Search(n, func(i int) bool { return t.items[i].Seq >= seq })
	if i < n && t.items[i].Seq == seq {
		return i
	}
	for i, it := range t.items {
		if it.Seq == seq {
			return i
		}
	}
	return -1
}
