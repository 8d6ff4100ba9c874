package replay

import (
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
)

// DefaultCheckpointBudget is how many thread checkpoints a timeline keeps
// at most unless told otherwise (SetCheckpointBudget): a checkpoint of a
// log of one thread counts one, of a hundred threads a hundred. A thread's
// checkpoint costs a few kilobytes however little the thread did since the
// one before, so on a log of many threads the checkpoints, not the fold,
// are what a timeline keeps.
const DefaultCheckpointBudget = 12 << 10

// SetCheckpointBudget sets how many thread checkpoints the timeline keeps
// at most (at least one checkpoint past the start is kept, whatever the
// budget). Past it the timeline keeps every other checkpoint: seeking then
// folds up to twice as far forward. Call it before the first Extend.
func (t *Timeline) SetCheckpointBudget(n int) { t.budget = max(n, 1) }

// keep adds cp, a checkpoint of n threads after len(t.cps)·stride
// records, and thins the checkpoints to the budget: while they hold more
// thread checkpoints than it, every other one goes (the first, the empty
// set, stays) and the stride doubles, so cps[i] is still the checkpoint
// after i·stride records. Which checkpoints stay depends on the log alone,
// not on how Extend was called. The slices are new, never changed in
// place: a seek may hold the old ones. t.mu is held.
func (t *Timeline) keep(cp *fold.ThreadsCheckpoint, n int) {
	t.cps, t.threads = append(t.cps, cp), append(t.threads, n)
	t.kept += n
	for t.kept > t.budget && len(t.cps) > 2 {
		cps := make([]*fold.ThreadsCheckpoint, 0, len(t.cps))
		threads := make([]int, 0, len(t.cps))
		kept := 0
		for i := 0; i < len(t.cps); i += 2 {
			cps, threads = append(cps, t.cps[i]), append(threads, t.threads[i])
			kept += t.threads[i]
		}
		t.cps, t.threads, t.kept = cps, threads, kept
		t.stride *= 2
	}
}

// foldOn folds records from to to of the log into ts, which holds the
// first `from` records, shedding at each multiple of every as Extend did
// (the checkpoint it was restored from may be several such places back).
func (t *Timeline) foldOn(ts *fold.Threads, from, to int) error {
	for i := from; i < to; {
		j := min(to, (i/t.every+1)*t.every)
		recs, err := t.src.Records(i, j)
		if err != nil {
			return fmt.Errorf("timeline: records %d–%d: %w", i, j, err)
		}
		ts.Apply(source, recs...)
		if j%t.every == 0 {
			t.shed(ts)
		}
		i = j
	}
	return nil
}
