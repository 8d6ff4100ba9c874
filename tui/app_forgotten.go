package tui

// This file keeps the screen's memory bounded for a thread that makes
// steps without end. Past screenKeepSkeletons steps, the fold forgets the
// skeletons of the oldest finished ones (fold.Fold.Forget), which a step
// timeline, a filter, the run tree and the thread list still draw. The
// screen keeps two bytes a step instead: a code naming a shared stand-in
// made of what those draw (status, category, tool, run). A stand-in that
// is selected becomes a step of its own index whose content is read back
// from the file, as a shed step's is (app_shed.go).

import (
	"math"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// screenKeepSkeletons is how many of its newest steps a thread keeps whole
// (their content, or the skeleton left once it is shed) when it sheds:
// about 1.5 MB a thread, against some 800 bytes a step without end.
const screenKeepSkeletons = 2048

// sketch is what the screen draws of a step that is not kept: its chip,
// its tick, its run and the filter's category.
type sketch struct {
	status                         model.Status
	category                       model.Category
	toolName, runID, subagentRunID string
}

// forgottenSteps stands in for the steps one fold forgot, oldest first.
type forgottenSteps struct {
	// codes name each forgotten step's stand-in, in standIns; byKey finds
	// a sketch's code.
	codes    []uint16
	standIns []*model.Step
	byKey    map[sketch]uint16
	// failed counts the forgotten steps that failed, for the thread list.
	failed int
	// view is the fold's steps as the screen last drew them: stand-ins,
	// then the kept steps; its first filled are stand-ins already.
	view   []*model.Step
	filled int
}

// maxStandIns bounds the distinct stand-ins of a fold; past it, a sketch
// keeps only the status and category.
const maxStandIns = 1 << 15

// add keeps a stand-in for s, which its fold forgets.
func (f *forgottenSteps) add(s *model.Step) {
	k := sketch{status: s.Status, category: s.Category, toolName: s.ToolName, runID: s.RunID, subagentRunID: s.SubagentRunID}
	code, ok := f.byKey[k]
	if !ok && len(f.standIns) >= maxStandIns {
		k = sketch{status: s.Status, category: s.Category}
		code, ok = f.byKey[k]
	}
	if !ok {
		if f.byKey == nil {
			f.byKey = map[sketch]uint16{}
		}
		code = uint16(len(f.standIns))
		f.byKey[k] = code
		f.standIns = append(f.standIns, &model.Step{Index: -1, Shed: true, Status: k.status, Category: k.category,
			ToolName: k.toolName, RunID: k.runID, SubagentRunID: k.subagentRunID})
	}
	f.codes = append(f.codes, code)
	if s.Status == model.StatusFailed {
		f.failed++
	}
}

// isStandIn reports whether s stands in for a forgotten step.
func isStandIn(s *model.Step) bool { return s != nil && s.Index < 0 }

// forgetSteps forgets the skeletons of th's oldest finished steps past the
// newest screenKeepSkeletons, and the tombstones of older sheds, keeping a
// stand-in for each step forgotten.
func (a *App) forgetSteps(th *fold.Thread) {
	f := th.Fold
	before, base := f.Steps(), f.StepBase()
	if len(before) <= screenKeepSkeletons {
		f.Forget(math.MaxInt) // the tombstones only
		return
	}
	a.stepsOf(f) // the stand-ins of what was forgotten before, if any
	fs := a.forgotten[f]
	if fs == nil {
		fs = &forgottenSteps{}
		if a.forgotten == nil {
			a.forgotten = map[*fold.Fold]*forgottenSteps{}
		}
		a.forgotten[f] = fs
	}
	f.Forget(screenKeepSkeletons)
	for i := base; i < f.StepBase(); i++ {
		fs.add(before[i-base])
	}
}

// stepsOf is f's steps as the screen draws them: one per step it made,
// stand-ins for those it forgot, so that a step's position is its Index.
func (a *App) stepsOf(f *fold.Fold) []*model.Step {
	steps, base := f.Steps(), f.StepBase()
	if base == 0 {
		return steps
	}
	fs := a.forgotten[f]
	if fs == nil || len(fs.codes) != base {
		// Forgotten before the screen had the fold (it was taken up from
		// a resume point): stand-ins that only say a step was there.
		fs = &forgottenSteps{}
		fs.add(&model.Step{Category: model.CategoryOther})
		fs.codes = make([]uint16, base)
		if a.forgotten == nil {
			a.forgotten = map[*fold.Fold]*forgottenSteps{}
		}
		a.forgotten[f] = fs
	}
	n := base + len(steps)
	if n < len(fs.view) {
		fs.view, fs.filled = fs.view[:n], min(fs.filled, n)
	}
	for len(fs.view) < n {
		fs.view = append(fs.view, nil)
	}
	for ; fs.filled < base; fs.filled++ {
		fs.view[fs.filled] = fs.standIns[fs.codes[fs.filled]]
	}
	copy(fs.view[base:], steps)
	return fs.view
}

// failedForgotten is how many of f's forgotten steps failed.
func (a *App) failedForgotten(f *fold.Fold) int {
	if fs := a.forgotten[f]; fs != nil {
		return fs.failed
	}
	return 0
}

// standInStep is step i of the thread on screen, which stand-in s stands
// for: a step of its own index with what the stand-in knows, its content
// not kept (it is read back, app_shed.go). The last one made is kept, so
// that the selected step stays the same object from frame to frame.
func (a *App) standInStep(i int, s *model.Step) *model.Step {
	if c := a.standIn; c != nil && c.Index == i && c.Status == s.Status && c.Category == s.Category &&
		c.RunID == s.RunID && c.ToolName == s.ToolName && a.standInOf == a.fold {
		return c
	}
	c := *s
	c.Index = i
	a.standIn, a.standInOf = &c, a.fold
	return a.standIn
}
