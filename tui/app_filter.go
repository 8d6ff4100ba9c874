package tui

// This file holds the step filter: only the steps of chosen categories,
// statuses or text are shown — in the transcript, on the timeline's slider
// and chips, in "step N of M" — and the step keys move among them.

import (
	"sort"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/search"
)

// stepFilter is the filter and the steps it keeps.
type stepFilter struct {
	spec search.Filter
	// kept are the indexes of the steps the filter keeps, in order, and
	// steps those steps, for the timeline; both nil without a filter.
	kept  []int
	steps []*model.Step
}

// setFilter filters the steps by f and keeps a shown step selected: the
// selected one when f keeps it, else the nearest one f keeps.
func (a *App) setFilter(f search.Filter) {
	a.filter.spec = f
	a.refilter()
	if !f.Active() {
		a.transcript.SetStepFilter(nil)
		if a.selected >= 0 {
			a.transcript.ShowStep(a.selected)
		}
		return
	}
	a.transcript.SetStepFilter(func(step int) bool { return a.shown(step) })
	if len(a.filter.kept) == 0 || a.shown(a.selected) {
		if a.selected >= 0 {
			a.transcript.ShowStep(a.selected)
		}
		return
	}
	if a.following {
		a.selected = a.filter.kept[len(a.filter.kept)-1]
		return
	}
	a.selectStep(a.nearestShown(a.selected))
}

// refilter finds the steps the filter keeps, after the steps changed.
func (a *App) refilter() {
	f := &a.filter
	if !f.spec.Active() {
		f.kept, f.steps = nil, nil
		return
	}
	steps := a.allSteps()
	f.kept, f.steps = f.kept[:0], f.steps[:0]
	for i, s := range steps {
		if f.spec.Keep(s) {
			f.kept = append(f.kept, i)
			f.steps = append(f.steps, s)
		}
	}
}

// filtering reports whether a filter hides steps.
func (a *App) filtering() bool { return a.filter.spec.Active() }

// shown reports whether step i is shown.
func (a *App) shown(i int) bool {
	if !a.filtering() {
		return i >= 0 && i < len(a.allSteps())
	}
	_, ok := a.shownPos(i)
	return ok
}

// shownPos is step i's position among the shown steps, and whether it is
// shown; a step the filter hides gets the position of the next shown one.
func (a *App) shownPos(i int) (int, bool) {
	if !a.filtering() {
		return i, i >= 0 && i < len(a.allSteps())
	}
	k := sort.SearchInts(a.filter.kept, i)
	return k, k < len(a.filter.kept) && a.filter.kept[k] == i
}

// shownSteps are the steps the timeline shows.
func (a *App) shownSteps() []*model.Step {
	if !a.filtering() {
		return a.allSteps()
	}
	return a.filter.steps
}

// stepAtPos is the step at position k of the shown steps.
func (a *App) stepAtPos(k int) int {
	if !a.filtering() {
		return k
	}
	if k < 0 || k >= len(a.filter.kept) {
		return -1
	}
	return a.filter.kept[k]
}

// shownBy is the shown step dir places after (before, when negative) step
// i, clamped to the first and last shown steps; -1 when none is shown.
func (a *App) shownBy(i, dir int) int {
	n := len(a.allSteps())
	if !a.filtering() {
		if n == 0 {
			return -1
		}
		return max(0, min(i+dir, n-1))
	}
	kept := a.filter.kept
	if len(kept) == 0 {
		return -1
	}
	k, on := a.shownPos(i)
	switch {
	case dir > 0 && on:
		k += dir
	case dir > 0:
		k += dir - 1
	case dir < 0:
		k += dir
	}
	return kept[max(0, min(k, len(kept)-1))]
}

// firstShown and lastShown are the first and last shown steps (-1: none).
func (a *App) firstShown() int { return a.stepAtPos(0) }

func (a *App) lastShown() int {
	if !a.filtering() {
		return len(a.allSteps()) - 1
	}
	return a.stepAtPos(len(a.filter.kept) - 1)
}

// nearestShown is the shown step nearest before step i, else the first
// after it.
func (a *App) nearestShown(i int) int {
	k, on := a.shownPos(i)
	switch {
	case on:
		return i
	case k > 0:
		return a.stepAtPos(k - 1)
	}
	return a.stepAtPos(k)
}

// failedBy selects the failed step dir places after (before, when
// negative) the selected one among the shown steps, wrapping around.
func (a *App) failedBy(dir int) {
	steps := a.allSteps()
	n := len(steps)
	if n == 0 {
		return
	}
	for k := 1; k <= n; k++ {
		i := ((a.selected+dir*k)%n + n) % n
		if steps[i].Status == model.StatusFailed && a.shown(i) {
			a.stopPlay()
			a.goToStep(i)
			return
		}
	}
	a.note = "no failed step"
}
