package tui

// This file holds the App's live-agent mode (ACP): a prompt line at the
// bottom, a status line with the session, turns and cancel, and the
// permission dialog.

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// Agent is what the screen may ask of a live agent. The calls return at
// once; a turn's start and end come back as TurnMsg.
type Agent interface {
	// Prompt starts a turn with text.
	Prompt(text string)
	// Cancel asks the agent to stop the current turn.
	Cancel()
	// SetMode switches the session's mode.
	SetMode(id string)
}

// TurnMsg tells the screen a turn started (Busy) or ended, with the stop
// reason or the error that ended it.
type TurnMsg struct {
	Busy       bool
	StopReason string
	Err        error
}

// sessionMode is the App's state in modeSession: a live agent and the
// prompt line that talks to it.
type sessionMode struct {
	ctl        Agent
	input      textinput.Model
	busy       bool
	cancelling bool
	last       string // how the last turn ended
	perms      []PermissionMsg
	// exited is set once the agent's connection ended.
	exited bool
	// thread is the session as a thread of its recording (recordedSession).
	thread *fold.Thread
	// failed is set when the agent could not start (agent_failed.go).
	failed *AgentFailedMsg
}

// NewAgentApp shows a live agent: records from its connection arrive on
// recs, folded with f, and the prompt line talks to ctl.
func NewAgentApp(f *fold.Fold, recs <-chan []model.Record, ctl Agent, opts AppOptions) *App {
	a := NewApp(f, recs, opts)
	in := textinput.New()
	in.SetStyles(styles.Input())
	in.Prompt = "❯ "
	in.Placeholder = "ask the agent…  (/ for commands)"
	in.ShowSuggestions = true
	in.Focus()
	a.mode = &sessionMode{ctl: ctl, input: in}
	a.focus = focusPrompt
	return a
}

// agentRows is how many rows the agent's lines take at the bottom.
func (a *App) agentRows() int {
	if !a.modeIs(modeSession) {
		return 0
	}
	return 2 + a.failedRows()
}

// agentLines draws the status line and the prompt line.
func (a *App) agentLines(g *sessionMode, w int) []string {
	s := a.fold.Session()
	var parts []string
	switch {
	case g.cancelling:
		parts = append(parts, styles.Attention+"◌ cancelling…"+styles.Reset)
	case g.busy:
		parts = append(parts, styles.Live+"● working"+styles.Reset+styles.Faint+" (esc cancels)"+styles.Reset)
	case g.failed != nil:
		parts = append(parts, failedStatus(g.failed))
	case g.last != "":
		parts = append(parts, "turn ended: "+Plain(g.last))
	default:
		parts = append(parts, styles.Faint+"ready"+styles.Reset)
	}
	if s.Mode != "" {
		parts = append(parts, "mode "+Plain(s.Mode))
	}
	if s.Title != "" {
		parts = append(parts, "“"+Plain(s.Title)+"”")
	}
	if s.Size > 0 {
		parts = append(parts, fmt.Sprintf("%s/%s tokens", tokens(s.Used), tokens(s.Size)))
	} else if s.Used > 0 {
		parts = append(parts, tokens(s.Used)+" tokens")
	}
	if s.Cost != "" {
		parts = append(parts, Plain(s.Cost))
	}
	status := render.Pad(ansi.Truncate(" "+strings.Join(parts, styles.Faint+" · "+styles.Reset), w, "…"), w)
	g.input.SetWidth(max(1, w-4))
	g.input.SetSuggestions(a.suggestions(s))
	prompt := g.input.View()
	if a.focus != focusPrompt {
		prompt = styles.Faint + ansi.Strip(prompt) + styles.Reset
	}
	return append(append([]string{status}, a.failedLines(w)...), render.Pad(ansi.Truncate(prompt, w, "…"), w))
}

// tokens is 12.3k for 12345.
func tokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// suggestions are the slash commands and modes the prompt completes.
func (a *App) suggestions(s model.Session) []string {
	out := make([]string, 0, len(s.Commands)+len(s.Modes))
	for _, c := range s.Commands {
		out = append(out, "/"+c.Name)
	}
	for _, m := range s.Modes {
		out = append(out, "/mode "+m.ID)
	}
	return out
}

// onTurn notes a turn's start or end.
func (a *App) onTurn(m TurnMsg) {
	g, ok := a.mode.(*sessionMode)
	if !ok {
		return
	}
	g.busy = m.Busy
	if m.Busy {
		g.last, g.cancelling = "", false
		return
	}
	g.cancelling = false
	switch {
	case m.Err != nil:
		g.last = "error: " + m.Err.Error()
	default:
		g.last = m.StopReason
	}
}

// onPermission queues a permission request; the first one shows.
func (a *App) onPermission(m PermissionMsg) {
	g, ok := a.mode.(*sessionMode)
	if !ok {
		m.Answer <- ""
		return
	}
	g.perms = append(g.perms, m)
}

