package tui

// This file keeps the screen's memory bounded by what it shows: once a
// thread holds far more than a screen, it is trimmed (fold.Fold.Trim,
// keepScreen): its oldest finished items and the content of its older
// steps are shed, and the tombstones of older trims and the oldest steps'
// skeletons forgotten (app_forgotten.go); the title bar says
// how many items are not kept, and a shed step that is selected is read
// back from the source's file (AppOptions.ReadBack) when it has one; the
// shed items themselves come back as a person goes to them (app_gaps.go).

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// What a thread keeps: the newest screenKeepItems items and the content of
// the newest screenKeepSteps steps. It sheds when it holds twice that many
// items, so shedding costs little however fast records come.
const (
	screenKeepItems = 2000
	screenKeepSteps = 256
)

// keepScreen is what a thread keeps when it is trimmed: the items and the
// steps' content above, the skeletons of its newest screenKeepSkeletons
// steps (app_forgotten.go), and the tombstones the trim before made.
var keepScreen = fold.Keep{
	Items:      screenKeepItems,
	Content:    screenKeepSteps,
	Skeletons:  screenKeepSkeletons,
	Tombstones: fold.TombstonesRecent,
}

// readBackKey names a step read back: its thread and index.
type readBackKey struct {
	source, thread string
	index          int
}

// readBackMsg brings a step read back from its file, or why it could not be.
type readBackMsg struct {
	key  readBackKey
	step *model.Step
	err  error
}

// shedThreads sheds the touched threads that have grown past twice what
// the screen keeps. The thread on screen is shed only while it follows the
// newest step and the transcript its bottom: a person looking back keeps
// what they look at.
func (a *App) shedThreads(tv *threadsView, touched []*fold.Thread) {
	for _, th := range touched {
		if th == tv.cur && !(a.following && a.transcript.Following()) {
			continue
		}
		if len(th.Fold.Items()) < 2*screenKeepItems {
			continue
		}
		th.Fold.Trim(keepScreen)
		delete(a.shedViews, viewKey{th: th}) // what was read back is far from what is kept now
		if th == tv.cur {
			a.refresh()
		}
	}
}

// shedSession sheds the one fold of a live agent's session (or of any
// one-fold screen) as shedThreads sheds a thread: once it holds twice what
// the screen keeps, and only while the screen follows the newest step and
// the transcript its bottom. The title bar says how much is not kept; a
// session recorded to a file (--record) reads it back from there. The
// caller refreshes.
func (a *App) shedSession() {
	f := a.fold
	if !(a.following && a.transcript.Following()) || len(f.Items()) < 2*screenKeepItems {
		return
	}
	f.Trim(keepScreen)
	delete(a.shedViews, a.viewKeyOf(a.curThread())) // what was read back is far from what is kept now
}

// droppedNote is the title bar's "12,345 earlier items not kept" for the
// thread on screen ("" when nothing was shed), with "· 2,000 read back"
// while a window of them read back from the file is shown.
func (a *App) droppedNote() string {
	n := a.fold.Shedded().Items
	if n == 0 {
		return ""
	}
	note := count(n, "earlier item", "earlier items") + " not kept"
	if v := a.shedViewOf(false); v != nil && len(v.window) > 0 {
		note += " · " + thousands(len(v.window)) + " read back"
	}
	return note
}

// readBackKeyOf is the key of step s of the thread on screen: of a source
// of threads, or of a live agent's session in its recording (ok false
// otherwise).
func (a *App) readBackKeyOf(s *model.Step) (readBackKey, bool) {
	var th *fold.Thread
	switch m := a.mode.(type) {
	case *threadsView:
		th = m.cur
	case *sessionMode:
		th = a.recordedSession()
	}
	if th == nil {
		return readBackKey{}, false
	}
	return readBackKey{source: th.Source, thread: th.ID, index: s.Index}, true
}

// recordedSession is a live agent's session as the thread it is in its
// recording (--record), where what the screen shed is read back from:
// the same records, so the same items and steps. Nil without a recording.
func (a *App) recordedSession() *fold.Thread {
	g, ok := a.mode.(*sessionMode)
	if !ok || a.opts.Recording == "" {
		return nil
	}
	if id := a.fold.Session().ID; g.thread == nil || g.thread.ID != id || g.thread.Fold != a.fold {
		g.thread = &fold.Thread{Source: a.opts.Recording, ID: id, Fold: a.fold}
	}
	return g.thread
}

// shownStep is the selected step as the panel shows it: read back from its
// file when its content was shed and has been read back.
func (a *App) shownStep() *model.Step {
	s := a.step()
	if s == nil || !s.Shed {
		return s
	}
	if k, ok := a.readBackKeyOf(s); ok {
		if r := a.readBack[k]; r != nil && r.step != nil {
			return r.step
		}
	}
	return s
}

// readBackNote says where the selected shed step's content is: being read
// back, or why it cannot be ("" when it is not shed or is back).
func (a *App) readBackNote() string {
	s := a.step()
	if s == nil || !s.Shed {
		return ""
	}
	k, ok := a.readBackKeyOf(s)
	switch {
	case (!ok || a.opts.ReadBack == nil) && a.opts.Recording != "":
		return "step " + strconv.Itoa(s.Index+1) + "'s content was not kept on screen; the recording has it (agentwatch replay " + Plain(a.opts.Recording) + ")"
	case !ok || a.opts.ReadBack == nil:
		return "step " + strconv.Itoa(s.Index+1) + "'s content was not kept (a stream; --record FILE keeps one)"
	}
	switch r := a.readBack[k]; {
	case r == nil:
		return "reading step " + strconv.Itoa(s.Index+1) + " back from the file…"
	case r.err != nil:
		return "step " + strconv.Itoa(s.Index+1) + "'s content was not kept, and reading it back failed: " + r.err.Error()
	}
	return ""
}

// readBackCmd reads the selected step back when its content was shed and
// it is not read back or being read yet.
func (a *App) readBackCmd() tea.Cmd {
	s := a.step()
	if s == nil || !s.Shed || a.opts.ReadBack == nil {
		return nil
	}
	k, ok := a.readBackKeyOf(s)
	if !ok {
		return nil
	}
	if _, asked := a.readBack[k]; asked {
		return nil
	}
	if a.readBack == nil || len(a.readBack) > 64 {
		a.readBack = map[readBackKey]*readBackMsg{} // a few are enough: they are read again on demand
	}
	a.readBack[k] = nil
	read, callID := a.opts.ReadBack, s.ToolCallID
	return func() tea.Msg {
		step, err := read(k.source, k.thread, k.index, callID)
		return readBackMsg{key: k, step: step, err: err}
	}
}

// onReadBack keeps a step read back.
func (a *App) onReadBack(m readBackMsg) {
	if a.readBack == nil {
		a.readBack = map[readBackKey]*readBackMsg{}
	}
	a.readBack[m.key] = &m
	a.panelCache = panelCache{}
}
