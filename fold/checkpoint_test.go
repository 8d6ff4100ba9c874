package fold_test

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// The in-memory checkpoint law, at every split point: a fold restored from
// a checkpoint and folded on equals the uninterrupted fold; the fold that
// took it goes on unchanged; and the checkpoint itself is not changed by
// either, however many folds are restored from it and played.
func TestLawInMemoryCheckpointEverySplit(t *testing.T) {
	for name, recs := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // every split of every log: the longest of the laws
			want := export(t, foldAll(recs))
			for k := 0; k <= len(recs); k++ {
				orig := fold.New(fold.Options{})
				orig.Apply(recs[:k]...)
				atK := export(t, orig)
				cp := orig.Checkpoint()
				orig.Apply(recs[k:]...)
				if got := export(t, orig); !bytes.Equal(got, want) {
					t.Fatalf("split %d: the fold that took the checkpoint ended differently", k)
				}
				for round := range 2 {
					f := fold.FromCheckpoint(cp, fold.Options{})
					if got := export(t, f); !bytes.Equal(got, atK) {
						t.Fatalf("split %d round %d: restored fold differs from the fold at the checkpoint", k, round)
					}
					f.Apply(recs[k:]...)
					if got := export(t, f); !bytes.Equal(got, want) {
						t.Fatalf("split %d round %d: restore + continue differs from the uninterrupted fold", k, round)
					}
				}
			}
		})
	}
}

// Checkpoints taken one after another while folding, each restored after
// the fold has gone on, hold the state of their moment.
func TestLawCheckpointChain(t *testing.T) {
	for name, recs := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			f := fold.New(fold.Options{})
			var cps []*fold.Checkpoint
			var at [][]byte
			for k := 0; k <= len(recs); k++ {
				if k > 0 {
					f.Apply(recs[k-1 : k]...)
				}
				if k%2 == 0 {
					at = append(at, export(t, f))
					cps = append(cps, f.Checkpoint())
				}
			}
			for i := len(cps) - 1; i >= 0; i-- {
				g := fold.FromCheckpoint(cps[i], fold.Options{})
				if got := export(t, g); !bytes.Equal(got, at[i]) {
					t.Fatalf("checkpoint after %d records changed after folding went on", i*2)
				}
				g.Apply(recs[min(i*2, len(recs)):]...)
			}
		})
	}
}
