package tui

// This file keeps the screen's memory bounded for a thread that makes
// steps without end. Past screenKeepSkeletons steps, the fold forgets the
// skeletons of the oldest finished ones (fold.Fold.Trim) and keeps two
// bytes a step instead, naming a shared stand-in with what a step
// timeline, a filter, the run tree and the thread list draw (status,
// category, tool, run: fold.Fold.ForgottenStep). The screen draws those
// stand-ins in their places; one that is selected becomes a step of its
// own index whose content is read back from the file, as a shed step's is
// (app_shed.go).

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// screenKeepSkeletons is how many of its newest steps a thread keeps whole
// (their content, or the skeleton left once it is shed) when it sheds:
// about 1.5 MB a thread, against some 800 bytes a step without end.
const screenKeepSkeletons = 2048

// forgottenSteps is what the screen made of a fold's forgotten steps.
type forgottenSteps struct {
	// view is the fold's steps as the screen last drew them: stand-ins
	// for the forgotten steps, then the kept ones; its first filled are
	// stand-ins already. Only a thread that was on screen has one.
	view   []*model.Step
	filled int
	// failed is how many of the first counted forgotten steps failed,
	// for the thread list.
	counted, failed int
}

// unknownStep stands in for a forgotten step the fold has no sketch of
// (forgotten by an earlier build): its status is not known.
var unknownStep = &model.Step{Index: -1, Shed: true, Category: model.CategoryOther}

// isStandIn reports whether s stands in for a forgotten step.
func isStandIn(s *model.Step) bool { return s != nil && s.Index < 0 }

// stepsOf is f's steps as the screen draws them: one per step it made,
// stand-ins for those it forgot, so that a step's position is its Index.
func (a *App) stepsOf(f *fold.Fold) []*model.Step {
	steps, base := f.Steps(), f.StepBase()
	if base == 0 {
		return steps
	}
	fs := a.forgottenOf(f)
	n := base + len(steps)
	if n < len(fs.view) { // not seen to happen: a fold's steps only grow
		fs.view, fs.filled = nil, 0
	}
	for len(fs.view) < n {
		fs.view = append(fs.view, nil)
	}
	for ; fs.filled < base; fs.filled++ {
		s := f.ForgottenStep(fs.filled)
		if s == nil {
			s = unknownStep
		}
		fs.view[fs.filled] = s
	}
	copy(fs.view[base:], steps)
	return fs.view
}

// forgottenOf is what the screen made of f's forgotten steps so far.
func (a *App) forgottenOf(f *fold.Fold) *forgottenSteps {
	fs := a.forgotten[f]
	if fs == nil {
		fs = &forgottenSteps{}
		if a.forgotten == nil {
			a.forgotten = map[*fold.Fold]*forgottenSteps{}
		}
		a.forgotten[f] = fs
	}
	return fs
}

// failedForgotten is how many of f's forgotten steps failed.
func (a *App) failedForgotten(f *fold.Fold) int {
	base := f.StepBase()
	if base == 0 {
		return 0
	}
	fs := a.forgottenOf(f)
	for ; fs.counted < base; fs.counted++ {
		if s := f.ForgottenStep(fs.counted); s != nil && s.Status == model.StatusFailed {
			fs.failed++
		}
	}
	return fs.failed
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
