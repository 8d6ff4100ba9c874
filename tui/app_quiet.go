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
// screen to redraw the quiet time: until the source has been quiet for
// quietAfter, then every quietTick. 0 (no wake) before anything arrived
// and for a replay.
func (a *App) quietWake() time.Duration {
	if a.modeIs(modeReplay) || a.heard.IsZero() {
		return 0
	}
	if d := quietAfter - a.now().Sub(a.heard); d > 0 {
		return d
	}
	return quietTick
}

// quiet is the title bar's note on a live source that has sent nothing for
// quietAfter or more ("" otherwise).
func (a *App) quiet() string {
	if a.done || a.heard.IsZero() {
		return ""
	}
	d := a.now().Sub(a.heard)
	if d < quietAfter {
		return ""
	}
	return "quiet " + d.Truncate(time.Second).String()
}
