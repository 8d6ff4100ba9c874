package app

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/window"
)

// fileReaders returns how a view reads back what it let go of a source:
// from the source's file, through the file's read index (readIndex); nil
// for a source that is not a file (standard input, a stream without
// --record), whose shed content is gone. The indexes are a's: every
// read of the view goes through them.
func (a *App) fileReaders(file func(source string) string) func(source string) window.Reader {
	opts, indexes := a.Options, a.indexes
	return func(source string) window.Reader {
		path := file(source)
		if path == "" {
			return nil
		}
		return &fileReader{opts: opts, indexes: indexes, path: path}
	}
}

// fileReader reads back from one file, through its read index, for one
// view: what it reads is checked against what the view folded of the file.
type fileReader struct {
	opts    *Options
	indexes *readIndexes
	path    string
	// had is what the view folded of the file (nil until it reads it),
	// and feed where the records it folds go while the file is indexed
	// beside it (nil when it is not).
	had  atomic.Pointer[window.Had]
	feed atomic.Pointer[buildFeed]
}

// readAheadFrom is the size from which a file's read index is made as soon
// as the view starts reading the file, rather than at the first read back:
// a smaller file is indexed and folded in at most about 0.15 s of CPU, the
// 126 MB log in 2.1 s (2.4–2.8 s, or more on a busy machine, when its
// first read back waited for it). It is a variable for BenchmarkReadBack.
var readAheadFrom int64 = 8 << 20

// Reading is told when the view starts reading the file, and what it
// folds of it: a file big enough to shed much is indexed from then on, in
// the background, folding what the view folds (Folded), so that the first
// read back is as quick as the next.
func (r *fileReader) Reading(h *window.Had) {
	r.had.Store(h)
	st, err := os.Stat(r.path)
	if err != nil || st.Size() < readAheadFrom {
		return
	}
	if fo, err := r.opts.FoldOptions(); err == nil {
		r.feed.Store(r.indexes.warm(r.path, fo))
	}
}

// Folded hands what the view folds of the file to the build of its index,
// while there is one beside the view's read.
func (r *fileReader) Folded(b model.Batch) {
	if f := r.feed.Load(); f != nil {
		f.give(b)
	}
}

// Step reads a step back whole: the step's thread is folded on from the
// last checkpoint before the step began until the step is done.
func (r *fileReader) Step(thread string, index int, callID string) (*model.Step, error) {
	x, err := r.index()
	if err != nil {
		return nil, err
	}
	defer x.mu.Unlock()
	s, err := x.step(x.check(r.had.Load()), thread, index, callID, true)
	if err != nil {
		x.dropChanged(err)
		return nil, err
	}
	c := *s
	return &c, nil
}

// Items reads items back: the thread is folded on from the last checkpoint
// before the items wanted were made, until they are there and done
// (replay.Timeline.Items). Item sequence numbers are the same as the
// view's, as the fold is deterministic and never reuses one. Items around
// a step are found from the last checkpoint before the step began.
func (r *fileReader) Items(w window.ItemsWanted) (window.ItemsRead, error) {
	x, err := r.index()
	if err != nil {
		return window.ItemsRead{}, err
	}
	defer x.mu.Unlock()
	read, err := x.items(x.check(r.had.Load()), w)
	x.dropChanged(err)
	return read, err
}

// step folds thread on from the last checkpoint before step index began
// until the step is there (and done, when done is set), and returns it as
// the file's fold has it. A step that is not in the file, or is another
// tool call there than callID (when it is not ""), is an error: the file
// was truncated or rewritten. A
// file that grew is indexed again first when the step was not in it yet.
func (x *readIndex) step(check replay.Check, thread string, index int, callID string, done bool) (*model.Step, error) {
	for again := x.grown(); ; again = false {
		k := x.tl.Len()
		ts, at, err := x.tl.BeforeStep(k, "", thread, index)
		if err != nil {
			return nil, err
		}
		var found *model.Step
		err = x.foldOn(ts, at, k, check, func() bool {
			if th := threadOf(ts, thread); th != nil && index < th.Fold.StepCount() {
				found = th.Fold.Step(index)
			}
			return found != nil && (!done || found.Status.Done())
		})
		if err != nil {
			return nil, err
		}
		switch {
		case found != nil && callID != "" && found.ToolCallID != callID:
			return nil, fmt.Errorf("step %d of thread %s is another tool call in %s now (it was truncated or rewritten)", index+1, thread, x.path)
		case found != nil:
			return found, nil
		case again:
			if err := x.rebuild(); err != nil {
				return nil, err
			}
			continue
		}
		return nil, fmt.Errorf("step %d of thread %s is no longer in %s (it was truncated or rewritten)", index+1, thread, x.path)
	}
}

