package tui

// This file shows the thread's run tree in the panel (t): runs by
// parentRunId, a branch drawn as a branch; choosing a run jumps to it.

import (
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/runtree"
)

// toggleRunTree shows or hides the run tree, with the selected step's run
// chosen in it.
func (a *App) toggleRunTree() {
	a.showRuns = !a.showRuns && len(a.fold.Runs()) > 0
	if !a.showRuns {
		return
	}
	a.hidePanel, a.showPlan = false, false
	a.runCursor = 0
	if s := a.step(); s != nil {
		for i, r := range a.fold.Runs() {
			if r.RunID == s.RunID {
				a.runCursor = i
			}
		}
	}
}

// runTreeView draws the run tree for the panel.
func (a *App) runTreeView(w, h int) []string {
	rows := runtree.Rows(a.fold.Runs(), a.allSteps())
	a.runCursor = max(0, min(a.runCursor, len(rows)-1))
	return runtree.Lines(rows, a.runCursor, w, h)
}

// runTreeClick jumps to the run drawn at line of the run tree.
func (a *App) runTreeClick(line int) {
	rows := runtree.Rows(a.fold.Runs(), a.allSteps())
	if i, ok := runtree.RowAt(rows, a.runCursor, a.geo.runTree.h, line); ok {
		a.runCursor = i
		a.jumpToRun(i)
	}
}

// jumpToRun scrolls the transcript to run i's start and selects its first
// step, so the panel and the timeline show it too (a run without steps
// leaves the selection where it is).
func (a *App) jumpToRun(i int) {
	runs := a.fold.Runs()
	if i < 0 || i >= len(runs) {
		return
	}
	r := runs[i]
	for _, it := range a.fold.Items() {
		if it.Kind == model.ItemRun && it.ID == r.RunID && it.FirstSeq == r.FirstSeq {
			a.transcript.ScrollTo(it.Seq)
			break
		}
	}
	for j, s := range a.allSteps() {
		if s.RunID == r.RunID && s.FirstSeq >= r.FirstSeq {
			a.stopPlay()
			a.selectStep(j)
			return
		}
	}
}

// runNoteOf is runtree.NoteOf, for the plain printer.
func runNoteOf(runs []*model.Run, it *model.Item) string { return runtree.NoteOf(runs, it) }
