package tui

// This file holds what the screen knows of the sessions of an agent's
// folder (agentwatch claude, agentwatch codex) from the agent itself:
// whether it is working on a session, waiting for the person, idle with
// it open, or done with it. The app learns that beside the files and
// sends it as it changes (AgentStatesMsg); the thread list shows it,
// sorts by it, and marks (and with Bell, rings for) a session that starts
// waiting for the person.

import (
	"cmp"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// AgentStatesMsg tells the screen the state of every session of an
// agent's folder now, by the path of its file; a session it does not name
// is not known. Each message replaces the last.
type AgentStatesMsg model.AgentStates

// bell is the terminal's bell.
const bell = "\a"

// onAgentStates takes the agents' word on their sessions: a session that
// starts waiting for the person is marked until its row is selected or
// its thread opened (unless it is the thread on screen), and rings the
// bell once when Bell is on. The first message rings for nothing: what
// waited before the screen opened is sorted first, not news.
func (a *App) onAgentStates(msg AgentStatesMsg) tea.Cmd {
	tv, ok := a.mode.(*threadsView)
	if !ok {
		return nil
	}
	old, first := tv.agents, tv.agents == nil
	tv.agents = make(model.AgentStates, len(msg))
	for p, s := range msg {
		tv.agents[filepath.Clean(p)] = s
	}
	rings := 0
	for p, s := range tv.agents {
		if s == model.AgentWaiting && old[p] != model.AgentWaiting && !first {
			rings++
		}
	}
	for _, th := range tv.set.List() {
		s := tv.agentState(th)
		switch {
		case s != model.AgentWaiting:
			delete(tv.asking, th)
		case first || old[filepath.Clean(th.Source)] == model.AgentWaiting:
		case th == tv.cur && !tv.listing:
			// the person is looking at it
		default:
			tv.asking[th] = true
		}
	}
	a.refreshList(tv)
	a.refresh() // the title bar's word of the thread on screen
	if rings > 0 && a.opts.Bell {
		return tea.Raw(strings.Repeat(bell, rings))
	}
	return nil
}

// agentState is what the agent said last of th's session, model.AgentOpen
// left as it is (agentStateNow decides it).
func (tv *threadsView) agentState(th *fold.Thread) model.AgentState {
	if tv.agents == nil {
		return model.AgentUnknown
	}
	return tv.agents[filepath.Clean(th.Source)]
}

// agentStateNow is th's state with an open session decided by its last
// turn: working while a run of it is open.
func (tv *threadsView) agentStateNow(th *fold.Thread) model.AgentState {
	s := tv.agentState(th)
	if s == model.AgentOpen {
		return s.Resolve(anyRunOpen(th.Fold))
	}
	return s
}

// agentRank is where a state's sessions come in the thread list: those
// waiting for the person first, then those at work, then those open and
// idle, then those ended; a thread of no agent's with the idle ones.
func agentRank(s model.AgentState) int {
	switch s {
	case model.AgentWaiting:
		return 0
	case model.AgentWorking:
		return 1
	case model.AgentEnded:
		return 3
	}
	return 2
}

// agentOrder is the thread list's order when the agents have spoken:
// by agentRank, then in threadOrder. Without their word (tv.agents nil)
// it is threadOrder.
func (tv *threadsView) agentOrder(states map[*fold.Thread]model.AgentState) func(x, y *fold.Thread) int {
	if tv.agents == nil {
		return threadOrder
	}
	return func(x, y *fold.Thread) int {
		if c := cmp.Compare(agentRank(states[x]), agentRank(states[y])); c != 0 {
			return c
		}
		return threadOrder(x, y)
	}
}

// lookedAt notes that the person selected the list's row of th or opened
// th: its asking mark goes.
func (tv *threadsView) lookedAt(th *fold.Thread) {
	if th != nil {
		delete(tv.asking, th)
	}
}

// selectedThread is the thread of the list's selected row, nil when none.
func (tv *threadsView) selectedThread() *fold.Thread {
	if i := tv.list.Selected(); i >= 0 && i < len(tv.order) {
		return tv.order[i]
	}
	return nil
}
