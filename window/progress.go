package window

// This file keeps how far each file source has been read and folded: the
// view says "reading 45 MB of 126 MB" until a file is read to its end, and
// a checkpoint of the threads is handed on (Options.Checkpoint) when it is,
// so the next view of that file takes up where this one left off.

import (
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// progress is how far one source has been read.
type progress struct{ read, size int64 }

// foldedTo is how far the threads have folded one file source.
type foldedTo struct {
	end int64  // the file's bytes before end
	seq uint64 // records up to seq
	// known is false while the last records folded came without their
	// end (a batch cut in two); restarted stays true once the source
	// started over, whose records are then no longer the file's in order.
	known, restarted bool
}

// Read notes that b was read and folded: how far its source is read, how
// far the threads fold it, and what they folded of a file (had.go).
func (w *Window) Read(b model.Batch) {
	w.noteProgress(b)
	w.noteFolded(b)
	w.noteHad(b)
}

// IsFile reports whether source was seen to be a file: a batch of it said
// how big it is.
func (w *Window) IsFile(source string) bool {
	_, ok := w.progress[source]
	return ok
}

// noteProgress keeps how far b's source has been read.
func (w *Window) noteProgress(b model.Batch) {
	if b.Size <= 0 {
		return
	}
	if w.progress == nil {
		w.progress = map[string]progress{}
	}
	read := b.Read
	if p, ok := w.progress[b.Source]; ok && !b.Restart && read < p.read {
		read = p.read // the first part of a batch cut in slices
	}
	w.progress[b.Source] = progress{read: read, size: b.Size}
}

// Reading returns the bytes read and the bytes there are, over the sources
// still being read; ok is false when none is.
func (w *Window) Reading() (read, size int64, ok bool) {
	for _, p := range w.progress {
		if p.read < p.size {
			ok = true
		}
		read += min(p.read, p.size)
		size += p.size
	}
	return read, size, ok
}

// noteFolded keeps how far b's source is folded once b is.
func (w *Window) noteFolded(b model.Batch) {
	if w.folded == nil {
		w.folded = map[string]foldedTo{}
	}
	f := w.folded[b.Source]
	if b.Restart {
		f.restarted = true
	}
	if n := len(b.Records); n > 0 {
		f.known = b.End > 0
		f.end, f.seq = b.End, b.Records[n-1].Seq
	}
	w.folded[b.Source] = f
}

// FoldedUpTo says how far the threads have folded a file source: its bytes
// before end, which held records 1 to seq. ok is false when that is not
// known: nothing folded yet, a source that is not a file, one that started
// over (truncated or replaced), or the middle of a burst.
func (w *Window) FoldedUpTo(source string) (end int64, seq uint64, ok bool) {
	f, found := w.folded[source]
	if !found || !f.known || f.restarted {
		return 0, 0, false
	}
	return f.end, f.seq, true
}

// FoldedAny reports whether the view folded anything of any source yet: a
// view taken up from an earlier one's threads must not have.
func (w *Window) FoldedAny() bool { return len(w.folded) > 0 }

// checkpointEvery is the least time between two checkpoints handed on.
const checkpointEvery = 30 * time.Second

// checkpointGrowth is how much a source must have grown since the end last
// handed on, as a share of that end, before it is handed on again: a
// checkpoint costs time in proportion to the fold, and one that is older
// by this share only makes the next open fold that much more.
const checkpointGrowth = 8 // an eighth

// Checkpoint hands a checkpoint of set on (Options.Checkpoint) when a file
// source is read to its end and folded, the first time and then once it
// has grown by an eighth, at most every checkpointEvery.
func (w *Window) Checkpoint(set *fold.Threads) {
	if w.opts.Checkpoint == nil || set == nil {
		return
	}
	now := w.now()
	if !w.keptAt.IsZero() && now.Sub(w.keptAt) < checkpointEvery {
		return
	}
	for source := range w.folded {
		end, seq, ok := w.FoldedUpTo(source)
		p, reading := w.progress[source]
		if !ok || !reading || p.read < p.size {
			continue
		}
		if last, was := w.kept[source]; was && end-last < max(last/checkpointGrowth, 1) {
			continue
		}
		if w.kept == nil {
			w.kept = map[string]int64{}
		}
		w.kept[source], w.keptAt = end, now
		w.opts.Checkpoint(source, set.Checkpoint(), end, seq)
	}
}
