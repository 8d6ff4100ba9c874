package tui

// This file says how long a live source has been quiet: a stream that
// sends nothing for a while shows "quiet 12s" in the title bar, so a
// stalled agent is told from a slow one.

import (
	"time"
)

const (
	// quietAfter is how long a live source may send nothing before the
	// title bar says so.
	quietAfter = 5 * time.Second
	// quietTick is how often the quiet time is drawn again: once a second,
	// and only while the source is live.
	quietTick = time.Second
)

// quietTickMsg says the live source sent nothing for a while: the screen
// redraws its quiet time and waits again.
type quietTickMsg struct{}

// quietWake is how long the pump waits for records before it wakes the
// screen to redraw what time alone changes: the quiet time, and a note of
// a file that started over (app_restart.go). 0 is no wake.
func (a *App) quietWake() time.Duration {
	w, r := a.quietRedraw(), a.restartWake()
	if r > 0 && (w == 0 || r < w) {
		w = r
	}
	return w
}

// quietRedraw is how long until the quiet time says other words: until the
// source has been quiet for quietAfter, then until the words change (each
// second, then each minute, then each hour). 0 when the last event is not
// known, when the source has ended, and for a replay.
func (a *App) quietRedraw() time.Duration {
	if a.modeIs(modeReplay) || a.heard.IsZero() || !a.sourceOpen() {
		return 0
	}
	d := a.now().Sub(a.heard)
	if d < quietAfter {
		return quietAfter - d
	}
	step := quietTick
	switch {
	case d >= 48*time.Hour:
		step = time.Hour
	case d >= time.Minute:
		step = time.Minute
	}
	return step - d%step
}
