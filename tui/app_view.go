package tui

// This file draws the App: the layout of transcript and panel, the panel's
// header, view, status and timeline, and the footer of key hints.

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

const (
	appFooter      = "←/→ step  space play  L live  c computer  v layout  ↑/↓ scroll  ? help  q quit"
	threadFooter   = "esc threads  {/} thread  ←/→ step  t runs  space play  L live  ? help  q quit"
	replayFooter   = "space pause  +/- speed  ./, event  ←/→ step  [/] run  0–9 seek  c computer  ? help  q quit"
	appWaiting     = "waiting for the agent's first step…"
	appLiveMark    = "● LIVE"
	appWatchMark   = "◌ watching"
	appBackMark    = "⏭ Back to live"
	appSideShare   = 45 // percent of the width the transcript gets side by side
	appSheetShare  = 55 // percent of the rows the bottom sheet covers
	sgrLive        = "\x1b[1;32m"
	sgrBack        = "\x1b[1;33m"
	sgrWatch       = "\x1b[2m"
	sgrTitleFocus  = "\x1b[1;36m"
	sgrTitleNormal = "\x1b[2m"
)

// rect is a screen area in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// appGeometry is where the last View drew what the mouse can hit.
type appGeometry struct {
	transcriptTitle rect
	transcript      rect
	panel           rect // the panel below its title line
	liveMark        rect
	timeline        rect
	timelineView    computer.TimelineView
	replayBar       rect
	replayBarView   computer.ReplayBarView
	list            rect // the thread list's rows
	runTree         rect // the run tree's lines in the panel
}

// panelCache keeps the panel's view lines: computer.PanelLines decodes screenshots
// on every call, which a frame cannot afford.
type panelCache struct {
	step    int
	lastSeq uint64
	status  model.Status
	shed    bool
	w, h    int
	lines   []string
}

// sideBySide reports whether the layout now is transcript left, panel right.
func (a *App) sideBySide() bool {
	if a.width < 3 {
		return false
	}
	switch a.layout {
	case LayoutSide:
		return true
	case LayoutSheet:
		return false
	}
	return a.width >= sideMinWidth
}

