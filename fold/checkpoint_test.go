package fold_test

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// The in-memory checkpoint law, at every split point of a short log and at
// the points lawSplits picks in a longer one: a fold restored from a
// checkpoint and folded on equals the uninterrupted fold; the fold that
// took it goes on unchanged; and the checkpoint itself is not changed by
// either, however many folds are restored from it and played. It holds for
// the first checkpoint of a fold that folded the first k records at once,
// and for each of a chain that one fold takes as it walks the records
// (sharing list blocks with the one before, as a replay's do).
func TestLawInMemoryCheckpointEverySplit(t *testing.T) {
	for name, recs := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := export(t, foldAll(recs))
			ks := lawSplits(recs)
			head := fold.New(fold.Options{})
			chain := make([]*fold.Checkpoint, len(ks))
			first := make([]*fold.Checkpoint, len(ks))
			at := make([][]byte, len(ks))
			done := 0
			for i, k := range ks {
				for ; done < k; done++ {
					head.Apply(recs[done])
				}
				at[i] = export(t, head)
				chain[i] = head.Checkpoint()
				orig := foldAll(recs[:k])
				first[i] = orig.Checkpoint()
				orig.Apply(recs[k:]...)
				if got := export(t, orig); !bytes.Equal(got, want) {
					t.Fatalf("split %d: the fold that took the checkpoint ended differently", k)
				}
			}
			if got := export(t, head); !bytes.Equal(got, want) {
				t.Fatal("the fold that took a checkpoint at every split ended differently")
			}
			// Played only now, once the folds that took them have gone on:
			// their writes had the chance to leak into the checkpoints.
			for i, k := range ks {
				for round, cp := range []*fold.Checkpoint{first[i], first[i], chain[i]} {
					f := fold.FromCheckpoint(cp, fold.Options{})
					if got := export(t, f); !bytes.Equal(got, at[i]) {
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