// onPermissionClosed drops a request that stopped waiting.
func (a *App) onPermissionClosed(m PermissionClosedMsg) {
	if g, ok := a.mode.(*sessionMode); ok {
		g.perms = dropPerm(g.perms, m.ToolCallID)
	}
}

func dropPerm(ps []PermissionMsg, toolCallID string) []PermissionMsg {
	out := ps[:0]
	for _, p := range ps {
		if p.Request.ToolCallID != toolCallID {
			out = append(out, p)
		}
	}
	return out
}

// cancelTurn sends session/cancel; the turn ends when the agent answers.
func (g *sessionMode) cancelTurn() tea.Cmd {
	if !g.cancelling {
		g.cancelling = true
		g.ctl.Cancel()
	}
	return nil
}

// overlayPermission draws the first waiting permission request.
func (a *App) overlayPermission(lines []string, w int) {
	g, ok := a.mode.(*sessionMode)
	if !ok || len(g.perms) == 0 {
		return
	}
	req := g.perms[0].Request
	var step *model.Step
	for _, s := range a.allSteps() {
		if s.ToolCallID == req.ToolCallID {
			step = s
		}
	}
	overlay(lines, w, permissionBox(req, step, w, len(lines)))
}

// answerPermission answers the first waiting permission request with the
// option key picks (its number, or its kind's letter); other keys do
// nothing.
func (a *App) answerPermission(key string) {
	g, ok := a.mode.(*sessionMode)
	if !ok || len(g.perms) == 0 {
		return
	}
	p := g.perms[0]
	if id, ok := optionForKey(p.Request.Options, key); ok {
		p.Answer <- id
		g.perms = g.perms[1:]
	}
}

// cancelPermission answers the first waiting request with a cancel.
func (a *App) cancelPermission() {
	g, ok := a.mode.(*sessionMode)
	if !ok || len(g.perms) == 0 {
		return
	}
	g.perms[0].Answer <- ""
	g.perms = g.perms[1:]
}

// sendPrompt sends the prompt line to the agent, or switches the mode on
// /mode ID; a prompt while a turn runs waits.
func (a *App) sendPrompt() tea.Cmd {
	g, ok := a.mode.(*sessionMode)
	if !ok {
		return nil
	}
	text := strings.TrimSpace(g.input.Value())
	if text == "" {
		return nil
	}
	if mode, ok := strings.CutPrefix(text, "/mode "); ok {
		g.ctl.SetMode(strings.TrimSpace(mode))
		g.input.Reset()
		return nil
	}
	if g.busy {
		g.last = "wait for the turn to end (esc cancels it)"
		return nil
	}
	g.ctl.Prompt(text)
	g.busy = true
	g.input.Reset()
	a.backToLive()
	return nil
}

// promptEsc cancels the turn while one runs, else leaves the prompt line.
func (a *App) promptEsc() tea.Cmd {
	if g, ok := a.mode.(*sessionMode); ok && g.busy {
		return g.cancelTurn()
	}
	return a.setFocus(focusTranscript)
}

// promptTab completes a slash command, else focuses the next pane.
func (a *App) promptTab(k tea.KeyPressMsg) tea.Cmd {
	g, ok := a.mode.(*sessionMode)
	if !ok || !strings.HasPrefix(g.input.Value(), "/") {
		return a.cycleFocus(1)
	}
	var c tea.Cmd
	g.input, c = g.input.Update(k)
	return c
}

// sessionEsc cancels the turn while one runs, else clears the search and
// the filter.
func (a *App) sessionEsc() {
	if g, ok := a.mode.(*sessionMode); ok && g.busy {
		g.cancelTurn()
		return
	}
	a.clearOrBack()
}

// allSteps are the fold's steps as the screen shows them. Once the source
// has ended (a stream closed, a live agent exited), the steps it left open
// read "interrupted": nothing will finish them. Only the screen says so;
// the fold, and the recording it was made from, keep them as they were. A
// replay is not an ended source: its player brings the rest.
func (a *App) allSteps() []*model.Step {
	steps := a.stepsOf(a.fold)
	if !a.done || a.modeIs(modeReplay) {
		return steps
	}
	c := &a.interrupted
	if c.steps != nil && len(c.steps) == len(steps) && c.of == a.fold {
		return c.steps
	}
	c.steps, c.of = make([]*model.Step, len(steps)), a.fold
	for i, s := range steps {
		if s == nil || s.Status.Done() {
			c.steps[i] = s
			continue
		}
		cp := *s
		cp.Status = model.StatusInterrupted
		c.steps[i] = &cp
	}
	return c.steps
}

// agentExited notes that the live agent's connection ended: what it left
// open is shown interrupted.
func (a *App) agentExited() {
	if g, ok := a.mode.(*sessionMode); ok && !g.exited {
		g.exited = true
		a.refresh()
	}
}
