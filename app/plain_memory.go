package app

import (
	"math"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/tui"
)

// plainLimits say what --plain keeps of each thread once its lines are
// printed.
type plainLimits struct {
	// keep is what a thread's fold keeps once it holds 2×keep.Items items
	// (Fold.Trim): the newest finished items, the content of the steps
	// whose lines may still change (a message still streaming, a step
	// still running, a late result), the skeletons of the newest steps,
	// and the tombstones the trim before made.
	keep fold.Keep
	// A thread that got no record while retireAfter records went to others
	// is retired (keepRetired): a server's log of many conversations holds
	// what the active ones need, not a trace of every conversation it ever
	// had. Threads are looked at every retireEvery records.
	retireAfter, retireEvery uint64
}

// plainDefaults bound what a --plain of a log that never ends holds.
var plainDefaults = plainLimits{
	keep:        fold.Keep{Items: 256, Content: 64, Skeletons: 256, Tombstones: fold.TombstonesRecent},
	retireAfter: 50_000,
	retireEvery: 4096,
}

// keepRetired is what a retired thread keeps: the zero Keep, nothing
// finished and no tombstone; what is open, its state and runs stay.
var keepRetired = fold.Keep{}

// plainKeepAll keeps everything: what the bounded printer's lines are
// tested against. (Its Items is half the largest int, so twice it is
// still one: the fold is never trimmed.)
var plainKeepAll = plainLimits{keep: fold.Keep{Items: math.MaxInt / 2}, retireAfter: math.MaxUint64, retireEvery: math.MaxUint64}

// shed trims f once it holds 2×keep.Items items and reports whether it
// did; the printer then forgets what it remembers of what went.
func (l plainLimits) shed(f *fold.Fold) bool {
	if len(f.Items()) < 2*l.keep.Items {
		return false
	}
	f.Trim(l.keep)
	return true
}

// plainMemory bounds what --plain holds of the threads it prints.
type plainMemory struct {
	plainLimits
	p *tui.ThreadsPrinter
	// seen counts the records printed; last is when each thread not
	// retired got its last one.
	seen uint64
	last map[*fold.Thread]uint64
	// retired counts the threads retired.
	retired int
	// giveBack returns what a burst left to the system when the source
	// goes quiet (plain_idle.go).
	giveBack plainGiveBack
}

func newPlainMemory(l plainLimits) *plainMemory {
	return &plainMemory{plainLimits: l, last: map[*fold.Thread]uint64{}, giveBack: newPlainGiveBack()}
}

// printed is called after each record's lines are printed, with its
// updates.
func (m *plainMemory) printed(ups []fold.ThreadUpdate) {
	m.seen++
	for _, u := range ups {
		m.last[u.Thread] = m.seen
		if m.shed(u.Thread.Fold) {
			m.p.Forget(u.Thread)
		}
	}
	if m.seen%m.retireEvery != 0 {
		return
	}
	for th, at := range m.last {
		if m.seen-at >= m.retireAfter {
			th.Fold.Trim(keepRetired)
			m.retired++
			m.p.Forget(th)
			delete(m.last, th)
		}
	}
}

// dropped forgets threads a source that started over dropped.
func (m *plainMemory) dropped(gone []*fold.Thread) {
	for _, th := range gone {
		delete(m.last, th)
	}
}
