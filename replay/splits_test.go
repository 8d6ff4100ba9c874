package replay

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/splits"
	"github.com/agentwatch/agentwatch/model"
)

// seekSplits are the positions the seek and read-back laws are checked at
// in recs, with a checkpoint every `every` records: every position of a
// short log (splits.Points); in a longer one, the first record of each
// kind and each checkpoint, with the positions either side, and every
// splits.Stride()-th. Checkpoints closer than the stride are not marked
// (they would mark every position): the stride, prime, falls at each
// distance from one in turn.
func seekSplits(recs []model.Record, every int) []int {
	marks := splits.Firsts(recs)
	if every >= splits.Stride() {
		for k := every; k <= len(recs); k += every {
			marks = append(marks, k)
		}
	}
	return splits.Points(len(recs), marks...)
}

// walker folds a log forward for a law that visits positions in order:
// At(k) is the fold of the first k records, without shedding, or shedding
// before every checkpoint as a timeline with one every `every` records
// does (every 0: never). It is the same fold each time, moved on.
type walker struct {
	recs  []model.Record
	every int
	ts    *fold.Threads
	done  int
}

func newWalker(recs []model.Record, every int) *walker {
	return &walker{recs: recs, every: every, ts: fold.NewThreads(fold.Options{})}
}

// At moves the fold on to position k, which is not before the last.
func (w *walker) At(k int) *fold.Threads {
	for ; w.done < k; w.done++ {
		w.ts.Apply("", w.recs[w.done])
		if w.every > 0 && (w.done+1)%w.every == 0 {
			ShedForCheckpoint(w.ts)
		}
	}
	return w.ts
}
