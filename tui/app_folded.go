package tui

// This file takes up where an earlier screen of the same source left off:
// a screen of threads that has folded nothing yet shows the fold it is
// given, and folds on from it what arrives.

import (
	"github.com/agentwatch/agentwatch/fold"
)

// TakenUpMsg gives a screen of threads that has folded nothing yet the
// fold an earlier screen of the same source left off with: the screen
// shows it, and folds on from it what arrives.
type TakenUpMsg struct{ Threads *fold.Threads }

// takeUp shows ts instead of the empty set the screen started with; a
// screen that already folded something keeps what it has.
func (a *App) takeUp(ts *fold.Threads) {
	tv, ok := a.mode.(*threadsView)
	if ts == nil || !ok || tv.set.Len() > 0 || a.win.FoldedAny() {
		return
	}
	tv.set = ts
	a.afterThreads(tv, nil, nil)
}

// Threads is the fold the screen shows: for keeping where it left off,
// after it quit.
func (a *App) Threads() *fold.Threads {
	if tv, ok := a.mode.(*threadsView); ok {
		return tv.set
	}
	return nil
}
