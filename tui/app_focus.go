package tui

// This file holds focus: which pane the movement keys go to. Tab cycles
// the panes in view (the transcript, the agent computer, and the prompt
// line of a live agent); the focused pane's title is drawn bright, the
// transcript shows its cursor only while it has focus, and z gives the
// computer the whole screen.

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// appFocus is the pane the movement keys go to.
type appFocus int

const (
	focusTranscript appFocus = iota
	focusPanel
	focusPrompt
)

var appFocusNames = [...]string{"transcript", "computer", "prompt"}

// String names the pane, for tests and logs.
func (f appFocus) String() string {
	if f < 0 || int(f) >= len(appFocusNames) {
		return "unknown"
	}
	return appFocusNames[f]
}

// panes are the panes Tab cycles through, in screen order.
func (a *App) panes() []appFocus {
	var ps []appFocus
	switch {
	case a.zoom:
		ps = []appFocus{focusPanel}
	case a.hidePanel:
		ps = []appFocus{focusTranscript}
	default:
		ps = []appFocus{focusTranscript, focusPanel}
	}
	if a.modeIs(modeSession) {
		ps = append(ps, focusPrompt)
	}
	return ps
}

// cycleFocus moves the focus to the next pane (dir 1) or the one before
// (dir -1).
func (a *App) cycleFocus(dir int) tea.Cmd {
	ps := a.panes()
	i := slices.Index(ps, a.focus)
	if i < 0 {
		i = 0
		if dir < 0 {
			i = 1
		}
	}
	return a.setFocus(ps[((i+dir)%len(ps)+len(ps))%len(ps)])
}

// setFocus gives the focus to pane f; the prompt line's cursor blinks
// only while it has it.
func (a *App) setFocus(f appFocus) tea.Cmd {
	a.focus = f
	g, ok := a.mode.(*sessionMode)
	if !ok {
		return nil
	}
	if f == focusPrompt {
		return g.input.Focus()
	}
	g.input.Blur()
	return nil
}

// paneRows is how many rows the focused pane shows: the step of PgUp and
// PgDn.
func (a *App) paneRows() int {
	if a.focus == focusPanel {
		return max(1, a.geo.panelView.h)
	}
	return max(1, a.geo.transcript.h)
}

// moveInPane moves the focused pane rows rows: the transcript's cursor
// (which selects the step under it), or the computer's view.
func (a *App) moveInPane(rows int) {
	if a.focus == focusPanel {
		a.panelScroll = max(0, a.panelScroll+rows)
		return
	}
	a.moveCursor(rows)
}

// moveToEnd moves the focused pane to its last line (or its first).
func (a *App) moveToEnd(last bool) {
	if a.focus == focusPanel {
		a.panelScroll = 0
		if last {
			a.panelScroll = panelDocMax
		}
		return
	}
	if last {
		a.transcript.CursorToBottom()
	} else {
		a.transcript.CursorToTop()
	}
	a.selectAtCursor()
}

// toggleZoom gives the computer the whole screen, with the focus, or
// gives the transcript its share back.
func (a *App) toggleZoom() {
	a.zoom = !a.zoom
	if a.zoom {
		a.hidePanel = false
		a.focus = focusPanel
	}
}