// View draws the whole screen: exactly height lines of exactly width cells.
func (a *App) View() tea.View {
	v := tea.NewView(a.render())
	v.ProgressBar = a.progressBar()
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func (a *App) render() string {
	a.geo = appGeometry{}
	w, h := a.width, a.height
	if w < 1 || h < 1 {
		return ""
	}
	a.flushWheel()
	rows := max(1, h-1-a.agentRows()) // the footer, the agent's lines
	lines := make([]string, 0, h)
	if a.threads != nil && a.threads.listing {
		lines = append(lines, a.listScreen(w, rows)...)
		lines = append(lines, render.Pad(styles.Faint+ansi.Truncate(listFooter, w, "…")+styles.Reset, w))
		if a.help {
			overlayHelp(lines, w, helpFor(false, true, true))
		}
		return strings.Join(lines, "\n")
	}
	if a.hidePanel {
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
	footer := appFooter
	switch {
	case a.threads != nil && a.threads.set.Len() > 1:
		footer = threadFooter
	case a.player != nil:
		footer = replayFooter
	case a.agent != nil:
		footer = agentFooter
		lines = append(lines, a.agentLines(w)...)
	}
	lines = append(lines, render.Pad(styles.Faint+ansi.Truncate(footer, w, "…")+styles.Reset, w))
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	a.overlayPermission(lines, w)
	if a.help {
		overlayHelp(lines, w, helpFor(a.player != nil, a.manyThreads(), false))
	}
	return strings.Join(lines, "\n")
}

// titleLine is a pane's title bar, bright when the pane has focus.
func titleLine(title string, focused bool, width int) string {
	sgr := sgrTitleNormal
	if focused {
		sgr = sgrTitleFocus
	}
	text := "─ " + Plain(title) + " "
	n := ansi.StringWidth(text)
	if n < width {
		text += strings.Repeat("─", width-n)
	}
	return render.Pad(sgr+ansi.Truncate(text, width, "…")+styles.Reset, width)
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
	if a.sourceStatus != "" {
		title += " · " + a.sourceStatus
	}
	if rd := a.readingNote(); rd != "" {
		title += " · " + rd
	} else if q := a.quiet(); q != "" {
		title += " · " + q
	}
	if d := a.droppedNote(); d != "" {
		title += " · " + d
	}
	out = append(out, titleLine(title, a.focus == focusTranscript, r.w))
	a.geo.transcriptTitle = rect{r.x, r.y, r.w, 1}
	body := rect{r.x, r.y + 1, r.w, r.h - 1}
	a.geo.transcript = body
	a.transcript.SetSize(body.w, body.h)
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
	steps := a.fold.Steps()
	s := a.step()
	a.geo.replayBar = rect{}
	if s == nil {
		blank := strings.Repeat(" ", r.w)
		for i := range body.h {
			switch {
			case a.player != nil && i == body.h-1:
				out = append(out, a.replayBarLine(r.x, body.y+i, r.w))
			case i == body.h/2:
				wait := appWaiting
				if _, _, reading := a.reading(); reading {
					wait = "reading the log…"
				}
				out = append(out, centreLine(styles.Faint+wait+styles.Reset, ansi.StringWidth(wait), r.w))
			default:
				out = append(out, blank)
			}
		}
		return out
	}

	fixed := 5 // header, status, three timeline lines
	if a.player != nil {
		fixed++ // the replay bar
	}
	viewH := max(0, body.h-fixed)
	lines := make([]string, 0, viewH+fixed)
	lines = append(lines, a.panelHeader(s, body))
	view := a.panelView(a.shownStep(), r.w, viewH)
	if note := a.readBackNote(); note != "" {
		view = append([]string{styles.Faint + ansi.Truncate(Plain(note), r.w, "…") + styles.Reset}, view...)
	}
	a.geo.runTree = rect{}
	if plan := a.plan(); a.showPlan && plan != nil {
		view = render.PlanLines(plan.Data, r.w, viewH)
	} else if a.showRuns {
		view = a.runTreeView(r.w, viewH)
		a.geo.runTree = rect{r.x, body.y + 1, r.w, viewH}
	}
	for i := range viewH {
		if i < len(view) {
			lines = append(lines, render.Pad(view[i], r.w))
		} else {
			lines = append(lines, strings.Repeat(" ", r.w))
		}
	}
	lines = append(lines, render.Pad(computer.PanelStatus(s, a.selected, len(steps), r.w), r.w))
	if a.player != nil {
		lines = append(lines, a.replayBarLine(r.x, 0, r.w)) // y set below
	}
	tl := computer.Timeline(computer.TimelineState{Steps: steps, Current: a.selected, Playing: a.playing, Live: a.live(), Watching: a.watching()}, r.w)
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
	if a.player != nil {
		a.geo.replayBar.y = body.y + len(lines) - 4
	}
	a.geo.timelineView = tl
	return append(out, lines...)
}

// replayBarLine draws the replay bar at (x, y) and notes where it is.
func (a *App) replayBarLine(x, y, w int) string {
	v := computer.ReplayBar(a.replayState(), w)
	a.geo.replayBar, a.geo.replayBarView = rect{x, y, w, 1}, v
	return v.Line
}

// panelHeader is "● LIVE  " (or "⏭ Back to live  " while the input is live)
// and the step's row.
func (a *App) panelHeader(s *model.Step, body rect) string {
	prefix, mark, cells := "", "", 0
	switch {
	case a.live():
		mark, prefix = appLiveMark, sgrLive+appLiveMark+styles.Reset+"  "
	case a.watching():
		mark, prefix = appWatchMark, sgrWatch+appWatchMark+styles.Reset+"  "
	case !a.done:
		mark, prefix = appBackMark, sgrBack+appBackMark+styles.Reset+"  "
	}
	if mark != "" {
		cells = ansi.StringWidth(mark) + 2
		if cells >= body.w {
			return render.Pad(prefix, body.w)
		}
		a.geo.liveMark = rect{body.x, body.y, ansi.StringWidth(mark), 1}
	}
	return render.Pad(prefix+render.StepRow(s, body.w-cells), body.w)
}

// panelView returns the step's view lines, cached per step version and size.
func (a *App) panelView(s *model.Step, w, h int) []string {
	c := &a.panelCache
	if c.lines != nil && c.step == a.selected && c.lastSeq == s.LastSeq && c.status == s.Status && c.shed == s.Shed && c.w == w && c.h == h {
		return c.lines
	}
	lines := computer.PanelLines(s, w, h)
	if lines == nil {
		lines = []string{}
	}
	*c = panelCache{step: a.selected, lastSeq: s.LastSeq, status: s.Status, shed: s.Shed, w: w, h: h, lines: lines}
	return lines
}

// centreLine places text of cells cells in the middle of width cells.
func centreLine(text string, cells, width int) string {
	if cells >= width {
		return render.Pad(text, width)
	}
	left := (width - cells) / 2
	return render.Pad(strings.Repeat(" ", left)+text, width)
}
