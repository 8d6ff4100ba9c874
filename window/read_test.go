package window

import (
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// seqItems are the items from to to-1, by Seq.
func seqItems(from, to uint64) []*model.Item {
	var out []*model.Item
	for s := from; s < to; s++ {
		out = append(out, &model.Item{Seq: s, Kind: model.ItemPhase})
	}
	return out
}

// A window read back grows by what is read next to it and stays within
// its most items, losing what lies farthest from the read; a read
// elsewhere replaces it.
func TestMergeWindow(t *testing.T) {
	const w = 4000
	for _, c := range []struct {
		name         string
		window, read [2]uint64
		first, last  uint64
		wantLen      int
	}{
		{"first", [2]uint64{}, [2]uint64{5001, 7001}, 5001, 7000, 2000},
		{"above, joined", [2]uint64{5001, 7001}, [2]uint64{3001, 5001}, 3001, 7000, 4000},
		{"above, the newest go", [2]uint64{3001, 7001}, [2]uint64{1001, 3001}, 1001, 1000 + w, w},
		{"below, the oldest go", [2]uint64{1001, 5001}, [2]uint64{5001, 7001}, 7001 - w, 7000, w},
		{"overlapping", [2]uint64{1001, 3001}, [2]uint64{2001, 4001}, 1001, 4000, 3000},
		{"far away", [2]uint64{1001, 3001}, [2]uint64{9001, 10001}, 9001, 10000, 1000},
		{"near, below", [2]uint64{1001, 2001}, [2]uint64{2101, 3001}, 1001, 3000, 1900},
		{"near, above", [2]uint64{5001, 7001}, [2]uint64{3001, 5000}, 3001, 7000, 3999},
	} {
		t.Run(c.name, func(t *testing.T) {
			var window []*model.Item
			if c.window[1] > 0 {
				window = seqItems(c.window[0], c.window[1])
			}
			got := mergeWindow(window, seqItems(c.read[0], c.read[1]), w)
			if len(got) != c.wantLen || got[0].Seq != c.first || got[len(got)-1].Seq != c.last {
				t.Fatalf("window %d items %d–%d, want %d items %d–%d", len(got), got[0].Seq, got[len(got)-1].Seq, c.wantLen, c.first, c.last)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Seq <= got[i-1].Seq {
					t.Fatalf("window goes from %d to %d", got[i-1].Seq, got[i].Seq)
				}
			}
			if n, want := int(got[len(got)-1].Seq-got[0].Seq)+1-len(got), int(c.last-c.first+1)-c.wantLen; n != want {
				t.Fatalf("window misses %d items between its ends", n)
			}
		})
	}
}
