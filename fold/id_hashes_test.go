package fold

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"
)

// TestIDHashesLikeASet adds and removes ids at random and checks the
// hashes against a plain set after every change: what has says, what the
// JSON holds (sorted, once each, read back the same), and that the runs
// stay few and that a change never alters a value taken before it.
func TestIDHashesLikeASet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var h idHashes
	set := map[uint64]bool{}
	type seen struct {
		h    idHashes
		flat []uint64
	}
	var earlier []seen
	for round := range 400 {
		if rng.IntN(4) == 0 && len(set) > 0 {
			id := fmt.Sprint(rng.IntN(3000))
			h = h.without(id)
			delete(set, hashID(id))
		} else {
			var hs []uint64
			for range rng.IntN(60) {
				id := fmt.Sprint(rng.IntN(3000))
				hs = append(hs, hashID(id))
				set[hashID(id)] = true
			}
			h = h.with(hs)
		}
		want := make([]uint64, 0, len(set))
		for x := range set {
			want = append(want, x)
		}
		slices.Sort(want)
		if got := h.flat(); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("round %d: %d hashes, want %d", round, len(got), len(want))
		}
		for range 20 {
			id := fmt.Sprint(rng.IntN(3000))
			if h.has(id) != set[hashID(id)] {
				t.Fatalf("round %d: has(%s) = %v", round, id, h.has(id))
			}
		}
		if max := bits.Len(uint(len(set))) + 1; len(h.runs) > max {
			t.Fatalf("round %d: %d runs for %d hashes, want at most %d", round, len(h.runs), len(set), max)
		}
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var back idHashes
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.flat(), h.flat()) {
			t.Fatalf("round %d: JSON round trip changed the hashes", round)
		}
		earlier = append(earlier, seen{h, slices.Clone(h.flat())})
	}
	for i, e := range earlier {
		if !slices.Equal(e.h.flat(), e.flat) {
			t.Fatalf("value %d changed after it was taken", i)
		}
	}
}
