package tui

import (
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// foldedTo is how far the threads have folded one file source.
type foldedTo struct {
	end int64  // the file's bytes before end
	seq uint64 // records up to seq
	// known is false while the last records folded came without their
	// end (a batch cut in two); restarted stays true once the source
	// started over, whose records are then no longer the file's in order.
	known, restarted bool
}

// noteFolded keeps how far b's source is folded once b is.
func (a *App) noteFolded(b model.Batch) {
	if a.folded == nil {
		a.folded = map[string]foldedTo{}
	}
	f := a.folded[b.Source]
	if b.Restart {
		f.restarted = true
	}
	if n := len(b.Records); n > 0 {
		f.known = b.End > 0
		f.end, f.seq = b.End, b.Records[n-1].Seq
	}
	a.folded[b.Source] = f
}

// foldedUpTo says how far the threads have folded a file source: its
// bytes before end, which held records 1 to seq. ok is false when that is
// not known: nothing folded yet, a source that is not a file, one that
// started over (truncated or replaced), or the middle of a burst.
func (a *App) foldedUpTo(source string) (end int64, seq uint64, ok bool) {
	f, found := a.folded[source]
	if !found || !f.known || f.restarted {
		return 0, 0, false
	}
	return f.end, f.seq, true
}

// TakenUpMsg gives a screen of threads that has folded nothing yet the
// fold an earlier screen of the same source left off with: the screen
// shows it, and folds on from it what arrives.
type TakenUpMsg struct{ Threads *fold.Threads }

// takeUp shows ts instead of the empty set the screen started with; a
// screen that already folded something keeps what it has.
func (a *App) takeUp(ts *fold.Threads) {
	tv, ok := a.mode.(*threadsView)
	if ts == nil || !ok || tv.set.Len() > 0 || len(a.folded) > 0 {
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

// keepEvery is the least time between two checkpoints given to Keep.
const keepEvery = 30 * time.Second

// keepGrowth is how much a source must have grown since the end last
// given to Keep, as a share of that end, before it is given again: a
// checkpoint costs time in proportion to the fold, and one that is older
// by this share only makes the next open fold that much more.
const keepGrowth = 8 // an eighth

// keepFolded gives Keep a checkpoint of the threads when a file source is
// read to its end and folded, the first time and then once it has grown
// by an eighth, at most every keepEvery.
func (a *App) keepFolded() {
	tv, ok := a.mode.(*threadsView)
	if a.opts.Keep == nil || !ok {
		return
	}
	now := a.now()
	if !a.keptAt.IsZero() && now.Sub(a.keptAt) < keepEvery {
		return
	}
	for source := range a.folded {
		end, seq, ok := a.foldedUpTo(source)
		p, reading := a.progress[source]
		if !ok || !reading || p.read < p.size {
			continue
		}
		if last, was := a.kept[source]; was && end-last < max(last/keepGrowth, 1) {
			continue
		}
		if a.kept == nil {
			a.kept = map[string]int64{}
		}
		a.kept[source], a.keptAt = end, now
		a.opts.Keep(source, tv.set.Checkpoint(), end, seq)
	}
}
