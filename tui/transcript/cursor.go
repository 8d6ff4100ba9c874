package transcript

// This file holds the transcript's cursor and mark: the cursor is the row
// a person moves with the keys while the transcript has focus, and the
// mark is drawn on the row of the selected step. Selecting a step puts the
// cursor on its row and scrolls it into view; moving the cursor onto a
// step's row (or its card) is how the screen learns to select that step.

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// pos is a row of the virtual list: line line of entry entry.
type pos struct{ entry, line int }

// before reports whether p comes before q.
func (p pos) before(q pos) bool {
	return p.entry < q.entry || p.entry == q.entry && p.line < q.line
}

// cursorAnchor keeps the cursor on an item, as the scroll anchor does, so
// it stays on the same row while items are appended or stream.
type cursorAnchor struct {
	set  bool
	seq  uint64
	part int
	line int
}

// SetMark marks the row of step (an index into the steps given to
// SetItems) as the selected one; -1 marks nothing. It does not scroll:
// ShowStep does.
func (t *Transcript) SetMark(step int) { t.mark = step }

// SetCursorShown draws the cursor (while the transcript has focus) or not.
func (t *Transcript) SetCursorShown(shown bool) { t.cursorShown = shown }

// ShowStep marks step, puts the cursor on its row and scrolls the least
// that shows that row. It reports false when the step has no row (its
// item was shed, or a filter hides it); the mark is set all the same.
func (t *Transcript) ShowStep(step int) bool {
	t.mark = step
	i, ok := t.replies.stepItem[step]
	if !ok || i >= len(t.items) {
		return false
	}
	return t.ShowItem(t.items[i].Seq)
}

// ShowItem puts the cursor on the first row of item seq and scrolls the
// least that shows it; false when the item has no row.
func (t *Transcript) ShowItem(seq uint64) bool {
	e := t.indexOf(seq)
	if e < 0 || t.entry(e).item != t.itemIndex(seq) {
		return false
	}
	t.setCursor(pos{e, 0})
	t.reveal(pos{e, 0})
	return true
}

// MoveCursor moves the cursor rows rows down (up when negative), stopping
// at the first and last rows, and scrolls the least that keeps it in view.
// A cursor out of view (the wheel scrolled away) first comes back to the
// edge of the view the move goes towards.
func (t *Transcript) MoveCursor(rows int) {
	if t.count() == 0 || t.width <= 0 || t.height <= 0 {
		return
	}
	cur, ok := t.cursorPos()
	if !ok {
		return
	}
	top := t.viewTop()
	if d := t.rowsFrom(top, cur, t.height); d < 0 || d >= t.height {
		if rows > 0 {
			cur = top
		} else {
			cur = t.walk(top, t.height-1)
		}
	} else {
		cur = t.walk(cur, rows)
	}
	t.setCursor(cur)
	t.reveal(cur)
}

// CursorToTop puts the cursor on the first row and shows it.
func (t *Transcript) CursorToTop() {
	if t.count() == 0 {
		return
	}
	t.setCursor(pos{0, 0})
	t.reveal(pos{0, 0})
}

// CursorToBottom puts the cursor on the last row and follows the bottom.
func (t *Transcript) CursorToBottom() {
	if t.count() == 0 {
		return
	}
	last := t.count() - 1
	p := pos{last, max(0, len(t.lines(last))-1)}
	t.setCursor(p)
	t.follow = true
}

// FollowBottom pins the view to the bottom again and lets the cursor go
// back to the marked row.
func (t *Transcript) FollowBottom() {
	t.follow = true
	t.cursor = cursorAnchor{}
}

// CursorStep is the step under the cursor: the step of a tool-call row, or
// the current step of a computer card; ok is false on any other row.
func (t *Transcript) CursorStep() (step int, ok bool) {
	cur, ok := t.cursorPos()
	if !ok {
		return 0, false
	}
	return t.stepAt(cur)
}

// CursorItem is the item under the cursor.
func (t *Transcript) CursorItem() (seq uint64, ok bool) {
	cur, ok := t.cursorPos()
	if !ok {
		return 0, false
	}
	return t.items[t.entry(cur.entry).item].Seq, true
}

// stepAt is the step shown at p: a tool call's, or a card's current one.
func (t *Transcript) stepAt(p pos) (int, bool) {
	if p.entry < 0 || p.entry >= t.count() {
		return 0, false
	}
	e := t.entry(p.entry)
	lines := t.lines(p.entry)
	if r := t.cache[t.keyOf(p.entry)]; r != nil && r.cardRows > 0 && p.line >= len(lines)-r.cardRows {
		return r.cardStep, true
	}
	if i := t.stepIndex(t.items[e.item]); i >= 0 && p.line == 0 {
		return i, true
	}
	return 0, false
}

