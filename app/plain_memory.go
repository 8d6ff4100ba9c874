package app

import (
	"math"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/tui"
)

// plainLimits say what --plain keeps of each thread once its lines are
// printed.
type plainLimits struct {
	// A thread's fold sheds when it holds 2×keepItems items, keeping the
	// newest keepItems finished items and the content of the newest
	// keepContent steps (the lines that may still change: a message still
	// streaming, a step still running, a late result), then forgets what
	// shedding left of all but the newest keepSteps steps, and the
	// tombstones of older sheds (Fold.Forget).
	keepItems, keepContent, keepSteps int
	// A thread that got no record while retireAfter records went to others
	// is retired (Fold.Retire): a server's log of many conversations holds
	// what the active ones need, not a trace of every conversation it ever
	// had. Threads are looked at every retireEvery records.
	retireAfter, retireEvery uint64
}

// plainDefaults bound what a --plain of a log that never ends holds.
var plainDefaults = plainLimits{keepItems: 256, keepContent: 64, keepSteps: 256, retireAfter: 50_000, retireEvery: 4096}

// plainKeepAll keeps everything: what the bounded printer's lines are
// tested against.
var plainKeepAll = plainLimits{keepItems: math.MaxInt / 2, retireAfter: math.MaxUint64, retireEvery: math.MaxUint64}

// shed sheds f once it holds 2×keepItems items and reports whether it
// did; the printer then forgets what it remembers of what went.
func (l plainLimits) shed(f *fold.Fold) bool {
	if len(f.Items()) < 2*l.keepItems {
		return false
	}
	f.Shed(l.keepItems, l.keepContent)
	f.Forget(l.keepSteps)
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
}

func newPlainMemory(l plainLimits) *plainMemory {
	return &plainMemory{plainLimits: l, last: map[*fold.Thread]uint64{}}
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
			th.Fold.Retire()
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
