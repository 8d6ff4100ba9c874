package tui

// This file draws the screen, once per Update, into the rectangles layOut
// computed (app_rects.go): it sizes the components to their rectangles,
// sets the scroll, and draws each part into its own. View only joins the
// lines and draws the overlays.

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// relayout lays the screen out for the state Update left: it computes the
// screen's rectangles (layOut, app_rects.go), sizes the components to
// them and draws each part into its own, so that a.frame is exactly height
// lines of exactly width cells and a.geo says where each thing is on it.
func (a *App) relayout() {
	a.geo = appGeometry{}
	a.frame = a.frame[:0]
	w, h := a.width, a.height
	if w < 1 || h < 1 {
		return
	}
	searchLine := a.searchLine()
	tv, _ := a.mode.(*threadsView)
	listing := tv != nil && tv.listing
	in := layoutInput{w: w, h: h, listing: listing, zoom: a.zoom, hidePanel: a.hidePanel, sideBySide: a.sideBySide(), agentRows: a.agentRows()}
	if searchLine != "" {
		in.searchRows = 1
	}
	var s *model.Step
	if !listing {
		s = a.panelStep()
		mark, _ := a.headerMark()
		in.step, in.replay, in.markCells = s != nil, a.modeIs(modeReplay), ansi.StringWidth(mark)
		in.runTree = a.showRuns && !(a.showPlan && a.plan() != nil)
	}
	l := layOut(in)
	a.geo.screenLayout = l
	c := &a.canvas
	c.reset(h)
	if listing {
		a.drawList(c, tv, l)
	} else {
		if l.transcriptPane.w > 0 {
			a.drawTranscript(c, l)
		}
		c.fill(l.separator, styles.Faint+"│"+styles.Reset)
		if !l.panelPane.empty() {
			a.drawPanel(c, l, s)
		}
	}
	c.putLine(l.search, ansi.Truncate(searchLine, w, "…"))
	if g, ok := a.mode.(*sessionMode); ok {
		c.put(l.agent, lastLines(a.agentLines(g, w), l.agent.h))
	}
	c.putLine(l.footer, a.footerLine(w))
	a.frame = c.lines(a.frame)
}

// panelStep is the step the panel shows: the selected one, none while the
// filter hides every step.
func (a *App) panelStep() *model.Step {
	if a.filtering() && len(a.filter.kept) == 0 {
		return nil
	}
	return a.step()
}

// drawTranscript sizes the transcript to its rectangle and draws its pane:
// the title line and the transcript. A pane laid out without rows still
// sizes the transcript, to none.
func (a *App) drawTranscript(c *canvas, l screenLayout) {
	word := ""
	if a.hidePanel {
		word, _ = a.state().mark() // else the panel's header says it
	}
	notes := a.titleNotes(word)
	if d := a.droppedNote(); d != "" {
		notes += " · " + d
	}
	title := "transcript"
	t := a.threadTitle()
	if strings.HasPrefix(t, "“") {
		// One thread's title says more than its file's name (an agent's
		// session file is named by an id), and the notes more than both:
		// a narrow title bar cuts the end.
		title += notes + " · " + t
		if a.opts.Title != "" {
			title += " · " + a.opts.Title
		}
	} else {
		if a.opts.Title != "" {
			title += " · " + a.opts.Title
		}
		if t != "" {
			title += " · " + t
		}
		title += notes
	}
	c.putLine(l.transcriptTitle, titleLine(title, a.focus == focusTranscript, l.transcriptPane.w))
	body := l.transcript
	a.transcript.SetSize(body.w, body.h)
	if a.reveal && !a.following && a.selected >= 0 {
		a.transcript.ShowStep(a.selected)
	}
	a.reveal = false
	a.transcript.SetSourceLive(a.state() == wordLive)
	a.transcript.SetMark(a.selected)
	a.transcript.SetCursorShown(a.focus == focusTranscript)
	c.put(body, a.transcript.View())
}

