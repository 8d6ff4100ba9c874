package tui

// This file shows an agent that could not start: why, on the status line,
// and the last lines it wrote on its standard error, under it.

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// AgentFailedMsg tells the screen its agent could not start: Reason says
// what failed ("agent failed to start: initialize: …") and Stderr is the
// end of what the agent wrote on its standard error, often the only word
// on why. Both are agent text: the screen makes them safe to draw.
type AgentFailedMsg struct {
	Reason string
	Stderr []string
}

// failedRowsMax bounds the rows the agent's stderr takes, its heading
// included; a third of the screen at most.
const failedRowsMax = 9

// onAgentFailed notes a start that failed: nothing runs any more.
func (a *App) onAgentFailed(m AgentFailedMsg) {
	g, ok := a.mode.(*sessionMode)
	if !ok {
		return
	}
	g.busy, g.cancelling = false, false
	g.failed = &m
}

// failedRows is how many rows the agent's stderr takes below the status
// line: its heading and as many of its last lines as fit.
func (a *App) failedRows() int {
	g, ok := a.mode.(*sessionMode)
	if !ok || g.failed == nil || len(g.failed.Stderr) == 0 {
		return 0
	}
	return min(1+len(g.failed.Stderr), failedRowsMax, max(a.height/3, 0))
}

// failedStatus is the status line's word on a failed start.
func failedStatus(m *AgentFailedMsg) string {
	return styles.RedFg + "✗ " + sanitizeLine(m.Reason) + styles.Reset
}

// failedLines are the failedRows lines under the status line, each w
// cells: "agent stderr:" and the agent's last lines, dim.
func (a *App) failedLines(w int) []string {
	g, ok := a.mode.(*sessionMode)
	n := a.failedRows()
	if !ok || n == 0 {
		return nil
	}
	stderr := g.failed.Stderr
	out := []string{render.Pad(styles.Faint+ansi.Truncate(" agent stderr:", w, "…")+styles.Reset, w)}
	for _, l := range stderr[len(stderr)-(n-1):] {
		out = append(out, render.Pad(styles.Faint+ansi.Truncate("   "+sanitizeLine(l), w, "…")+styles.Reset, w))
	}
	return out
}

// sanitizeLine is agent text made safe and one line, tabs as spaces.
func sanitizeLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, Plain(s))
}
