package tui

// This file is where the screen meets its window (package window), which
// decides what the screen keeps of its threads and reads back what it let
// go: the screen says where it is and what the person sees, and draws the
// rows and steps the window gives; reads come back as messages.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/window"
)

// at is where the screen is, for its window: the thread on screen (of a
// source of threads, the one a replay plays, or a live agent's session as
// a thread of its recording) and its fold, and in a replay the timeline as
// it was at the player's position.
func (a *App) at() window.At {
	at := window.At{Fold: a.fold}
	switch m := a.mode.(type) {
	case *replayMode:
		at.Thread, at.Pos = m.player.Thread(), m.player.Pos()
		at.Replay = m.player.Timeline().ReaderAt(at.Pos)
	case *sessionMode:
		at.Thread = a.recordedSession()
	case *threadsView:
		at.Thread = m.cur
	}
	return at
}

// curThread is the thread on screen (nil when the screen shows a bare
// fold).
func (a *App) curThread() *fold.Thread { return a.at().Thread }

// recordedSession is a live agent's session as the thread it is in its
// recording (--record), where what the screen let go is read back from.
// Nil without a recording.
func (a *App) recordedSession() *fold.Thread {
	g, ok := a.mode.(*sessionMode)
	if !ok {
		return nil
	}
	g.thread = a.win.Session(a.fold, g.thread)
	return g.thread
}

// lookingBack reports whether the person looks back in the thread on
// screen (the selection or the transcript away from the newest): what they
// look at is not let go.
func (a *App) lookingBack() bool { return !(a.following && a.transcript.Following()) }

// trimThreads trims the touched threads to what the window keeps; the one
// on screen only while the person does not look back in it.
func (a *App) trimThreads(tv *threadsView, touched []*fold.Thread) {
	for _, th := range touched {
		looking := th == tv.cur && a.lookingBack()
		a.archiveBeforeTrim(th.Fold, looking)
		if a.win.Trim(window.At{Thread: th, Fold: th.Fold}, looking) && th == tv.cur {
			a.refresh()
		}
	}
}

// checkpoint hands a checkpoint of the threads on when a file is read to
// its end (window.Checkpoint).
func (a *App) checkpoint() {
	if tv, ok := a.mode.(*threadsView); ok {
		a.win.Checkpoint(tv.set)
	}
}

// droppedNote is the title bar's "12,345 earlier items not kept" for the
// thread on screen ("" when nothing was let go), with "· 2,000 read back"
// while a window of them read back is shown.
func (a *App) droppedNote() string {
	n, back := a.win.Dropped(a.at())
	if n == 0 {
		return ""
	}
	note := count(n, "earlier item", "earlier items") + " not kept"
	if back > 0 {
		note += " · " + thousands(back) + " read back"
	}
	return note
}

// shownStep is the selected step as the panel shows it: read back whole
// when its content was let go and has been read back.
func (a *App) shownStep() *model.Step { return a.win.Shown(a.at(), a.step()) }

// readBackNote says where the selected step's content is when it was let
// go: being read back, or why it cannot be ("" otherwise).
func (a *App) readBackNote() string { return a.win.StepNote(a.at(), a.step()) }

// readStepCmd reads the selected step back when its content was let go
// and it is neither read back nor being read.
func (a *App) readStepCmd() tea.Cmd {
	job := a.win.WantStep(a.at(), a.step())
	if job == nil {
		return nil
	}
	return func() tea.Msg { return job() }
}

// readItemsCmd reads items back when the person went to some that were let
// go: the selected step's row, or a gap row in view.
func (a *App) readItemsCmd() tea.Cmd {
	s := window.Sight{Selected: -1, Following: a.following, Drawn: a.geo.transcript.h > 0}
	if st := a.step(); st != nil {
		s.Selected, s.ToolCallID, s.HasRow = a.selected, st.ToolCallID, a.transcript.HasStep(a.selected)
	}
	s.GapSeq, s.Below, s.GapOK = a.transcript.GapInView()
	job := a.win.WantItems(a.at(), s)
	if job == nil {
		return nil
	}
	a.refresh() // the gap row says it is reading
	return func() tea.Msg { return job() }
}

// onReadItems shows items read back, keeping the rows in view where they
// were.
func (a *App) onReadItems(m window.ItemsReadMsg) {
	shown, step, err := a.win.TookItems(a.at(), m)
	if !shown {
		return
	}
	mark := a.transcript.MarkView()
	a.refresh()
	if err == nil {
		a.transcript.ReturnTo(mark) // (a gap row that says why stays where it is)
	}
	if step >= 0 && step == a.selected {
		a.transcript.ShowStep(a.selected)
	}
}

// stepsOf is f's steps as the screen draws them: stand-ins for those the
// fold forgot (window.Steps).
func (a *App) stepsOf(f *fold.Fold) []*model.Step { return a.win.Steps(f) }

// gapAt reports whether seq is a gap row's, and retryGap lets a gap whose
// read failed be read again.
func (a *App) gapAt(seq uint64) bool { return a.win.IsGap(a.at(), seq) }

func (a *App) retryGap(seq uint64) {
	if a.win.RetryGap(a.at(), seq) {
		a.refresh()
	}
}
