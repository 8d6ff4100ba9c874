package tui

// appMode is what drives the screen. Each mode has its own keys, help and
// footer; what differs between them is decided by switching on the mode,
// never by which of the App's mode states happens to be set.
type appMode int

const (
	// modeWatch shows one thread folded from records a source sends: live
	// while the source is open, a review once it has ended.
	modeWatch appMode = iota
	// modeThreads shows a source of many threads: the thread list, and
	// one thread at a time (App.threads).
	modeThreads
	// modeReplay plays a recorded log at its pace (App.replay).
	modeReplay
	// modeSession drives a live ACP agent: a prompt line and permission
	// dialogs (App.session).
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

// appScreen is what fills the screen: one thread, or the thread list.
type appScreen int

const (
	screenThread appScreen = iota
	screenList
)

// screen is what fills the screen now.
func (a *App) screen() appScreen {
	if a.mode == modeThreads && a.threads.listing {
		return screenList
	}
	return screenThread
}

// manyThreads reports whether the source has several threads, so the
// thread keys apply.
func (a *App) manyThreads() bool {
	switch a.mode {
	case modeReplay:
		return a.replay.player.Threads().Len() > 1
	case modeThreads:
		return a.threads.set.Len() > 1
	}
	return false
}

// manyThreadsLive reports whether a source of several threads is watched
// (not replayed): the thread list is there to go back to.
func (a *App) manyThreadsLive() bool {
	return a.mode == modeThreads && a.threads.set.Len() > 1
}
