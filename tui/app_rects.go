package tui

// This file decides where each part of the screen goes, before anything
// is drawn: layOut is a pure function of the window's size and the state
// that shapes the screen. relayout (app_layout.go) draws each part into
// its rectangle, and the mouse (app_keys.go, app_replay.go) hit-tests the
// same rectangles, so no place is fixed up after drawing.
//
// The screen is a stack of rows: the panes on top, then the search line,
// the agent's lines and the footer. When the window is too short for all
// of them, rows give way from the top, so the footer stays longest; inside
// the panel the timeline, the part that is clicked, stays longest.

import "github.com/agentwatch/agentwatch/tui/computer"

// rect is a screen area in cells.
type rect struct{ x, y, w, h int }

// contains reports whether the cell (x, y) is in r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// empty reports whether r holds no cell.
func (r rect) empty() bool { return r.w < 1 || r.h < 1 }

// bottom is the first row below r.
func (r rect) bottom() int { return r.y + r.h }

// right is the first column right of r.
func (r rect) right() int { return r.x + r.w }

// overlaps reports whether r and o share a cell.
func (r rect) overlaps(o rect) bool {
	return !r.empty() && !o.empty() && r.x < o.right() && o.x < r.right() && r.y < o.bottom() && o.y < r.bottom()
}

// within reports whether every cell of r is in o (an empty r is in any o).
func (r rect) within(o rect) bool {
	return r.empty() || (r.x >= o.x && r.y >= o.y && r.right() <= o.right() && r.bottom() <= o.bottom())
}

// centre is r's middle cell.
func (r rect) centre() (x, y int) { return r.x + r.w/2, r.y + r.h/2 }

// takeTop cuts up to n rows off the top of *area and returns them.
func takeTop(area *rect, n int) rect {
	n = max(0, min(n, area.h))
	top := rect{area.x, area.y, area.w, n}
	area.y, area.h = area.y+n, area.h-n
	return top
}

// takeBottom cuts up to n rows off the bottom of *area and returns them.
func takeBottom(area *rect, n int) rect {
	n = max(0, min(n, area.h))
	area.h -= n
	return rect{area.x, area.y + area.h, area.w, n}
}

// layoutInput is what the screen's rectangles depend on: the window's size
// and the state that changes which parts are shown and how big they are.
type layoutInput struct {
	w, h int
	// listing: the thread list has the screen above the search line and
	// the footer.
	listing bool
	// zoom gives the panel the panes' rows; hidePanel gives them to the
	// transcript; else sideBySide chooses between the two arrangements of
	// both.
	zoom, hidePanel, sideBySide bool
	// searchRows and agentRows are the rows of the search line and of the
	// agent's lines (status, stderr, prompt) under the panes.
	searchRows, agentRows int
	// step: the panel shows a step (header, view, status, timeline), else
	// what it waits for.
	step bool
	// replay: the panel has the replay bar.
	replay bool
	// markCells is how wide the state word at the head of the panel's
	// header is: a click on it goes back to live.
	markCells int
	// runTree: the panel's view is the thread's run tree.
	runTree bool
}

// screenLayout is where each part of the screen is. Rectangles of parts
// not shown are empty; the parts drawn tile the screen without overlap.
// A pane that is laid out (its w > 0) sizes its component even when it
// gets no rows.
type screenLayout struct {
	screen rect

	// The thread list: its title line and its rows.
	listTitle, list rect

	// The transcript: the whole pane, its title line and its body.
	transcriptPane, transcriptTitle, transcript rect
	// separator is the column between the panes side by side.
	separator rect

	// The computer panel: the whole pane, its title line and its body
	// (panel), which holds the header (whose first cells are liveMark),
	// the step's view (which is runTree when the run tree is shown), the
	// status line, the replay bar and the timeline; with no step, the body
	// is blank but for the wait line and the replay bar.
	panelPane, panelTitle, panel         rect
	header, liveMark, panelView, runTree rect
	status, replayBar, timeline          rect
	wait                                 rect

	// Under the panes: the search line, the agent's lines and the footer.
	search, agent, footer rect
}

// layOut computes the screen's rectangles for in.
func layOut(in layoutInput) screenLayout {
	var l screenLayout
	if in.w < 1 || in.h < 1 {
		return l
	}
	l.screen = rect{0, 0, in.w, in.h}
	panes := l.screen
	l.footer = takeBottom(&panes, 1)
	l.agent = takeBottom(&panes, in.agentRows)
	l.search = takeBottom(&panes, in.searchRows)
	switch {
	case in.listing:
		l.listTitle = takeTop(&panes, 1)
		l.list = panes
	case in.zoom:
		l.layOutPanel(panes, in)
	case in.hidePanel:
		l.layOutTranscript(panes)
	case in.sideBySide:
		tw := panes.w * appSideShare / 100
		l.layOutTranscript(rect{panes.x, panes.y, tw, panes.h})
		l.separator = rect{panes.x + tw, panes.y, 1, panes.h}
		l.layOutPanel(rect{panes.x + tw + 1, panes.y, panes.w - tw - 1, panes.h}, in)
	default:
		ph := panes.h * appSheetShare / 100
		th := panes.h - ph
		l.layOutTranscript(rect{panes.x, panes.y, panes.w, th})
		l.layOutPanel(rect{panes.x, panes.y + th, panes.w, ph}, in)
	}
	return l
}

// layOutTranscript lays the transcript pane out in p: a title line over
// the transcript.
func (l *screenLayout) layOutTranscript(p rect) {
	l.transcriptPane = p
	l.transcriptTitle = takeTop(&p, 1)
	l.transcript = p
}

// layOutPanel lays the computer panel out in p. Too short for all its
// lines, it gives them up from the top: the header first, then the
// status line and the replay bar, the timeline last.
func (l *screenLayout) layOutPanel(p rect, in layoutInput) {
	l.panelPane = p
	if p.h < 1 {
		return
	}
	l.panelTitle = takeTop(&p, 1)
	l.panel = p
	if p.h < 1 {
		return
	}
	if !in.step {
		if in.replay {
			l.replayBar = takeBottom(&p, 1)
		}
		// The wait line is in the middle of the whole body, unless the
		// replay bar is there.
		if y := l.panel.y + l.panel.h/2; y < p.bottom() {
			l.wait = rect{p.x, y, p.w, 1}
		}
		return
	}
	l.timeline = takeBottom(&p, computer.TimelineLines)
	if in.replay {
		l.replayBar = takeBottom(&p, 1)
	}
	l.status = takeBottom(&p, 1)
	l.header = takeTop(&p, 1)
	l.panelView = p
	if in.runTree {
		l.runTree = p
	}
	if !l.header.empty() && in.markCells+2 < l.header.w {
		l.liveMark = rect{l.header.x, l.header.y, in.markCells, 1}
	}
}

// timelineLine is the line of the timeline view drawn at row y: a timeline
// cut short shows its last lines.
func (l screenLayout) timelineLine(y int) int {
	return y - (l.timeline.bottom() - computer.TimelineLines)
}