// drawPanel draws the computer panel into its rectangles: the title line,
// and in the body the header (live mark and step), the step's view, its
// status, the replay bar and the timeline; or, with no step s, what the
// panel waits for.
func (a *App) drawPanel(c *canvas, l screenLayout, s *model.Step) {
	c.putLine(l.panelTitle, titleLine("agent computer", a.focus == focusPanel, l.panelPane.w))
	if l.panel.empty() {
		return
	}
	if s == nil {
		a.drawPanelWaiting(c, l)
		return
	}
	w := l.panel.w
	c.putLine(l.header, a.panelHeader(s, w))
	viewH := l.panelView.h
	var view []string
	var at computer.ScrollPos
	if plan := a.plan(); a.showPlan && plan != nil {
		view, at = a.scrolled(render.PlanLines(plan.Data, w, panelDocMax), viewH, false)
	} else if a.showRuns {
		view = a.runTreeView(w, viewH)
	} else {
		roomH := viewH
		note := a.readBackNote()
		if note != "" {
			roomH--
		}
		view, at = a.panelWindow(a.shownStep(), w, roomH)
		if note != "" {
			view = append([]string{styles.Faint + ansi.Truncate(Plain(note), w, "…") + styles.Reset}, view...)
		}
	}
	c.put(l.panelView, view)
	pos, _ := a.shownPos(a.selected)
	status := computer.StatusInfo{Step: s, Index: pos, Total: len(a.shownSteps()), At: at}
	if a.filtering() {
		status.Filter = a.filter.spec.String()
	}
	c.putLine(l.status, computer.StatusLine(status, w))
	if a.modeIs(modeReplay) {
		c.putLine(l.replayBar, a.replayBarLine(w))
	}
	playing := a.playing
	if rp, ok := a.mode.(*replayMode); ok {
		playing = rp.player.Playing() // the button says what a click will do to the player
	}
	tl := computer.Timeline(computer.TimelineState{Steps: a.shownSteps(), Current: pos, Playing: playing, Live: a.live(), Watching: a.watching()}, w)
	if a.done {
		tl.HideLiveButton()
	}
	c.put(l.timeline, lastLines(tl.Lines, l.timeline.h))
	a.geo.timelineView = tl
}

// drawPanelWaiting draws the panel's body with no step to show: blank but
// for the wait line and the replay bar.
func (a *App) drawPanelWaiting(c *canvas, l screenLayout) {
	blank := strings.Repeat(" ", l.panel.w)
	for y := l.panel.y; y < l.panel.bottom(); y++ {
		row := rect{l.panel.x, y, l.panel.w, 1}
		switch row {
		case l.replayBar:
			c.putLine(row, a.replayBarLine(row.w))
		case l.wait:
			wait := appWaiting
			if _, _, reading := a.win.Reading(); reading {
				wait = "reading the log…"
			}
			if a.filtering() && len(a.allSteps()) > 0 {
				wait = "no step matches the filter " + Plain(a.filter.spec.String()) + " (f changes it, esc clears it)"
			}
			c.putLine(row, centreLine(styles.Faint+wait+styles.Reset, ansi.StringWidth(wait), row.w))
		default:
			c.putLine(row, blank)
		}
	}
}

// replayBarLine draws the replay bar w cells wide and keeps its view for
// the mouse.
func (a *App) replayBarLine(w int) string {
	r, ok := a.mode.(*replayMode)
	if !ok {
		return strings.Repeat(" ", w)
	}
	v := computer.ReplayBar(r.state(), w)
	a.geo.replayBarView = v
	return v.Line
}

// headerMark is the state word at the head of the panel's header
// (app_state.go) and its colour — "⏭ Back to live" while an older step is
// chosen and more can come.
func (a *App) headerMark() (mark, sgr string) {
	mark, sgr = a.state().mark()
	if !a.following && a.sourceOpen() {
		mark, sgr = appBackMark, styles.Attention
	}
	return mark, sgr
}

// panelHeader is the header mark and the step's row, w cells wide.
func (a *App) panelHeader(s *model.Step, w int) string {
	mark, sgr := a.headerMark()
	prefix := sgr + mark + styles.Reset + "  "
	cells := ansi.StringWidth(mark) + 2
	if cells >= w {
		return render.Pad(ansi.Truncate(prefix, w, ""), w)
	}
	return render.Pad(prefix+render.StepRow(s, w-cells), w)
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
