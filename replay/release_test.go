package replay

import (
	"bytes"
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// The law: releasing the timeline's fold at any point and extending on
// gives the timeline building it whole gives — the same checkpoints, step
// and run starts, and the same fold at every position.
func TestTimelineReleaseLaw(t *testing.T) {
	const every = 3
	for name, recs := range seekFixtures(t) {
		t.Run(name, func(t *testing.T) {
			whole, err := BuildTimeline(Slice(recs), fold.Options{}, every)
			if err != nil {
				t.Fatal(err)
			}
			for _, split := range seekSplits(recs, every) {
				tl, err := NewTimeline(Slice(recs), fold.Options{}, every)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tl.Extend(split); err != nil {
					t.Fatal(err)
				}
				tl.Release()
				tl.Release() // twice is once
				if _, err := tl.Extend(len(recs)); err != nil {
					t.Fatalf("split %d: Extend after Release: %v", split, err)
				}
				if !slices.Equal(tl.StepStarts(), whole.StepStarts()) || !slices.Equal(tl.RunStarts(), whole.RunStarts()) {
					t.Fatalf("split %d: step or run starts differ", split)
				}
				// Before split nothing changed; after it, the checkpoints
				// the rebuilt fold took, and the end.
				for _, k := range []int{split + 1, split/every*every + every, split/every*every + 2*every, len(recs)} {
					if k > len(recs) {
						continue
					}
					got, err := tl.At(k)
					if err != nil {
						t.Fatal(err)
					}
					want, err := whole.At(k)
					if err != nil {
						t.Fatal(err)
					}
					if g, w := state(t, got), state(t, want); !bytes.Equal(g, w) {
						t.Fatalf("split %d: At(%d) differs:\n got %s\nwant %s", split, k, g, w)
					}
				}
			}
		})
	}
}

// TestTimelineReleaseNothingMore: releasing a whole timeline and asking
// for more than there is folds nothing and reads nothing.
func TestTimelineReleaseNothingMore(t *testing.T) {
	recs := seekFixtures(t)["assets/demo.jsonl"]
	tl, err := BuildTimeline(Slice(recs), fold.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	tl.Release()
	if n, err := tl.Extend(100); n != 0 || err != nil {
		t.Fatalf("Extend on a whole, released timeline = %d, %v; want 0, nil", n, err)
	}
	if tl.build != nil {
		t.Fatal("an Extend with nothing to fold rebuilt the released fold")
	}
}
