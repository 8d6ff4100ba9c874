package tui

// This file draws the App: View joins the lines relayout made in Update
// (app_layout.go) and draws the help or a dialog over them; and the
// geometry, caches and small drawing helpers the layout shares.

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

const (
	appWaiting    = "waiting for the agent's first step…"
	appBackMark   = "⏭ Back to live"
	appSideShare  = 45 // percent of the width the transcript gets side by side
	appSheetShare = 55 // percent of the rows the bottom sheet covers
)

// appGeometry is where the last layout put each part of the screen, and
// what a click means inside the timeline and the replay bar, whose views
// are made as they are drawn.
type appGeometry struct {
	screenLayout
	timelineView  computer.TimelineView
	replayBarView computer.ReplayBarView
}

// panelCache keeps the panel's view lines: computer.PanelDoc decodes
// screenshots on every call, which a frame cannot afford. limit is how
// many lines were asked for; a view that filled them has more.
type panelCache struct {
	step    int
	lastSeq uint64
	status  model.Status
	shed    bool
	w, h    int
	limit   int
	lines   []string
}

// panelDocMax bounds how much of one step's view the panel renders: an
// output of a million lines scrolls to its millionth line.
const panelDocMax = 1 << 20

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

// View draws the screen relayout laid out in the last Update, with the
// overlays over it: exactly height lines of exactly width cells.
func (a *App) View() tea.View {
	v := tea.NewView(a.draw())
	v.ProgressBar = a.progressBar()
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// draw joins the laid-out lines and puts the help or the permission dialog
// over them.
func (a *App) draw() string {
	if len(a.frame) == 0 {
		return ""
	}
	lines := slices.Clone(a.frame)
	if a.screen() == screenThread {
		a.overlayPermission(lines, a.width)
	}
	if a.help {
		overlayHelp(lines, a.width, a.screenKeys(), a.helpScroll)
	}
	return strings.Join(lines, "\n")
}

// titleLine is a pane's title bar, bright when the pane has focus.
func titleLine(title string, focused bool, width int) string {
	sgr := styles.TitleNormal
	if focused {
		sgr = styles.TitleFocus
	}
	text := "─ " + Plain(title) + " "
	n := ansi.StringWidth(text)
	if n < width {
		text += strings.Repeat("─", width-n)
	}
	return render.Pad(sgr+ansi.Truncate(text, width, "…")+styles.Reset, width)
}

// centreLine places text of cells cells in the middle of width cells.
func centreLine(text string, cells, width int) string {
	if cells >= width {
		return render.Pad(text, width)
	}
	left := (width - cells) / 2
	return render.Pad(strings.Repeat(" ", left)+text, width)
}

// overlay draws box (a styles.Box or Frame) centred over lines, each
// width cells: the help and the dialogs are put on the screen by it.
func overlay(lines []string, width int, box []string) {
	if len(box) == 0 || len(box) > len(lines) {
		return
	}
	bw := ansi.StringWidth(box[0])
	if bw > width {
		return
	}
	x := (width - bw) / 2
	y := (len(lines) - len(box)) / 2
	for i, b := range box {
		l := lines[y+i]
		lines[y+i] = ansi.Cut(l, 0, x) + styles.Reset + b + ansi.Cut(l, x+bw, width) + styles.Reset
	}
}
