package tui

// This file lays the screen out, once per Update: the areas of the panes,
// the sizes of the components, the scroll, the hit areas of the mouse, and
// the lines of each pane. View only joins them and draws the overlays.

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// relayout lays the screen out for the state Update left: exactly height
// lines of exactly width cells in a.frame, and where each thing is in
// a.geo.
func (a *App) relayout() {
	a.geo = appGeometry{}
	a.frame = a.frame[:0]
	w, h := a.width, a.height
	if w < 1 || h < 1 {
		return
	}
	searchLine := a.searchLine()
	searchRows := 0
	if searchLine != "" {
		searchRows = 1
	}
	rows := max(1, h-1-a.agentRows()-searchRows) // the footer, the agent's and search's lines
	lines := a.frame
	if tv, ok := a.mode.(*threadsView); ok && tv.listing {
		lines = append(lines, a.listScreen(tv, w, rows)...)
		if searchLine != "" {
			lines = append(lines, render.Pad(ansi.Truncate(searchLine, w, "…"), w))
		}
		lines = append(lines, a.footerLine(w))
		a.frame = lines
		return
	}
	if a.zoom {
		lines = append(lines, a.panelPane(rect{0, 0, w, rows})...)
	} else if a.hidePanel {
		lines = append(lines, a.transcriptPane(rect{0, 0, w, rows})...)
	} else if a.sideBySide() {
		tw := w * appSideShare / 100
		pw := w - tw - 1
		left := a.transcriptPane(rect{0, 0, tw, rows})
		right := a.panelPane(rect{tw + 1, 0, pw, rows})
		sep := styles.Faint + "│" + styles.Reset
		for i := range rows {
			lines = append(lines, left[i]+sep+right[i])
		}
	} else {
		ph := rows * appSheetShare / 100
		th := rows - ph
		lines = append(lines, a.transcriptPane(rect{0, 0, w, th})...)
		lines = append(lines, a.panelPane(rect{0, th, w, ph})...)
	}
	if searchLine != "" {
		lines = append(lines, render.Pad(ansi.Truncate(searchLine, w, "…"), w))
	}
	if g, ok := a.mode.(*sessionMode); ok {
		lines = append(lines, a.agentLines(g, w)...)
	}
	lines = append(lines, a.footerLine(w))
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	a.frame = lines
}

// transcriptPane draws the title line and the transcript into r.
func (a *App) transcriptPane(r rect) []string {
	out := make([]string, 0, r.h)
	if r.h < 1 {
		return out
	}
	title := "transcript"
	if a.opts.Title != "" {
		title += " · " + a.opts.Title
	}
	if t := a.threadTitle(); t != "" {
		title += " · " + t
	}
	word := ""
	if a.hidePanel {
		word, _ = a.state().mark() // else the panel's header says it
	}
	title += a.titleNotes(word)
	if d := a.droppedNote(); d != "" {
		title += " · " + d
	}
	out = append(out, titleLine(title, a.focus == focusTranscript, r.w))
	a.geo.transcriptTitle = rect{r.x, r.y, r.w, 1}
	body := rect{r.x, r.y + 1, r.w, r.h - 1}
	a.geo.transcript = body
	a.transcript.SetSize(body.w, body.h)
	if a.reveal && !a.following && a.selected >= 0 {
		a.transcript.ShowStep(a.selected)
	}
	a.reveal = false
	a.transcript.SetSourceLive(a.state() == wordLive)
	a.transcript.SetMark(a.selected)
	a.transcript.SetCursorShown(a.focus == focusTranscript)
	for _, l := range a.transcript.View() {
		out = append(out, render.Pad(l, r.w))
	}
	for len(out) < r.h {
		out = append(out, strings.Repeat(" ", r.w))
	}
	return out[:r.h]
}

