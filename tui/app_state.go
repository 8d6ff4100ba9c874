package tui

// This file decides what the screen says of its source and the thread on
// it: the one place the words ● LIVE, ◌ watching, ◼ ended, ○ finished,
// ▶ replaying, ❚❚ paused and "quiet 12s" come from. The title bar, the
// panel's header, the timeline's button, the computer cards and the
// thread list all ask here, so no two of them can disagree, and none of
// them says what was true when the source was opened rather than now.

import (
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// stateWord is what the screen says of the thread on it and its source.
type stateWord int

const (
	// wordLive: a run is open and the source can still bring events.
	wordLive stateWord = iota
	// wordWatching: the source is followed and can bring events, and no
	// run is open: a finished log, watched in case it grows.
	wordWatching
	// wordEnded: the source closed (a stream ended, an agent exited)
	// while a run was still open: nothing will finish it.
	wordEnded
	// wordFinished: the source closed and every run had finished.
	wordFinished
	// wordPlaying and wordPaused: a replay, at its position.
	wordPlaying
	wordPaused
)

// mark is the word as the screen draws it, and its colour.
func (w stateWord) mark() (text, sgr string) {
	switch w {
	case wordLive:
		return "● LIVE", styles.Live
	case wordWatching:
		return "◌ watching", styles.Faint
	case wordEnded:
		return "◼ ended", styles.Attention
	case wordFinished:
		return "○ finished", styles.Faint
	case wordPlaying:
		return "▶ replaying", styles.Live
	}
	return "❚❚ paused", styles.Faint
}

// sourceOpen reports whether the source can still bring events: it has not
// closed, and it is not a replay (whose player brings only what the log
// holds).
func (a *App) sourceOpen() bool { return !a.done }

// state is the word for the thread on screen now.
func (a *App) state() stateWord {
	if r, ok := a.mode.(*replayMode); ok {
		if r.player.Playing() {
			return wordPlaying
		}
		return wordPaused
	}
	return wordFor(a.sourceOpen(), a.runOpen())
}

// wordFor is the word for a thread whose source is open or not, with a
// run open or not.
func wordFor(sourceOpen, runOpen bool) stateWord {
	switch {
	case sourceOpen && runOpen:
		return wordLive
	case sourceOpen:
		return wordWatching
	case runOpen:
		return wordEnded
	}
	return wordFinished
}

// runOpen reports whether a run of the thread on screen is still open. A
// live agent's session counts as open while its agent is connected; a
// session of an agent's folder whose agent gave its state (app_agents.go),
// while the agent works on it or waits for the person, whatever run its
// file left open; a
// source without runs counts as open while it is (nothing says its
// conversation ended).
func (a *App) runOpen() bool {
	if _, ok := a.mode.(*sessionMode); ok {
		return a.sourceOpen()
	}
	if tv, ok := a.mode.(*threadsView); ok && tv.cur != nil && a.sourceOpen() {
		if s := tv.agentStateNow(tv.cur); s.Known() {
			return s.Busy() // the agent's word, not a run its file left open
		}
	}
	if len(a.fold.Runs()) == 0 {
		return a.sourceOpen()
	}
	return anyRunOpen(a.fold)
}

// anyRunOpen reports whether one of f's runs has not finished. Runs finish
// mostly in the order they started, so the newest are looked at first.
func anyRunOpen(f *fold.Fold) bool {
	runs := f.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if !runs[i].Status.Done() {
			return true
		}
	}
	return false
}

// listWord is the word for a source of many threads as a whole, for the
// thread list's title: live while it is open and one of its threads has a
// run open (for an agent's session: while the agent works on it or waits
// for the person).
func (a *App) listWord(tv *threadsView) stateWord {
	open := false
	for th, c := range tv.rows {
		if s := tv.agentStateNow(th); s.Known() {
			open = open || s.Busy()
		} else {
			open = open || c.open
		}
	}
	return wordFor(a.sourceOpen(), open)
}

// heardFrom notes the source's last event after records arrived from it:
// the newest time they carry (never later than now). A record without a
// time is an event of now when it comes from a stream; from a file it
// carries a time when it was appended while watched, and none when the
// file held it before anyone looked (sources.Tail), which says nothing of
// when it was written.
func (a *App) heardFrom(recs []model.Record, file bool) {
	now := a.now()
	last := a.heard
	for i := range recs {
		at := recs[i].At
		if at.IsZero() && !file {
			at = now
		}
		if at.After(last) {
			last = at
		}
	}
	if last.After(now) {
		last = now
	}
	a.heard = last
}

// quietFor is how long the source has sent nothing, when that is worth
// saying: it is open, its last event is known, and it was quietAfter or
// more ago.
func (a *App) quietFor() (time.Duration, bool) {
	if !a.sourceOpen() || a.heard.IsZero() {
		return 0, false
	}
	d := a.now().Sub(a.heard)
	return d, d >= quietAfter
}

// quiet is the title bar's "quiet 12s" ("" when quietFor says nothing).
func (a *App) quiet() string {
	d, ok := a.quietFor()
	if !ok {
		return ""
	}
	return "quiet " + shortDuration(d)
}

// shortDuration is d as a person reads it at a glance: 12s, 4m, 3h 5m, 92d.
func shortDuration(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return strconv.FormatInt(s/60, 10) + "m"
	case s < 48*3600:
		return strconv.FormatInt(s/3600, 10) + "h " + strconv.FormatInt(s%3600/60, 10) + "m"
	}
	return strconv.FormatInt(s/86400, 10) + "d"
}

// titleNotes is what a title bar says after its names: the state word
// (when not ""), the source's own words, how far a file is read or else
// how long the source has been quiet, and a file that started over.
func (a *App) titleNotes(word string) string {
	s := ""
	if word != "" {
		s += " · " + word
	}
	if a.sourceStatus != "" {
		s += " · " + a.sourceStatus
	}
	if rd := a.readingNote(); rd != "" {
		s += " · " + rd
	} else if q := a.quiet(); q != "" {
		s += " · " + q
	}
	if r := a.restartText(); r != "" {
		s += " · " + r
	}
	return s
}
