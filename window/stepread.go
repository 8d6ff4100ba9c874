package window

// This file reads back a selected step whose content the window let go:
// through the source's Reader, off the view's goroutine, as a StepReadMsg.
// A live agent's session is read back from its recording (--record), as
// the session's thread there: the same records, so the same steps.

import (
	"strconv"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
)

// StepKey names a step read back: its thread and index.
type StepKey struct {
	Source, Thread string
	Index          int
}

// StepReadMsg brings a step read back, or why it could not be.
type StepReadMsg struct {
	Key  StepKey
	Step *model.Step
	Err  error
}

// stepReadsKept bounds the steps kept read back: a few are enough, they
// are read again when wanted.
const stepReadsKept = 64

// stepKey is the key of step s of the thread at at (ok false when the
// thread is not one whose steps can be read back).
func stepKey(at At, s *model.Step) (StepKey, bool) {
	if at.Thread == nil {
		return StepKey{}, false
	}
	return StepKey{Source: at.Thread.Source, Thread: at.Thread.ID, Index: s.Index}, true
}

// Shown is step s of the thread at at as a view shows it: read back whole
// when its content was let go and has been read back.
func (w *Window) Shown(at At, s *model.Step) *model.Step {
	if s == nil || !s.Shed {
		return s
	}
	if k, ok := stepKey(at, s); ok {
		if r := w.stepReads[k]; r != nil && r.Step != nil {
			return r.Step
		}
	}
	return s
}

// StepNote says where step s's content is when it was let go: being read
// back, or why it cannot be ("" when it was kept or is back).
func (w *Window) StepNote(at At, s *model.Step) string {
	if s == nil || !s.Shed {
		return ""
	}
	k, ok := stepKey(at, s)
	n := strconv.Itoa(s.Index + 1)
	readable := ok && w.stepReader(at) != nil
	switch {
	case !readable && w.opts.Recording != "":
		return "step " + n + "'s content was not kept on screen; the recording has it (agentwatch replay " + sanitize.Plain(w.opts.Recording) + ")"
	case !readable:
		return "step " + n + "'s content was not kept (a stream; --record FILE keeps one)"
	}
	switch r := w.stepReads[k]; {
	case r == nil:
		return "reading step " + n + " back from the file…"
	case r.Err != nil:
		return "step " + n + "'s content was not kept, and reading it back failed: " + r.Err.Error()
	}
	return ""
}

// stepReader is how steps of the thread at at are read back whole: from
// its source (a replay keeps every step whole, so none is read back from
// it). Nil when they cannot be.
func (w *Window) stepReader(at At) Reader {
	if at.Replay != nil || at.Thread == nil || w.opts.Reader == nil {
		return nil
	}
	return w.reader(at)
}

// WantStep is the read of step s of the thread at at, when its content was
// let go and it is neither read back nor being read yet (nil otherwise).
func (w *Window) WantStep(at At, s *model.Step) func() StepReadMsg {
	if s == nil || !s.Shed {
		return nil
	}
	read := w.stepReader(at)
	k, ok := stepKey(at, s)
	if read == nil || !ok {
		return nil
	}
	if _, asked := w.stepReads[k]; asked {
		return nil
	}
	if w.stepReads == nil || len(w.stepReads) > stepReadsKept {
		w.stepReads = map[StepKey]*StepReadMsg{}
	}
	w.stepReads[k] = nil
	callID := s.ToolCallID
	return func() StepReadMsg {
		step, err := read.Step(k.Thread, k.Index, callID)
		return StepReadMsg{Key: k, Step: step, Err: err}
	}
}

// TookStep keeps a step read back.
func (w *Window) TookStep(m StepReadMsg) {
	if w.stepReads == nil {
		w.stepReads = map[StepKey]*StepReadMsg{}
	}
	w.stepReads[m.Key] = &m
}

// Session is a live agent's session of fold f as the thread it is in its
// recording, where what the window let go is read back from: the same
// records, so the same items and steps. Nil without a recording. The same
// thread is given as long as the session and its fold are the same.
func (w *Window) Session(f *fold.Fold, last *fold.Thread) *fold.Thread {
	if w.opts.Recording == "" {
		return nil
	}
	if id := f.Session().ID; last == nil || last.ID != id || last.Fold != f {
		return &fold.Thread{Source: w.opts.Recording, ID: id, Fold: f}
	}
	return last
}