// index is the file's read index, built with the fold options of the
// reader's options and locked: the caller unlocks it.
func (r *fileReader) index() (*readIndex, error) {
	fo, err := r.opts.FoldOptions()
	if err != nil {
		return nil, err
	}
	return r.indexes.use(r.path, fo)
}

// threadOf is the thread of ts with id (nil for none).
func threadOf(ts *fold.Threads, id string) *fold.Thread {
	for _, th := range ts.List() {
		if th.ID == id {
			return th
		}
	}
	return nil
}

// readItemsBatch is how many records a read back folds between two looks
// at what it has.
const readItemsBatch = 256

// items reads back the items w wants (see fileReader.Items).
func (x *readIndex) items(check replay.Check, w window.ItemsWanted) (window.ItemsRead, error) {
	from, to := w.From, w.To
	if w.Step >= 0 {
		s, err := x.step(check, w.Thread, w.Step, w.ToolCallID, false)
		if err != nil {
			return window.ItemsRead{}, err
		}
		seq, err := x.stepItem(check, w.Thread, s.Index)
		if err != nil {
			return window.ItemsRead{}, err
		}
		keep := uint64(max(w.Max, 1))
		from, to = seq-min(seq-1, keep/2), seq+keep-keep/2
	}
	after := w.Step < 0 && w.AfterKind != ""
	upTo := to
	if after {
		upTo = to + 1 // item To, which the screen shows, must be the same
	}
	if x.grown() && !x.made(w.Thread, upTo-1) {
		if err := x.rebuild(); err != nil {
			return window.ItemsRead{}, err
		}
	}
	items, steps, _, err := x.tl.ItemsChecked(x.tl.Len(), "", w.Thread, from, upTo, check)
	if errors.As(err, new(*changedError)) {
		return window.ItemsRead{}, err
	}
	if err != nil {
		return window.ItemsRead{}, fmt.Errorf("thread %s is no longer in %s (it was truncated or rewritten)", w.Thread, x.path)
	}
	if after {
		n := len(items)
		if n == 0 || items[n-1].Seq != to || items[n-1].Kind != w.AfterKind || items[n-1].ID != w.AfterID {
			return window.ItemsRead{}, fmt.Errorf("%s is not what it was: it was truncated or rewritten", x.path)
		}
		items = items[:n-1] // (its step, if it has one, is not in the screen's window: it goes)
	}
	return window.ItemsRead{Items: items, Steps: steps}, nil
}

// made reports whether the thread had made item seq by the index's end.
func (x *readIndex) made(thread string, seq uint64) bool {
	ts, err := x.tl.At(x.tl.Len())
	if err != nil {
		return false
	}
	th := threadOf(ts, thread)
	return th != nil && th.Fold.ItemsMade() >= seq
}

// stepItem is the Seq of the tool-call item of step index of thread.
func (x *readIndex) stepItem(check replay.Check, thread string, index int) (uint64, error) {
	k := x.tl.Len()
	ts, at, err := x.tl.BeforeStep(k, "", thread, index)
	if err != nil {
		return 0, err
	}
	seq := uint64(0)
	err = x.foldOn(ts, at, k, check, func() bool {
		if th := threadOf(ts, thread); th != nil {
			items := th.Fold.Items()
			for i := len(items) - 1; i >= 0 && seq == 0; i-- {
				if it := items[i]; it.Kind == model.ItemToolCall && it.Step == index {
					seq = it.Seq
				}
			}
		}
		return seq != 0
	})
	if err != nil || seq != 0 {
		return seq, err
	}
	return 0, fmt.Errorf("step %d of thread %s has no row in %s (it was truncated or rewritten)", index+1, thread, x.path)
}

// foldOn folds the records from at to k of the index into ts, a batch at a
// time, each checked first (check may be nil), until have says it has what
// is wanted.
func (x *readIndex) foldOn(ts *fold.Threads, at, k int, check replay.Check, have func() bool) error {
	for at < k {
		j := min(k, at+readItemsBatch)
		recs, err := x.tl.Records(at, j)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(at, recs); err != nil {
				return err
			}
		}
		ts.Apply("", recs...)
		at = j
		if have() {
			return nil
		}
	}
	return nil
}
