package app

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// readBack returns what the screen calls to read a step whose content it
// shed back from the source's file: the file is read again from its start
// and the step's thread folded on its own until the step is there and
// done, shedding as it goes (what it holds is the step and the skeletons
// of the steps before it). For a source that is not a file (standard
// input, a stream without --record), whose shed content is gone, it says
// so.
func readBack(opts *Options, file func(source string) string) func(source, thread string, index int, callID string) (*model.Step, error) {
	return func(source, thread string, index int, callID string) (*model.Step, error) {
		path := file(source)
		if path == "" {
			return nil, fmt.Errorf("%s is not a file: what was dropped is gone (--record FILE keeps a stream)", source)
		}
		r, fo, done, err := reread(opts, path)
		if err != nil {
			return nil, err
		}
		defer done()
		ts := fold.NewThreads(fo)
		var found *model.Step
		for n := 1; ; n++ {
			if n%readBackShedEvery == 0 {
				// The step is not there or still open, which shedding
				// keeps: it finds the step as it would have.
				shedBut(ts, thread)
			}
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			for _, u := range ts.Apply(source, rec) {
				th := u.Thread
				if th.ID != thread || index >= len(th.Fold.Steps()) {
					continue
				}
				s := th.Fold.Steps()[index]
				if s.ToolCallID != callID {
					return nil, fmt.Errorf("step %d of thread %s is another tool call in the file now (it was truncated or rewritten)", index+1, thread)
				}
				found = s
			}
			if found != nil && found.Status.Done() {
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("step %d of thread %s is no longer in %s", index+1, thread, path)
		}
		c := *found
		return &c, nil
	}
}

// readBackShedEvery is how many records readBack folds between two sheds.
const readBackShedEvery = 4096

// shedBut sheds the thread of ts with id thread of all it can, keeping the
// skeletons of its steps (their indices, and how folding on goes), and
// retires the others, of which nothing is wanted. A thread not named yet
// may be the one wanted, and is left as it is.
func shedBut(ts *fold.Threads, thread string) {
	for _, th := range ts.List() {
		switch {
		case th.ID == thread:
			th.Fold.Shed(0, 0)
			th.Fold.Forget(math.MaxInt)
		case th.ID != "":
			th.Fold.Retire()
		}
	}
}

// readItems returns what the screen calls to read items it shed back from
// a source's file, nil for a source that is not a file (standard input, a
// stream without --record), whose shed items are gone.
//
// The file is read again from its start and the thread folded on its own
// until the items wanted are there and done. Item sequence numbers are the
// same as the screen's, as the fold is deterministic and never reuses one.
// The fold sheds as it goes, so it holds about three windows of items and
// the skeletons of the thread's steps, never the whole thread; the file's
// other threads are retired as they grow.
func readItems(opts *Options, file func(source string) string) func(source string) func(tui.ItemsWanted) ([]*model.Item, error) {
	return func(source string) func(tui.ItemsWanted) ([]*model.Item, error) {
		path := file(source)
		if path == "" {
			return nil
		}
		return func(w tui.ItemsWanted) ([]*model.Item, error) {
			r, fo, done, err := reread(opts, path)
			if err != nil {
				return nil, err
			}
			defer done()
			return foldItems(r, source, path, fo, w)
		}
	}
}

// readItemsBatch is how many records foldItems folds between two looks at
// what it has: few enough that it overshoots little, many enough that
// folding costs what a whole log's fold does.
const readItemsBatch = 256

// foldItems folds the records of r until the items w wants are there and
// done (see readItems), and returns them in Seq order.
func foldItems(r *sources.Reader, source, path string, fo fold.Options, w tui.ItemsWanted) ([]*model.Item, error) {
	keep := max(w.Max, 1)
	from, to := w.From, w.To
	ts := fold.NewThreads(fo)
	var th *fold.Thread
	batch := make([]model.Record, 0, readItemsBatch)
	eof := false
	for !eof {
		batch = batch[:0]
		for len(batch) < readItemsBatch {
			rec, err := r.Next()
			if err == io.EOF {
				eof = true
				break
			}
			if err != nil {
				return nil, err
			}
			batch = append(batch, rec)
		}
		for _, u := range ts.Apply(source, batch...) {
			switch {
			case u.Thread.ID == w.Thread:
				th = u.Thread
			case u.Thread.ID != "" && len(u.Thread.Fold.Items()) > 2*keep:
				// Another thread: nothing of it is wanted. (One not named
				// yet may be the wanted one.)
				u.Thread.Fold.Retire()
			}
		}
		if th == nil {
			continue
		}
		f := th.Fold
		items := f.Items()
		newest := uint64(0)
		if len(items) > 0 {
			newest = items[len(items)-1].Seq
		}
		if w.Step >= 0 && to == 0 {
			s, ok := stepItem(f, w.Step)
			if ok && f.Steps()[w.Step].ToolCallID != w.ToolCallID {
				return nil, fmt.Errorf("step %d of thread %s is another tool call in %s now (it was truncated or rewritten)", w.Step+1, w.Thread, path)
			}
			if ok {
				from, to = s-min(s-1, uint64(keep/2)), s+uint64(keep-keep/2)
			}
		}
		if to == 0 || newest < from {
			// Nothing wanted has come yet: what is older than the newest
			// keep items will not be wanted.
			if len(items) > 3*keep {
				f.Shed(keep, 0)
				f.Forget(math.MaxInt)
			}
			continue
		}
		if newest < to {
			continue
		}
		// Everything wanted is there; wait for what is still open, but not
		// for ever: an item the screen keeps open may stay so.
		if allDone(items, from, to) || newest >= to+uint64(2*keep) {
			break
		}
	}
	if th == nil || to == 0 {
		if w.Step >= 0 {
			return nil, fmt.Errorf("step %d of thread %s is no longer in %s (it was truncated or rewritten)", w.Step+1, w.Thread, path)
		}
		return nil, fmt.Errorf("thread %s is no longer in %s (it was truncated or rewritten)", w.Thread, path)
	}
	items := th.Fold.Items()
	if w.Step < 0 && w.AfterKind != "" {
		i, ok := slices.BinarySearchFunc(items, to, func(it *model.Item, seq uint64) int { return cmp.Compare(it.Seq, seq) })
		if !ok || items[i].Kind != w.AfterKind || items[i].ID != w.AfterID {
			return nil, fmt.Errorf("%s is not what it was: it was truncated or rewritten", path)
		}
	}
	var out []*model.Item
	for _, it := range items {
		if it.Seq >= from && it.Seq < to {
			out = append(out, it)
		}
	}
	return out, nil
}

// stepItem is the Seq of the tool-call item of step i of f.
func stepItem(f *fold.Fold, i int) (uint64, bool) {
	if i >= len(f.Steps()) {
		return 0, false
	}
	items := f.Items()
	for j := len(items) - 1; j >= 0; j-- {
		if it := items[j]; it.Kind == model.ItemToolCall && it.Step == i {
			return it.Seq, true
		}
	}
	return 0, false
}

// allDone reports whether the items with from ≤ Seq < to are all done.
func allDone(items []*model.Item, from, to uint64) bool {
	for _, it := range items {
		if it.Seq >= from && it.Seq < to && !it.Status.Done() {
			return false
		}
	}
	return true
}

// reread opens path again from its start, for reading back what the screen
// shed, with the fold options of opts; done closes it.
func reread(opts *Options, path string) (r *sources.Reader, fo fold.Options, done func() error, err error) {
	if fo, err = opts.FoldOptions(); err != nil {
		return nil, fo, nil, err
	}
	in, err := sources.Open(path)
	if err != nil {
		return nil, fo, nil, err
	}
	return sources.NewReader(in), fo, in.Close, nil
}