// cursorPos resolves the cursor to a row. A cursor never placed is on the
// marked step's row when that is in view, else on the last row in view.
func (t *Transcript) cursorPos() (pos, bool) {
	if t.count() == 0 {
		return pos{}, false
	}
	if t.cursor.set {
		if e, line, ok := t.resolve(t.cursor.seq, t.cursor.part, t.cursor.line); ok {
			return pos{e, line}, true
		}
	}
	top := t.viewTop()
	if i, ok := t.replies.stepItem[t.mark]; ok && i < len(t.items) {
		if e := t.indexOf(t.items[i].Seq); e >= 0 {
			if d := t.rowsFrom(top, pos{e, 0}, t.height); d >= 0 && d < t.height {
				return pos{e, 0}, true
			}
		}
	}
	return t.walk(top, max(0, t.height-1)), true
}

// setCursor anchors the cursor to row p.
func (t *Transcript) setCursor(p pos) {
	e := t.entry(p.entry)
	t.cursor = cursorAnchor{set: true, seq: t.items[e.item].Seq, part: e.part, line: p.line}
}

// resolve finds line line of part part of item seq (the item's last part
// when it has fewer now, its last line when it has fewer lines).
func (t *Transcript) resolve(seq uint64, part, line int) (entry, l int, ok bool) {
	idx := t.indexOf(seq)
	if idx < 0 || t.entry(idx).item != t.itemIndex(seq) {
		return 0, 0, false
	}
	for p := part; p > 0 && idx+1 < t.count(); p-- {
		if next := t.entry(idx + 1); next.item != t.entry(idx).item {
			break
		}
		idx++
	}
	return idx, max(0, min(line, len(t.lines(idx))-1)), true
}

// viewTop is the first row in view, as View will draw it.
func (t *Transcript) viewTop() pos {
	if t.follow {
		idx, off := t.bottomTop()
		return pos{idx, off}
	}
	idx, off := t.top()
	if t.fitsBelow(idx, off) {
		idx, off = t.bottomTop()
	}
	return pos{idx, off}
}

// walk moves p by n rows (up when negative), measuring the entries it
// passes, and stops at the first and the last row.
func (t *Transcript) walk(p pos, n int) pos {
	for n > 0 {
		h := len(t.lines(p.entry))
		if rest := h - 1 - p.line; n <= rest {
			p.line += n
			return p
		} else if p.entry+1 >= t.count() {
			p.line = h - 1
			return p
		} else {
			n -= rest + 1
			p = pos{p.entry + 1, 0}
		}
	}
	for n < 0 {
		if -n <= p.line {
			p.line += n
			return p
		}
		if p.entry == 0 {
			p.line = 0
			return p
		}
		n += p.line + 1
		p = pos{p.entry - 1, len(t.lines(p.entry-1)) - 1}
	}
	return p
}

// rowsFrom is how many rows q lies below p, counting no further than
// limit (it returns limit+1 past it), and -1 when q comes before p.
func (t *Transcript) rowsFrom(p, q pos, limit int) int {
	if q.before(p) {
		return -1
	}
	if p.entry == q.entry {
		return q.line - p.line
	}
	n := len(t.lines(p.entry)) - p.line
	for e := p.entry + 1; e < q.entry; e++ {
		if n > limit {
			return limit + 1
		}
		n += len(t.lines(e))
	}
	return n + q.line
}

// reveal scrolls the least that brings row p into view.
func (t *Transcript) reveal(p pos) {
	if t.width <= 0 || t.height <= 0 {
		return
	}
	top := t.viewTop()
	d := t.rowsFrom(top, p, t.height)
	switch {
	case d < 0:
		t.scrollTopTo(p)
	case d >= t.height:
		t.scrollTopTo(t.walk(p, -(t.height - 1)))
	}
}

// scrollTopTo makes row p the first row in view, following the bottom
// when everything from there down fits.
func (t *Transcript) scrollTopTo(p pos) {
	t.follow = false
	t.anchor(p.entry, p.line)
	if t.fitsBelow(p.entry, p.line) {
		t.follow = true
	}
}

// decorate draws the mark and the cursor over the rows of the view.
func (t *Transcript) decorate(out []string) {
	if t.width <= 0 {
		return
	}
	if !t.match.Empty() {
		for r := range out {
			out[r] = t.highlight(out[r])
		}
	}
	for r := range out {
		e := t.rows[r]
		if e < 0 || t.rowLine[r] != 0 || t.mark < 0 {
			continue
		}
		if it := t.items[t.entry(e).item]; it.Kind == model.ItemToolCall && t.stepIndex(it) == t.mark {
			out[r] = t.markRow(out[r])
		}
	}
	if !t.cursorShown {
		return
	}
	cur, ok := t.cursorPos()
	if !ok {
		return
	}
	for r := range out {
		if t.rows[r] == cur.entry && t.rowLine[r] == cur.line {
			out[r] = render.Highlight(out[r], styles.CursorBackground(t.glamour.light))
			return
		}
	}
}

// markRow draws the selected step's mark in the gutter of its row, or
// the whole row in reverse video when there is no gutter.
func (t *Transcript) markRow(line string) string {
	g, _ := t.gutter()
	if g < 2 {
		return render.Highlight(line, styles.ParamReverse)
	}
	var b strings.Builder
	b.WriteString(ansi.Cut(line, 0, g-2))
	b.WriteString(styles.Reset + styles.Mark + "▶" + styles.Reset)
	b.WriteString(ansi.Cut(line, g-1, t.width))
	return b.String()
}
