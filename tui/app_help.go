package tui

// This file draws the help overlay: a centred box over the screen listing
// every key and what the mouse does.

import (
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// helpLines are the overlay's rows: a key column and what it does. An empty
// key starts a heading.
var helpLines = [][2]string{
	{"", "Keys"},
	{"←/→  h/l", "previous / next step"},
	{"Home/End", "first step / live"},
	{"space", "play / pause"},
	{"L", "back to live"},
	{"tab", "focus transcript / panel"},
	{"Enter", "open the computer at a step"},
	{"c / p / t", "hide the computer / plan / run tree"},
	{"[ / ]", "previous / next run"},
	{"v", "side pane / bottom sheet"},
	{"↑/↓  PgUp/PgDn", "scroll the transcript"},
	{"?", "this help (Esc closes)"},
	{"q  ctrl+c", "quit"},
	{"", "Mouse"},
	{"click", "chips, buttons, tool calls, runs"},
	{"drag", "the timeline slider"},
	{"wheel", "scrolls the transcript"},
}

// threadHelpLines come first when the source has several threads.
var threadHelpLines = [][2]string{
	{"", "Threads"},
	{"↑/↓  Enter", "choose and open a thread (list)"},
	{"esc", "back to the thread list"},
	{"{ / }", "previous / next thread"},
	{"F", "follow the newest active thread"},
	{"t", "run tree: tab, ↑/↓, Enter goes to a run"},
}

// listHelpLines are the keys of the thread list.
var listHelpLines = [][2]string{
	{"", "Thread list"},
	{"↑/↓  j/k", "choose a thread"},
	{"PgUp/PgDn", "a page up / down"},
	{"Home/End", "first / last thread"},
	{"Enter  →", "open the thread"},
	{"esc", "back to the thread shown last"},
	{"F", "follow the newest active thread"},
	{"?", "this help (Esc closes)"},
	{"q  ctrl+c", "quit"},
	{"", "Mouse"},
	{"click", "opens a thread"},
}

// helpFor is the help of a mode: the step keys, or the replay keys, after
// the thread keys when the source has several threads; the list's own.
func helpFor(replay, threads, list bool) [][2]string {
	switch {
	case list:
		return listHelpLines
	case replay && threads:
		return append(slices.Clip(threadHelpLines), replayHelpLines...)
	case replay:
		return replayHelpLines
	case threads:
		return append(slices.Clip(threadHelpLines), helpLines...)
	}
	return helpLines
}

// replayHelpLines replace the step keys in replay mode.
var replayHelpLines = [][2]string{
	{"", "Replay"},
	{"space", "pause / resume"},
	{"+ / -", "faster / slower"},
	{". / ,", "one event forward / back"},
	{"←/→  h/l", "previous / next step"},
	{"[ / ]", "previous / next run"},
	{"0–9", "jump to 0–90 %"},
	{"Home/End", "start / end"},
	{"tab", "focus transcript / panel"},
	{"c", "show / hide the computer"},
	{"t", "the run tree"},
	{"v", "side pane / bottom sheet"},
	{"↑/↓  PgUp/PgDn", "scroll the transcript"},
	{"?", "this help (Esc closes)"},
	{"q  ctrl+c", "quit"},
	{"", "Mouse"},
	{"click", "chips and the replay bar seek"},
	{"drag", "the slider or replay bar scrubs"},
	{"wheel", "scrolls the transcript"},
}

const (
	helpTitle = "Help"
	sgrHelp   = "\x1b[1;36m"
)

// helpBox returns the overlay's lines, each exactly the width of the box,
// fitted to at most maxW×maxH cells.
func helpBox(maxW, maxH int, helpLines [][2]string) []string {
	if maxW < 4 || maxH < 3 {
		return nil
	}
	keyW := 0
	textW := 0
	for _, l := range helpLines {
		if l[0] == "" {
			textW = max(textW, ansi.StringWidth(l[1]))
			continue
		}
		keyW = max(keyW, ansi.StringWidth(l[0]))
		textW = max(textW, ansi.StringWidth(l[1]))
	}
	inner := min(keyW+2+textW, maxW-4) // "│ " and " │"
	body := make([]string, 0, len(helpLines)+1)
	for i, l := range helpLines {
		var s string
		if l[0] == "" {
			if i > 0 {
				body = append(body, "")
			}
			s = styles.Bold + l[1] + styles.Reset
		} else {
			s = sgrHelp + l[0] + styles.Reset + strings.Repeat(" ", keyW-ansi.StringWidth(l[0])+2) + l[1]
		}
		body = append(body, s)
	}
	if len(body) > maxH-2 {
		body = body[:maxH-2]
	}
	out := make([]string, 0, len(body)+2)
	top := "╭─ " + helpTitle + " "
	if n := ansi.StringWidth(top); n < inner+3 {
		top += strings.Repeat("─", inner+3-n)
	}
	out = append(out, styles.Faint+ansi.Truncate(top, inner+3, "")+"╮"+styles.Reset)
	for _, s := range body {
		out = append(out, styles.Faint+"│"+styles.Reset+" "+render.Pad(s, inner)+styles.Reset+" "+styles.Faint+"│"+styles.Reset)
	}
	out = append(out, styles.Faint+"╰"+strings.Repeat("─", inner+2)+"╯"+styles.Reset)
	return out
}

// overlayHelp draws the help box centred over lines, each width cells.
func overlayHelp(lines []string, width int, help [][2]string) {
	box := helpBox(width, len(lines), help)
	if len(box) == 0 {
		return
	}
	bw := ansi.StringWidth(box[0])
	x := (width - bw) / 2
	y := (len(lines) - len(box)) / 2
	for i, b := range box {
		l := lines[y+i]
		lines[y+i] = ansi.Cut(l, 0, x) + styles.Reset + b + ansi.Cut(l, x+bw, width) + styles.Reset
	}
}
