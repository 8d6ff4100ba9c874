package fold

import (
	"cmp"
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/model"
)

// runIndex finds a run by id, and where the items and steps a run made
// begin, so that a run's end looks at what the run made and not at the
// whole thread: a thread of many runs stays linear. It is derived from
// Runs; a checkpoint shares it, as it does the other indexes. An export
// does not keep it: a fold restored from one builds it again when first
// asked, without the starts of the runs it holds (their ends then look at
// the whole thread, once each).
type runIndex struct {
	at      persist.Map[string, runEntry]
	built   bool
	indexed int // how many of Runs are in at
}

// share returns the index as it is now, for a checkpoint to keep.
func (x *runIndex) share() runIndex {
	return runIndex{at: x.at.Share(), built: x.built, indexed: x.indexed}
}

// runEntry is one run id's place: pos in Runs (the newest run of the id),
// and, known when the fold saw the run start, the Seq of its first item
// and the Index of its first step. Every item and step of the run comes
// after them, as the fold attributes to a run only what it makes while
// the run is the current one.
type runEntry struct {
	pos   int
	item  uint64
	step  int
	known bool
}

// indexRuns brings the index up to the first n runs of Runs.
func (d *displayState) indexRuns(n int) {
	if !d.runIdx.built {
		d.runIdx = runIndex{at: persist.NewMap[string, runEntry](len(d.Runs)), built: true}
	}
	for ; d.runIdx.indexed < n; d.runIdx.indexed++ {
		r := d.Runs[d.runIdx.indexed]
		e, _ := d.runIdx.at.Get(r.RunID) // an earlier run of the id keeps its start
		e.pos = d.runIdx.indexed
		d.runIdx.at.Set(r.RunID, e)
		d.visited++
	}
}

// runAt returns where run id is in Runs, -1 when there is none.
func (d *displayState) runAt(id string) int {
	d.indexRuns(len(d.Runs))
	d.visited++
	if e, ok := d.runIdx.at.Get(id); ok && e.pos < len(d.Runs) && d.Runs[e.pos].RunID == id {
		return e.pos
	}
	return -1
}

// startedRun notes the run just appended to Runs, whose items begin with
// Seq item and whose steps begin with Index step.
func (d *displayState) startedRun(item uint64, step int) {
	n := len(d.Runs) - 1
	d.indexRuns(n)
	r := d.Runs[n]
	e, seen := d.runIdx.at.Get(r.RunID)
	e.pos = n
	if !seen {
		e.item, e.step, e.known = item, step, true
	}
	d.runIdx.at.Set(r.RunID, e)
	d.runIdx.indexed = n + 1
}

// runItems returns the position in Items from which the items of run id
// are: all of them when where the run began is not known.
func (d *displayState) runItems(id string) int {
	d.indexRuns(len(d.Runs))
	e, ok := d.runIdx.at.Get(id)
	if !ok || !e.known {
		return 0
	}
	i, _ := slices.BinarySearchFunc(d.Items, e.item, func(x *model.Item, seq uint64) int {
		return cmp.Compare(x.Seq, seq)
	})
	return i
}

// runSteps returns the position in Steps from which the steps of run id
// are: all of them when where the run began is not known.
func (d *displayState) runSteps(id string) int {
	d.indexRuns(len(d.Runs))
	e, ok := d.runIdx.at.Get(id)
	if !ok || !e.known {
		return 0
	}
	return max(e.step-d.StepBase, 0)
}
