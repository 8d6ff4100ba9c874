package serve

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// foldBatch folds b into ts as a screen folds it (a source that started
// over forgets its threads first), and trims each thread it touched as a
// screen trims one nobody looks back in: to keep (window.ScreenKeep for
// the hub of a server) once it holds twice keep's items. A viewer that
// takes up a checkpoint of ts so holds what a screen that folded the whole
// log would hold, and reads the rest back from the source's file as that
// screen would.
func foldBatch(ts *fold.Threads, b model.Batch, keep fold.Keep) {
	if b.Restart {
		ts.Forget(b.Source)
	}
	if len(b.Records) == 0 {
		return
	}
	for _, u := range ts.Apply(b.Source, b.Records...) {
		if f := u.Thread.Fold; len(f.Items()) >= 2*keep.Items {
			f.Trim(keep)
		}
	}
}
