package window

// This file gives the steps of a thread that makes steps without end.
// Past Keep.Skeletons steps, the fold forgets the skeletons of the oldest
// finished ones and keeps two bytes a step instead, naming a shared
// stand-in with what a step timeline, a filter, the run tree and the
// thread list draw (status, category, tool, run: fold.Fold.ForgottenStep).
// The window gives those stand-ins in their places; one that is selected
// becomes a step of its own index whose content is read back, as a shed
// step's is (stepread.go).

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// forgottenSteps is what the window made of a fold's forgotten steps.
type forgottenSteps struct {
	// view is the fold's steps as last given: stand-ins for the forgotten
	// steps, then the kept ones; its first filled are stand-ins already.
	view   []*model.Step
	filled int
	// failed is how many of the first counted forgotten steps failed,
	// for the thread list.
	counted, failed int
}

// unknownStep stands in for a forgotten step the fold has no sketch of
// (forgotten by an earlier build): its status is not known.
var unknownStep = &model.Step{Index: -1, Shed: true, Category: model.CategoryOther}

// IsStandIn reports whether s stands in for a forgotten step.
func IsStandIn(s *model.Step) bool { return s != nil && s.Index < 0 }

// Steps is f's steps as a view draws them: one per step it made, stand-ins
// for those it forgot, so that a step's position is its Index. The list is
// the window's own (or the fold's): read it only.
func (w *Window) Steps(f *fold.Fold) []*model.Step {
	steps, base := f.Steps(), f.StepBase()
	if base == 0 {
		return steps
	}
	fs := w.forgottenOf(f)
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

// forgottenOf is what the window made of f's forgotten steps so far.
func (w *Window) forgottenOf(f *fold.Fold) *forgottenSteps {
	fs := w.forgotten[f]
	if fs == nil {
		fs = &forgottenSteps{}
		if w.forgotten == nil {
			w.forgotten = map[*fold.Fold]*forgottenSteps{}
		}
		w.forgotten[f] = fs
	}
	return fs
}

// FailedForgotten is how many of f's forgotten steps failed.
func (w *Window) FailedForgotten(f *fold.Fold) int {
	base := f.StepBase()
	if base == 0 {
		return 0
	}
	fs := w.forgottenOf(f)
	for ; fs.counted < base; fs.counted++ {
		if s := f.ForgottenStep(fs.counted); s != nil && s.Status == model.StatusFailed {
			fs.failed++
		}
	}
	return fs.failed
}

// StandIn is step i of fold f, which stand-in s stands for: a step of its
// own index with what the stand-in knows, its content not kept (it is read
// back). The last one made is kept, so that the selected step stays the
// same object from frame to frame.
func (w *Window) StandIn(f *fold.Fold, i int, s *model.Step) *model.Step {
	if c := w.standIn; c != nil && c.Index == i && c.Status == s.Status && c.Category == s.Category &&
		c.RunID == s.RunID && c.ToolName == s.ToolName && w.standInOf == f {
		return c
	}
	c := *s
	c.Index = i
	w.standIn, w.standInOf = &c, f
	return w.standIn
}