// panelPane draws the computer panel into r: a title line, the header
// (live mark and step), the step's view, its status and the timeline.
func (a *App) panelPane(r rect) []string {
	out := make([]string, 0, r.h)
	if r.h < 1 {
		return out
	}
	out = append(out, titleLine("agent computer", a.focus == focusPanel, r.w))
	body := rect{r.x, r.y + 1, r.w, r.h - 1}
	a.geo.panel = body
	if body.h < 1 {
		return out
	}
	s := a.step()
	if a.filtering() && len(a.filter.kept) == 0 {
		s = nil
	}
	a.geo.replayBar = rect{}
	if s == nil {
		blank := strings.Repeat(" ", r.w)
		for i := range body.h {
			switch {
			case a.modeIs(modeReplay) && i == body.h-1:
				out = append(out, a.replayBarLine(r.x, body.y+i, r.w))
			case i == body.h/2:
				wait := appWaiting
				if _, _, reading := a.win.Reading(); reading {
					wait = "reading the log…"
				}
				if a.filtering() && len(a.allSteps()) > 0 {
					wait = "no step matches the filter " + Plain(a.filter.spec.String()) + " (f changes it, esc clears it)"
				}
				out = append(out, centreLine(styles.Faint+wait+styles.Reset, ansi.StringWidth(wait), r.w))
			default:
				out = append(out, blank)
			}
		}
		return out
	}

	fixed := 5 // header, status, three timeline lines
	if a.modeIs(modeReplay) {
		fixed++ // the replay bar
	}
	viewH := max(0, body.h-fixed)
	a.geo.panelView = rect{r.x, body.y + 1, r.w, viewH}
	lines := make([]string, 0, viewH+fixed)
	lines = append(lines, a.panelHeader(s, body))
	var view []string
	var at computer.ScrollPos
	a.geo.runTree = rect{}
	if plan := a.plan(); a.showPlan && plan != nil {
		view, at = a.scrolled(render.PlanLines(plan.Data, r.w, panelDocMax), viewH, false)
	} else if a.showRuns {
		view = a.runTreeView(r.w, viewH)
		a.geo.runTree = rect{r.x, body.y + 1, r.w, viewH}
	} else {
		roomH := viewH
		note := a.readBackNote()
		if note != "" {
			roomH--
		}
		view, at = a.panelWindow(a.shownStep(), r.w, roomH)
		if note != "" {
			view = append([]string{styles.Faint + ansi.Truncate(Plain(note), r.w, "…") + styles.Reset}, view...)
		}
	}
	for i := range viewH {
		if i < len(view) {
			lines = append(lines, render.Pad(view[i], r.w))
		} else {
			lines = append(lines, strings.Repeat(" ", r.w))
		}
	}
	pos, _ := a.shownPos(a.selected)
	status := computer.StatusInfo{Step: s, Index: pos, Total: len(a.shownSteps()), At: at}
	if a.filtering() {
		status.Filter = a.filter.spec.String()
	}
	lines = append(lines, render.Pad(computer.StatusLine(status, r.w), r.w))
	if a.modeIs(modeReplay) {
		lines = append(lines, a.replayBarLine(r.x, 0, r.w)) // y set below
	}
	playing := a.playing
	if rp, ok := a.mode.(*replayMode); ok {
		playing = rp.player.Playing() // the button says what a click will do to the player
	}
	tl := computer.Timeline(computer.TimelineState{Steps: a.shownSteps(), Current: pos, Playing: playing, Live: a.live(), Watching: a.watching()}, r.w)
	if a.done {
		tl.HideLiveButton()
	}
	for _, l := range tl.Lines {
		lines = append(lines, render.Pad(l, r.w))
	}
	// Too short for everything: keep the timeline, the part that is clicked.
	drop := max(0, len(lines)-body.h)
	if drop > 0 {
		lines = lines[drop:]
		if a.geo.liveMark.w > 0 {
			a.geo.liveMark = rect{}
		}
		if a.geo.runTree.h > 0 {
			a.geo.runTree.y -= drop
		}
	}
	a.geo.timeline = rect{r.x, body.y + len(lines) - 3, r.w, 3}
	if a.modeIs(modeReplay) {
		a.geo.replayBar.y = body.y + len(lines) - 4
	}
	a.geo.timelineView = tl
	return append(out, lines...)
}

// replayBarLine draws the replay bar at (x, y) and notes where it is.
func (a *App) replayBarLine(x, y, w int) string {
	r, ok := a.mode.(*replayMode)
	if !ok {
		return strings.Repeat(" ", w)
	}
	v := computer.ReplayBar(r.state(), w)
	a.geo.replayBar, a.geo.replayBarView = rect{x, y, w, 1}, v
	return v.Line
}

// panelHeader is the state word ("● LIVE  ", app_state.go) — or
// "⏭ Back to live  " while an older step is chosen and more can come —
// and the step's row.
func (a *App) panelHeader(s *model.Step, body rect) string {
	mark, sgr := a.state().mark()
	if !a.following && a.sourceOpen() {
		mark, sgr = appBackMark, styles.Attention
	}
	prefix, cells := sgr+mark+styles.Reset+"  ", 0
	cells = ansi.StringWidth(mark) + 2
	if cells >= body.w {
		return render.Pad(ansi.Truncate(prefix, body.w, ""), body.w)
	}
	a.geo.liveMark = rect{body.x, body.y, ansi.StringWidth(mark), 1}
	return render.Pad(prefix+render.StepRow(s, body.w-cells), body.w)
}

