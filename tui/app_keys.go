package tui

// This file holds what the mouse does on the App, and the actions of
// the keys that are more than a line.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/window"
)

// wheelRows is how far one wheel notch scrolls the transcript.
const wheelRows = 3

// wheel scrolls the pane under the mouse a notch: the computer's view,
// or the transcript.
func (a *App) wheel(m tea.Mouse) {
	rows := 0
	switch m.Button {
	case tea.MouseWheelUp:
		rows = -wheelRows
	case tea.MouseWheelDown:
		rows = wheelRows
	}
	if a.geo.panel.contains(m.X, m.Y) {
		a.panelScroll = max(0, a.panelScroll+rows)
		return
	}
	a.transcript.ScrollBy(rows)
}

// click acts on a left click: timeline chips, ticks and buttons, the back
// to live mark in the panel header, transcript tool call rows.
func (a *App) click(m tea.Mouse) tea.Cmd {
	if m.Button != tea.MouseLeft {
		return nil
	}
	if a.help {
		a.help = false
		return nil
	}
	if tv, ok := a.mode.(*threadsView); ok && tv.listing {
		a.listClick(tv, m)
		return nil
	}
	g := a.geo
	if a.showRuns && g.runTree.contains(m.X, m.Y) {
		a.focus = focusPanel
		a.runTreeClick(m.Y - g.runTree.y)
		return nil
	}
	if g.panel.contains(m.X, m.Y) {
		a.focus = focusPanel
	} else if g.transcript.contains(m.X, m.Y) || g.transcriptTitle.contains(m.X, m.Y) {
		a.focus = focusTranscript
	}
	if g.liveMark.contains(m.X, m.Y) {
		a.backToLive()
		return nil
	}
	if r, ok := a.mode.(*replayMode); ok {
		if cmd, ok := a.replayClick(r, m.X, m.Y); ok {
			return cmd
		}
	}
	if g.timeline.contains(m.X, m.Y) {
		h := g.timelineView.HitAt(g.timelineLine(m.Y), m.X-g.timeline.x)
		switch h.Kind {
		case computer.HitChip:
			a.stopPlay()
			a.selectStep(a.stepAtPos(h.Step))
		case computer.HitTick:
			a.stopPlay()
			a.selectStep(a.stepAtPos(h.Step))
			a.dragging = true
		case computer.HitPrev:
			a.stopPlay()
			a.selectStep(a.shownBy(a.selected, -1))
		case computer.HitNext:
			a.stopPlay()
			a.selectStep(a.shownBy(a.selected, 1))
		case computer.HitPlay:
			return a.togglePlay()
		case computer.HitLive:
			a.backToLive()
		}
		return nil
	}
	if g.transcript.contains(m.X, m.Y) {
		if step, ok := a.transcript.CardAt(m.Y - g.transcript.y); ok && step < len(a.allSteps()) {
			// A click on a computer card opens the computer at its step.
			a.hidePanel = false
			a.stopPlay()
			a.selectStep(step)
			return nil
		}
		seq, ok := a.transcript.ItemAt(m.Y - g.transcript.y)
		if !ok {
			return nil
		}
		it := a.itemBySeq(seq)
		switch {
		case a.gapAt(seq):
			a.retryGap(seq)
		case it == nil:
		case it.Kind == model.ItemReasoning:
			a.transcript.ToggleExpanded(seq)
		case it.Step >= 0 && it.Step < len(a.allSteps()):
			a.stopPlay()
			a.selectStep(it.Step)
		}
	}
	return nil
}

// drag moves the selection along the slider while the button is held.
func (a *App) drag(m tea.Mouse) {
	if !a.dragging || m.Button != tea.MouseLeft {
		return
	}
	if i := a.geo.timelineView.SliderStep(m.X - a.geo.timeline.x); i >= 0 {
		a.selectStep(a.stepAtPos(i))
	}
}

// itemBySeq finds an item by its Seq among those kept and those read
// back; items are in Seq order.
func (a *App) itemBySeq(seq uint64) *model.Item {
	if it := window.FindItem(a.fold.Items(), seq); it != nil {
		return it
	}
	return a.win.Item(a.at(), seq)
}

// stepBy selects the shown step dir steps after (before, when negative)
// the selected one.
func (a *App) stepBy(dir int) {
	a.stopPlay()
	a.selectStep(a.shownBy(a.selected, dir))
}

// toggleComputer hides or shows the computer; hidden, the transcript has
// the screen and the focus.
func (a *App) toggleComputer() {
	a.reveal = true
	a.hidePanel = !a.hidePanel
	if a.hidePanel {
		a.zoom = false
		a.focus = focusTranscript
	}
}

// toggleLayout switches to the layout not shown now, whatever auto would
// choose.
func (a *App) toggleLayout() {
	a.reveal = true
	a.hidePanel = false
	if a.sideBySide() {
		a.layout = LayoutSheet
	} else {
		a.layout = LayoutSide
	}
}

// togglePlan shows the agent's plan in the computer, or the step again.
func (a *App) togglePlan() {
	if a.plan() == nil {
		a.showPlan = false
		a.note = "the agent has made no plan in this thread"
		return
	}
	a.showPlan = !a.showPlan
	if a.showPlan {
		a.hidePanel, a.showRuns = false, false
		a.panelScroll = 0
	}
}

// clearOrBack clears the search and the filter when either is in force,
// else goes back to the thread list of a source of many threads.
func (a *App) clearOrBack() {
	if a.searching() || a.filtering() {
		a.clearSearch()
		a.setFilter(clearFilter)
		return
	}
	if tv, ok := a.mode.(*threadsView); ok && tv.total() > 1 {
		tv.chosen, tv.listing = true, true
		a.refreshList(tv)
		tv.selectRow(tv.cur)
	}
}
