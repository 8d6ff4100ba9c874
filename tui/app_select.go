package tui

// This file holds the selection rules: which step is selected, following
// the newest one while live, play, runs, and how the transcript's cursor
// and the selection move together.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/window"
)

// runStep selects the first step of the run dir runs before (-1) or after
// (+1) the selected step's, in the order the runs started; runs without a
// step are passed over.
func (a *App) runStep(dir int) {
	steps := a.allSteps()
	if len(steps) == 0 {
		return
	}
	first := map[string]int{}
	for i, s := range steps {
		if _, ok := first[s.RunID]; !ok && a.shown(i) {
			first[s.RunID] = i
		}
	}
	runs := a.fold.Runs()
	cur := -1
	if s := a.step(); s != nil {
		for i, r := range runs {
			if r.RunID == s.RunID {
				cur = i
				break
			}
		}
	}
	if cur < 0 && dir < 0 {
		cur = len(runs)
	}
	for i := cur + dir; i >= 0 && i < len(runs); i += dir {
		if j, ok := first[runs[i].RunID]; ok {
			a.stopPlay()
			a.selectStep(j)
			return
		}
	}
}

// openAtTranscript opens the row under the transcript's cursor: a tool
// call or a computer card selects its step (a replay goes to it) and shows
// the computer, a collapsed thought unfolds (and folds again). With the
// panel focused it only shows the computer.
func (a *App) openAtTranscript() tea.Cmd {
	if a.focus != focusTranscript {
		a.hidePanel = false
		return nil
	}
	if step, ok := a.transcript.CursorStep(); ok && step < len(a.allSteps()) {
		a.hidePanel = false
		if step != a.selected {
			a.stopPlay()
			return a.goToStep(step)
		}
		return nil
	}
	if seq, ok := a.transcript.CursorItem(); ok {
		if a.gapAt(seq) {
			a.retryGap(seq) // it is read as it is in view
			return nil
		}
		if it := a.itemBySeq(seq); it != nil && it.Kind == model.ItemReasoning {
			a.transcript.ToggleExpanded(seq)
			return nil
		}
	}
	a.hidePanel = false
	return nil
}

// moveCursor moves the transcript's cursor rows rows and selects the step
// under it.
func (a *App) moveCursor(rows int) {
	a.transcript.MoveCursor(rows)
	a.selectAtCursor()
}

// selectAtCursor selects the step under the transcript's cursor, when
// there is one, as choosing it by hand does; the transcript stays where
// the cursor put it.
func (a *App) selectAtCursor() {
	if a.modeIs(modeReplay) {
		return // the player chooses what is selected: Enter seeks to a row
	}
	step, ok := a.transcript.CursorStep()
	if ok && !a.shown(step) {
		return // a card's step that the filter hides
	}
	if !ok || step == a.selected || step >= len(a.allSteps()) {
		return
	}
	a.stopPlay()
	a.selected = step
	a.following = false
	a.transcript.SetMark(step)
}

// refresh hands the fold's items to the transcript and, when following,
// selects the newest step.
func (a *App) refresh() {
	steps := a.allSteps()
	a.refilter()
	at := a.at()
	a.transcript.SetItems(a.win.Rows(at), steps)
	a.transcript.SetRowSteps(a.win.RowSteps(at))
	a.transcript.SetRuns(a.fold.Runs())
	switch {
	case len(steps) == 0:
		a.selected = -1
	case a.following || a.selected < 0:
		if a.selected = a.lastShown(); a.selected < 0 {
			a.selected = len(steps) - 1
		}
	case a.selected >= len(steps):
		a.selected = len(steps) - 1
	}
	a.searchStale()
}

// live reports whether the panel shows ● LIVE: the newest step is
// selected and the thread is live (app_state.go).
func (a *App) live() bool { return a.following && a.state() == wordLive }

// watching reports whether the newest step is selected and the source is
// followed with nothing open: a finished log watched in case it grows.
func (a *App) watching() bool { return a.following && a.state() == wordWatching }

// selectStep selects step i (clamped) and stops following, as choosing any
// step by hand does; the transcript scrolls to the step's row and marks it.
func (a *App) selectStep(i int) {
	n := len(a.allSteps())
	if n == 0 || i < 0 {
		return
	}
	a.selected = max(0, min(i, n-1))
	a.following = false
	a.transcript.ShowStep(a.selected)
}

// backToLive selects the newest step and follows new ones; the transcript
// follows its bottom again. A source that has ended has no live to go back
// to: its last step is selected and shown.
func (a *App) backToLive() {
	a.following = true
	a.stopPlay()
	if a.win.Drop(a.at()) {
		a.refresh()
	}
	n := len(a.allSteps())
	if last := a.lastShown(); last >= 0 {
		a.selected = last
	} else if n > 0 {
		a.selected = n - 1
	}
	if a.done && n > 0 {
		a.transcript.ShowStep(a.selected)
		return
	}
	a.transcript.FollowBottom()
}

// togglePlay starts or pauses play. Starting on the last step starts over
// from the first.
func (a *App) togglePlay() tea.Cmd {
	if a.playing {
		a.stopPlay()
		return nil
	}
	n := len(a.allSteps())
	if n == 0 {
		return nil
	}
	if a.selected >= a.lastShown() {
		a.selectStep(a.firstShown())
	} else {
		a.selectStep(a.selected)
	}
	a.playing = true
	a.playGen++
	return a.tick()
}

func (a *App) stopPlay() {
	a.playing = false
	a.playGen++
}

func (a *App) tick() tea.Cmd {
	gen := a.playGen
	return tea.Tick(playInterval, func(time.Time) tea.Msg { return playTickMsg{gen} })
}

// playTick moves play one step on, stopping at the last step.
func (a *App) playTick(msg playTickMsg) tea.Cmd {
	if !a.playing || msg.gen != a.playGen {
		return nil
	}
	last := a.lastShown()
	if a.selected < last {
		a.selected = a.shownBy(a.selected, 1)
		a.transcript.ShowStep(a.selected)
	}
	if a.selected >= last {
		a.stopPlay()
		return nil
	}
	return a.tick()
}

// goToStep selects step i by hand; in a replay the player goes to it.
func (a *App) goToStep(i int) tea.Cmd {
	if i < 0 {
		return nil
	}
	if a.modeIs(modeReplay) {
		cmd := a.replayed(func(p *replay.Player) error { return seekErr(p.SeekStep(i)) })
		a.transcript.ShowStep(a.selected)
		return cmd
	}
	a.selectStep(i)
	return nil
}

// plan returns the agent's newest plan item, or nil.
func (a *App) plan() *model.Item {
	items := a.fold.Items()
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Kind == model.ItemPlan {
			return items[i]
		}
	}
	return nil
}

// step returns the selected step, or nil.
func (a *App) step() *model.Step {
	steps := a.allSteps()
	if a.selected < 0 || a.selected >= len(steps) {
		return nil
	}
	if s := steps[a.selected]; window.IsStandIn(s) {
		return a.win.StandIn(a.fold, a.selected, s)
	}
	return steps[a.selected]
}