// panelWindow returns the h lines of the step's view that the panel's
// scroll shows, and where they are in the whole view. The view is rendered
// as far as the scroll needs: a long output costs what has been looked at.
func (a *App) panelWindow(s *model.Step, w, h int) ([]string, computer.ScrollPos) {
	toFailure := false
	if a.panelFor != a.selected {
		a.panelFor, a.panelScroll = a.selected, 0
		// A failed step opens where it says why: its first line that
		// reads like a failure, else its end (where a command's error
		// usually is), not its first lines.
		toFailure = s.Status == model.StatusFailed && !(a.search.toPanel && a.searching())
	}
	if h < 1 {
		return nil, computer.ScrollPos{}
	}
	need := min(panelDocMax, max(2*h+2, a.panelScroll+h+1))
	c := &a.panelCache
	fresh := c.lines != nil && c.step == a.selected && c.lastSeq == s.LastSeq && c.status == s.Status && c.shed == s.Shed && c.w == w && c.h == h
	if !fresh || (len(c.lines) >= c.limit && c.limit < need) {
		limit := need
		if fresh {
			limit = min(panelDocMax, max(need, 4*c.limit))
		}
		lines := computer.PanelDoc(s, w, h, limit, a.pictures())
		if lines == nil {
			lines = []string{}
		}
		*c = panelCache{step: a.selected, lastSeq: s.LastSeq, status: s.Status, shed: s.Shed, w: w, h: h, limit: limit, lines: lines}
	}
	cut := len(c.lines) >= c.limit && c.limit < panelDocMax
	if toFailure {
		a.scrollToFailure(s, w, h)
		cut = len(c.lines) >= c.limit && c.limit < panelDocMax
	}
	if a.search.toPanel && a.searching() {
		a.search.toPanel = false
		a.scrollToMatch(s, w, h)
		cut = len(c.lines) >= c.limit && c.limit < panelDocMax
	}
	view, at := a.scrolled(c.lines, h, cut)
	if a.searching() {
		marked := make([]string, len(view))
		for i, l := range view {
			marked[i] = render.MarkSpans(l, a.search.m.All(ansi.Strip(l)), styles.Match)
		}
		view = marked
	}
	return view, at
}

// scrollToMatch scrolls the step's view to its first line that holds the
// search's match (two lines below the top), rendering more of the view
// until it finds one or there is no more.
func (a *App) scrollToMatch(s *model.Step, w, h int) {
	c := &a.panelCache
	for from := 0; ; {
		for i := from; i < len(c.lines); i++ {
			if a.search.m.In(ansi.Strip(c.lines[i])) {
				a.panelScroll = max(0, i-2)
				return
			}
		}
		if len(c.lines) < c.limit || c.limit >= panelDocMax {
			return
		}
		from = len(c.lines) - 1
		limit := min(panelDocMax, 4*c.limit)
		*c = panelCache{step: c.step, lastSeq: s.LastSeq, status: s.Status, shed: s.Shed, w: w, h: h, limit: limit, lines: computer.PanelDoc(s, w, h, limit, a.pictures())}
	}
}

// failureWords are what a line of a failed step's view says when it tells
// why: test runners', compilers' and shells' words.
var failureWords = []string{"FAIL", "Error", "error:", "ERROR", "panic:", "Traceback", "fatal:", "Exception", "✗", "not found", "No such file"}

// scrollToFailure scrolls a failed step's view to its first line that
// reads like a failure (two lines below the top), rendering more of the
// view until it finds one or there is no more; with none, to the end.
func (a *App) scrollToFailure(s *model.Step, w, h int) {
	c := &a.panelCache
	for from := 1; ; { // line 0 is the command or the call itself
		for i := from; i < len(c.lines); i++ {
			line := ansi.Strip(c.lines[i])
			for _, word := range failureWords {
				if strings.Contains(line, word) {
					a.panelScroll = max(0, i-2)
					return
				}
			}
		}
		if len(c.lines) < c.limit || c.limit >= panelDocMax {
			a.panelScroll = panelDocMax // clamped to the end by scrolled
			return
		}
		from = len(c.lines) - 1
		limit := min(panelDocMax, 4*c.limit)
		*c = panelCache{step: c.step, lastSeq: s.LastSeq, status: s.Status, shed: s.Shed, w: w, h: h, limit: limit, lines: computer.PanelDoc(s, w, h, limit, a.pictures())}
	}
}

// scrolled clamps the panel's scroll to doc and returns the h lines it
// shows; cut says doc stops before the view does (its last line counts
// the rest), so the scroll stops a line short of it.
func (a *App) scrolled(doc []string, h int, cut bool) ([]string, computer.ScrollPos) {
	n := len(doc)
	if cut {
		n--
	}
	a.panelScroll = max(0, min(a.panelScroll, n-h))
	end := min(len(doc), a.panelScroll+h)
	return doc[a.panelScroll:end], computer.ScrollPos{From: a.panelScroll + 1, To: min(end, n), Of: n, More: cut}
}
