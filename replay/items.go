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
// stops once every item wanted is there and finished (or, for one that
// stays open, once 2×(to−from) more have come), so that reading back costs
// a few thousand records and holds what it reads, not the rest of the log.
// It returns the items as the fold of the first j records has them, and j
// (≤ k): an item finished but changed after j (a run's end may touch its
// first message) shows as it was at j, as reading back a file shows it.
// It is safe to call while another goroutine extends the timeline or
// seeks.
func (t *Timeline) Items(k int, src, id string, from, to uint64) ([]*model.Item, int, error) {
	if from < 1 || to <= from {
		return nil, 0, fmt.Errorf("timeline: items %d to %d: want 1 ≤ from < to", from, to)
	}
	ts, at, err := t.Before(k, src, id, from)
	if err != nil {
		return nil, 0, err
	}
	patience := to + 2*(to-from)
	for at < k {
		j := min(k, at+itemsBatch)
		recs, err := t.src.Records(at, j)
		if err != nil {
			return nil, 0, fmt.Errorf("timeline: records %d–%d: %w", at, j, err)
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
		if done(items, from, to) || th.Fold.ItemsMade() >= patience {
			break
		}
	}
	th := findThread(ts.List(), src, id)
	if th == nil {
		return nil, 0, fmt.Errorf("timeline: no thread %q at position %d", id, k)
	}
	var out []*model.Item
	for _, it := range th.Fold.Items() {
		if it.Seq >= from && it.Seq < to {
			out = append(out, it)
		}
	}
	return out, at, nil
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

// done reports whether the items with from ≤ Seq < to are all finished.
func done(items []*model.Item, from, to uint64) bool {
	for _, it := range items {
		if it.Seq >= from && it.Seq < to && !it.Status.Done() {
			return false
		}
	}
	return true
}
