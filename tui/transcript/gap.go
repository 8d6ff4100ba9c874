package transcript

// This file holds what the screen needs to read shed items back as a
// person scrolls to them: which gap row (model.ItemGap) is in view, and
// how to keep the view still while items read back are put above it.

import "github.com/agentwatch/agentwatch/model"

// GapInView returns the first gap row of the last View: its item's Seq,
// and whether rows of an item below it are in view too (the person came
// to it from below, scrolling up). ok is false when no gap row is shown.
func (t *Transcript) GapInView() (seq uint64, below bool, ok bool) {
	for r, e := range t.rows {
		if e < 0 || e >= t.count() {
			continue
		}
		it := t.items[t.entry(e).item]
		if it.Kind != model.ItemGap {
			continue
		}
		for _, f := range t.rows[r+1:] {
			if f >= 0 && f != e {
				below = true
				break
			}
		}
		return it.Seq, below, true
	}
	return 0, false, false
}

// ViewMark is a row of the view the screen wants to stay where it is:
// line Line of part Part of item Seq, shown at row Row from the top.
type ViewMark struct {
	Seq             uint64
	Part, Line, Row int
	ok              bool
}

// MarkView marks the first row of the last View that shows an item other
// than a gap, so that ReturnTo can keep it on the same row after items
// are put above it. Following the bottom needs no mark: it marks nothing.
func (t *Transcript) MarkView() ViewMark {
	if t.follow {
		return ViewMark{}
	}
	for r, e := range t.rows {
		if e < 0 || e >= t.count() {
			continue
		}
		en := t.entry(e)
		if it := t.items[en.item]; it.Kind != model.ItemGap {
			return ViewMark{Seq: it.Seq, Part: en.part, Line: t.rowLine[r], Row: r, ok: true}
		}
	}
	return ViewMark{}
}

// ReturnTo scrolls so that the row m marked is on the row it was on (or
// as near as the rows above it allow). A mark of nothing, or of an item
// no longer shown, leaves the view as it is.
func (t *Transcript) ReturnTo(m ViewMark) {
	if !m.ok || t.follow || t.width <= 0 || t.height <= 0 {
		return
	}
	e, line, ok := t.resolve(m.Seq, m.Part, m.Line)
	if !ok {
		return
	}
	t.scrollTopTo(t.walk(pos{e, line}, -m.Row))
}

// HasStep reports whether the tool-call row of step (an index into the
// steps given to SetItems) is among the items: false when it was shed.
func (t *Transcript) HasStep(step int) bool {
	i, ok := t.replies.stepItem[step]
	return ok && i < len(t.items)
}
