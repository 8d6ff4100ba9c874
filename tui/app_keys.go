package tui

// This file holds what keys and the mouse do on the App.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/search"
)

// wheelRows is how far one wheel notch scrolls the transcript.
const wheelRows = 3

// key handles one key press.
func (a *App) key(k tea.KeyPressMsg) tea.Cmd {
	if a.help {
		switch k.String() {
		case "q", "ctrl+c":
			return tea.Quit
		case "esc", "?":
			a.help = false
		}
		return nil
	}
	a.note = ""
	if a.search.asking != inputNone {
		return a.inputKey(k)
	}
	if a.mode == modeSession {
		if cmd, ok := a.agentKey(k); ok {
			return cmd
		}
	}
	if k.String() == "esc" && (a.searching() || a.filtering()) && a.screen() == screenThread {
		a.clearSearch()
		a.setFilter(search.Filter{})
		return nil
	}
	if a.mode == modeThreads {
		if cmd, ok := a.threadKey(k); ok {
			return cmd
		}
	}
	if a.mode == modeReplay {
		if cmd, ok := a.replayKey(k); ok {
			return cmd
		}
	}
	if a.showRuns && a.focus == focusPanel {
		if a.runTreeKey(k) {
			return nil
		}
	}
	switch k.String() {
	case "q", "ctrl+c":
		return tea.Quit
	case "?":
		a.help = true
	case "p":
		a.showPlan = !a.showPlan && a.plan() != nil
		if a.showPlan {
			a.hidePanel, a.showRuns = false, false
		}
	case "t":
		a.toggleRunTree()
	case "c":
		a.hidePanel = !a.hidePanel
		if a.hidePanel {
			a.zoom = false
			a.focus = focusTranscript
		}
	case "[":
		a.runStep(-1)
	case "]":
		a.runStep(1)
	case "enter":
		a.openAtTranscript()
	case "left", "h":
		a.stopPlay()
		a.selectStep(a.shownBy(a.selected, -1))
	case "right", "l":
		a.stopPlay()
		a.selectStep(a.shownBy(a.selected, 1))
	case "home":
		a.stopPlay()
		a.selectStep(a.firstShown())
	case "end", "L":
		a.backToLive()
	case "space", " ":
		return a.togglePlay()
	case "up", "k":
		a.moveInPane(-1)
	case "down", "j":
		a.moveInPane(1)
	case "pgup":
		a.moveInPane(-max(1, a.paneRows()-1))
	case "pgdown":
		a.moveInPane(max(1, a.paneRows()-1))
	case "ctrl+u":
		a.moveInPane(-max(1, a.paneRows()/2))
	case "ctrl+d":
		a.moveInPane(max(1, a.paneRows()/2))
	case "g":
		a.moveToEnd(false)
	case "G":
		a.moveToEnd(true)
	case "tab":
		return a.cycleFocus(1)
	case "shift+tab":
		return a.cycleFocus(-1)
	case "z":
		a.toggleZoom()
	case "/":
		return a.openInput(inputSearch)
	case "f":
		if a.mode != modeReplay {
			return a.openInput(inputFilter)
		}
	case "n":
		return a.nextHit(1)
	case "N":
		return a.nextHit(-1)
	case "e":
		a.failedBy(1)
	case "E":
		a.failedBy(-1)
	case "v":
		a.hidePanel = false
		// Switch to the layout not shown now, whatever auto would choose.
		if a.sideBySide() {
			a.layout = LayoutSheet
		} else {
			a.layout = LayoutSide
		}
	}
	return nil
}

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
	if a.screen() == screenList {
		a.listClick(m)
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
	if a.mode == modeReplay {
		if cmd, ok := a.replayClick(m.X, m.Y); ok {
			return cmd
		}
	}
	if g.timeline.contains(m.X, m.Y) {
		h := g.timelineView.HitAt(m.Y-g.timeline.y, m.X-g.timeline.x)
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
		if step, ok := a.transcript.CardAt(m.Y - g.transcript.y); ok && step < len(a.fold.Steps()) {
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
		case it == nil:
		case it.Kind == model.ItemReasoning:
			a.transcript.ToggleExpanded(seq)
		case it.Step >= 0 && it.Step < len(a.fold.Steps()):
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

// itemBySeq finds an item by its Seq; items are in Seq order.
func (a *App) itemBySeq(seq uint64) *model.Item {
	items := a.fold.Items()
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
