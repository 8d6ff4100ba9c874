package tui

// appMode names what drives the screen. Each mode has its own keys, help
// and footer; what differs between them is decided by the mode's state,
// which exists only while the screen is in that mode (modeState).
type appMode int

const (
	// modeWatch shows one thread folded from records a source sends: live
	// while the source is open, a review once it has ended.
	modeWatch appMode = iota
	// modeThreads shows a source of many threads: the thread list, and
	// one thread at a time (threadsView).
	modeThreads
	// modeReplay plays a recorded log at its pace (replayMode).
	modeReplay
	// modeSession drives a live ACP agent: a prompt line and permission
	// dialogs (sessionMode).
	modeSession
)

var appModeNames = [...]string{"watch", "threads", "replay", "session"}

// String names the mode, for tests and logs.
func (m appMode) String() string {
	if m < 0 || int(m) >= len(appModeNames) {
		return "unknown"
	}
	return appModeNames[m]
}

// modeState is the state of the mode the screen is in, and nothing else:
// a replay's player, a session's prompt line and a thread list's threads
// are each reached by asking the App's mode for its own type, so no code
// can read one mode's state while another is on.
type modeState interface {
	// kind names the mode.
	kind() appMode
}

// watchMode is the state of modeWatch: the App's own fields are all it
// needs.
type watchMode struct{}

func (watchMode) kind() appMode      { return modeWatch }
func (*threadsView) kind() appMode   { return modeThreads }
func (*replayMode) kind() appMode    { return modeReplay }
func (*sessionMode) kind() appMode   { return modeSession }
func (a *App) modeIs(m appMode) bool { return a.mode.kind() == m }

// appScreen is what fills the screen: one thread, or the thread list.
type appScreen int

const (
	screenThread appScreen = iota
	screenList
)

// screen is what fills the screen now.
func (a *App) screen() appScreen {
	if tv, ok := a.mode.(*threadsView); ok && tv.listing {
		return screenList
	}
	return screenThread
}

// manyThreads reports whether the source has several threads, so the
// thread keys apply.
func (a *App) manyThreads() bool {
	switch m := a.mode.(type) {
	case *replayMode:
		return m.player.Threads().Len() > 1
	case *threadsView:
		return m.set.Len() > 1
	}
	return false
}

// manyThreadsLive reports whether a source of several threads is watched
// (not replayed): the thread list is there to go back to.
func (a *App) manyThreadsLive() bool {
	tv, ok := a.mode.(*threadsView)
	return ok && tv.total() > 1
}
