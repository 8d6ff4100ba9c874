package fold_test

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/splits"
	"github.com/agentwatch/agentwatch/model"
)

// listBlock is how many pointers of the fold's lists a checkpoint keeps in
// one shared block (docs/ARCHITECTURE.md, "Replay and seek"): a list that
// grows into a new block is where a checkpoint's sharing changes shape.
const listBlock = 256

// lawSplits are the split points the checkpoint laws are checked at on
// recs: every one of a short log (splits.Points); on a longer one, after
// folding it forward once to find them, the first record of each kind and
// the records that take one of the fold's lists into a new block, each
// with its neighbours, and a stride between.
func lawSplits(recs []model.Record) []int {
	if len(recs) <= splits.All() {
		return splits.Points(len(recs))
	}
	marks := splits.Firsts(recs)
	f := fold.New(fold.Options{})
	lens := func() [4]int { return [4]int{len(f.Items()), len(f.Steps()), len(f.Messages()), len(f.Runs())} }
	was := lens()
	for i, r := range recs {
		f.Apply(r)
		now := lens()
		for j := range now {
			if now[j]/listBlock != was[j]/listBlock {
				marks = append(marks, i+1)
			}
		}
		was = now
	}
	return splits.Points(len(recs), marks...)
}
