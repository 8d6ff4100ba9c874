package tui

// This file says, in the title bar, that a file started over (it was cut
// shorter or replaced, and its threads were read again from its new start),
// and stops saying so once the file has brought new content: a note that
// stays says something that is no longer news.

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// restartNoteFor is how long a restart is told at least, so that a file
// that was cut and at once written again is seen to have been.
const restartNoteFor = 5 * time.Second

// restartNote is a source's restart, as long as the title bar tells it.
type restartNote struct {
	at time.Time
	// since says content arrived after the restart.
	since bool
}

// noteRestarts notes the restarts among batches, and the content that came
// after one.
func (a *App) noteRestarts(batches []model.Batch) {
	for _, b := range batches {
		if b.Restart {
			if a.restarts == nil {
				a.restarts = map[string]*restartNote{}
			}
			a.restarts[b.Source] = &restartNote{at: a.now()}
			continue
		}
		if n := a.restarts[b.Source]; n != nil && len(b.Records) > 0 {
			n.since = true
		}
	}
	a.dropRestarts()
}

// restartWake is how soon a note will be over by time alone (0 when none
// will): the pump wakes the screen then, to draw the title without it.
func (a *App) restartWake() time.Duration {
	var wake time.Duration
	now := a.now()
	for _, n := range a.restarts {
		if !n.since {
			continue // over only once content comes, which wakes the screen itself
		}
		if d := restartNoteFor - now.Sub(n.at); d > 0 && (wake == 0 || d < wake) {
			wake = d
		}
	}
	return wake
}

// dropRestarts forgets the notes that are over: content came after them,
// and they were shown for restartNoteFor.
func (a *App) dropRestarts() {
	now := a.now()
	for src, n := range a.restarts {
		if n.since && now.Sub(n.at) >= restartNoteFor {
			delete(a.restarts, src)
		}
	}
}

// restartText is the title bar's "run.jsonl started over (cut or replaced)"
// while a note holds ("" otherwise).
func (a *App) restartText() string {
	if len(a.restarts) == 0 {
		return ""
	}
	names := make([]string, 0, len(a.restarts))
	for src := range a.restarts {
		names = append(names, filepath.Base(src))
	}
	slices.Sort(names)
	if len(names) > 2 {
		names = append(names[:2], "…")
	}
	return strings.Join(names, ", ") + " started over (cut or replaced)"
}
