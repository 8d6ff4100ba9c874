package replay

import (
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// itemsBatch is how many records Items folds between two looks at what it
// has.
const itemsBatch = 256

// Items reads back the items from ≤ Seq < to of the thread id of source
// src, for a replay at position k that shed them (ShedForCheckpoint). It
// folds on from the checkpoint Before names, but not always up to k: it
// stops once every item wanted is there and finished or held by the fold
// At(k) (which has those open at its checkpoint), or, for one that stays
// open, once 2×(to−from) more have come, so that reading back costs a few
// thousand records and holds what it reads, not the rest of the log.
// It returns the items as the fold of the first j records has them, the
// steps their tool-call rows show (as row skeletons: without arguments,
// result, diffs or screenshots, which a panel reads back for itself), and
// j (≤ k): an item finished but changed after j (a run's end may touch its
// first message) shows as it was at j, as reading back a file shows it.
// It is safe to call while another goroutine extends the timeline or
// seeks.
func (t *Timeline) Items(k int, src, id string, from, to uint64) ([]*model.Item, []*model.Step, int, error) {
	return t.ItemsChecked(k, src, id, from, to, nil)
}

// Check is told the records a read back folds, those from position at on,
// before it folds them; an error stops the read with it. A read back
// from a file checks them against what the view folded.
type Check func(at int, recs []model.Record) error

// ItemsChecked is Items, handing every record it folds to check first
// (nil checks nothing). The items it returns are made of those records
// alone: every item wanted is made after the checkpoint it folds on from.
func (t *Timeline) ItemsChecked(k int, src, id string, from, to uint64, check Check) ([]*model.Item, []*model.Step, int, error) {
	if from < 1 || to <= from {
		return nil, nil, 0, fmt.Errorf("timeline: items %d to %d: want 1 ≤ from < to", from, to)
	}
	ts, at, err := t.Before(k, src, id, from)
	if err != nil {
		return nil, nil, 0, err
	}
	held, err := t.held(k, src, id)
	if err != nil {
		return nil, nil, 0, err
	}
	patience := to + 2*(to-from)
	for at < k {
		j := min(k, at+itemsBatch)
		recs, err := t.src.Records(at, j)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("timeline: records %d–%d: %w", at, j, err)
		}
		if check != nil {
			if err := check(at, recs); err != nil {
				return nil, nil, 0, err
			}
		}
		ts.Apply(source, recs...)
		at = j
		th := findThread(ts.List(), src, id)
		if th == nil {
			continue
		}
		items := th.Fold.Items()
		if n := len(items); n == 0 || items[n-1].Seq < to {
			continue
		}
		if done(items, from, to, held) || th.Fold.ItemsMade() >= patience {
			break
		}
	}
	th := findThread(ts.List(), src, id)
	if th == nil {
		return nil, nil, 0, fmt.Errorf("timeline: no thread %q at position %d", id, k)
	}
	var out []*model.Item
	var steps []*model.Step
	for _, it := range th.Fold.Items() {
		if it.Seq < from || it.Seq >= to {
			continue
		}
		out = append(out, it)
		if s := th.Fold.Step(it.Step); it.Kind == model.ItemToolCall && s != nil {
			row := *s
			row.Args, row.ArgsJSON, row.Result, row.ResultJSON, row.Screenshots, row.Diffs = "", nil, "", nil, nil, nil
			steps = append(steps, &row)
		}
	}
	return out, steps, at, nil
}

// findThread is the thread of list with source src and id (nil for none).
func findThread(list []*fold.Thread, src, id string) *fold.Thread {
	for _, th := range list {
		if th.Source == src && th.ID == id {
			return th
		}
	}
	return nil
}

// done reports whether the items with from ≤ Seq < to are all finished,
// or held at the position read for.
func done(items []*model.Item, from, to uint64, held map[uint64]bool) bool {
	for _, it := range items {
		if it.Seq >= from && it.Seq < to && !it.Status.Done() && !held[it.Seq] {
			return false
		}
	}
	return true
}

// held are the items of the thread id of source that the fold At(k)
// holds because they were open where the timeline last shed at or before
// k, which a shed never drops: a read back need not wait for them to
// finish (a run open to the log's end would make it fold to k), since the
// fold it reads for has them. Where that is a checkpoint its items say it;
// where the checkpoints were thinned (thin.go), the checkpoint before is
// folded on to there.
func (t *Timeline) held(k int, src, id string) (map[uint64]bool, error) {
	t.mu.Lock()
	c := min(k/t.stride, len(t.cps)-1)
	cp, from := t.cps[c], c*t.stride
	t.mu.Unlock()
	var items []*model.Item
	if shed := k / t.every * t.every; shed <= from {
		items = cp.Items(src, id)
	} else {
		ts := fold.NewThreads(t.opts)
		if c > 0 {
			ts = fold.ThreadsFromCheckpoint(cp, t.opts)
		}
		if err := t.foldOn(ts, from, shed); err != nil {
			return nil, err
		}
		if th := findThread(ts.List(), src, id); th != nil {
			items = th.Fold.Items()
		}
	}
	out := make(map[uint64]bool, len(items))
	for _, it := range items {
		out[it.Seq] = true
	}
	return out, nil
}
