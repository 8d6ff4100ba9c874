package fold_test

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

// A fold that took a checkpoint and then sheds and forgets as it goes, as
// a screen does once it kept a resume point, lets its copy-on-write
// records go of what it dropped: they stay a bounded share of what it
// keeps. It ends exactly as the same fold that never took a checkpoint,
// and the checkpoint still restores what the fold was when it was taken.
func TestCowPrunedAsItSheds(t *testing.T) {
	for name, recs := range map[string][]model.Record{
		"tool calls": hostileRecords(t, "tool-calls", 3_000),
		"loggen":     genRecords(loggen.Generate(40_000, 3)),
	} {
		t.Run(name, func(t *testing.T) {
			never, took := fold.New(fold.Options{}), fold.New(fold.Options{})
			const first, every = 1000, 500
			never.Apply(recs[:first]...)
			took.Apply(recs[:first]...)
			cp := took.Checkpoint()
			atCp := export(t, fold.FromCheckpoint(cp, fold.Options{}))
			most := 0
			for i := first; i < len(recs); i += every {
				for _, f := range []*fold.Fold{never, took} {
					f.Apply(recs[i:min(i+every, len(recs))]...)
					f.Trim(fold.Keep{Items: 200, Content: 50, Skeletons: 100, Tombstones: fold.TombstonesRecent})
				}
				own, kept := fold.CowCounts(took)
				for k, what := range []string{"items", "steps", "messages"} {
					if own[k] > 2*kept[k]+1024 {
						t.Fatalf("after %d records the fold records %d %s as its own, and keeps %d", i, own[k], what, kept[k])
					}
					most = max(most, own[k])
				}
			}
			if most < 1024 {
				t.Fatalf("the records never held more than %d objects: nothing to prune", most)
			}
			if got, want := export(t, took), export(t, never); !bytes.Equal(got, want) {
				t.Errorf("the fold that took a checkpoint ends otherwise than the one that did not")
			}
			if got := export(t, fold.FromCheckpoint(cp, fold.Options{})); !bytes.Equal(got, atCp) {
				t.Errorf("folding on after the checkpoint changed it")
			}
		})
	}
}
