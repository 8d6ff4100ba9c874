package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// numbered is n records whose Seq numbers them from first.
func numbered(first, n int) []model.Record {
	out := make([]model.Record, n)
	for i := range out {
		out[i].Seq = uint64(first + i)
	}
	return out
}

func TestCutKeepsEveryRecordInOrder(t *testing.T) {
	for _, sizes := range [][]int{{10}, {3, 4, 5}, {0, 7, 0, 9}, {20, 1}} {
		for max := 1; max <= 25; max++ {
			var msg recordsMsg
			var bm batchesMsg
			next := 0
			for i, n := range sizes {
				msg = append(msg, numbered(next, n))
				bm = append(bm, model.Batch{Source: fmt.Sprint("s", i), Records: numbered(next, n), Restart: true, Read: int64(next + n), Size: 100})
				next += n
			}
			var got []uint64
			for msg != nil {
				now, rest := cutRecords(msg, max)
				k := 0
				for _, b := range now {
					k += len(b)
					for _, r := range b {
						got = append(got, r.Seq)
					}
				}
				if k > max {
					t.Fatalf("sizes %v, max %d: a slice of %d records", sizes, max, k)
				}
				msg = rest
			}
			if len(got) != next || !slices.IsSorted(got) {
				t.Fatalf("sizes %v, max %d: records %v", sizes, max, got)
			}
			restarts := map[string]int{}
			var seqs []uint64
			for bm != nil {
				now, rest := cutBatches(bm, max)
				for _, b := range now {
					if b.Restart {
						restarts[b.Source]++
						if len(b.Records) > 0 && b.Records[0].Seq != seqs0(sizes, b.Source) {
							t.Fatalf("sizes %v, max %d: the restart of %s came after its first record", sizes, max, b.Source)
						}
					}
					if b.Read != 0 && len(b.Records) > 0 && b.Read != int64(b.Records[len(b.Records)-1].Seq+1) {
						t.Fatalf("sizes %v, max %d: progress %d ahead of the records folded", sizes, max, b.Read)
					}
					for _, r := range b.Records {
						seqs = append(seqs, r.Seq)
					}
				}
				bm = rest
			}
			if len(seqs) != next || !slices.IsSorted(seqs) {
				t.Fatalf("sizes %v, max %d: batches gave %v", sizes, max, seqs)
			}
			for i := range sizes {
				if s := fmt.Sprint("s", i); restarts[s] != 1 {
					t.Fatalf("sizes %v, max %d: %s restarted %d times", sizes, max, s, restarts[s])
				}
			}
		}
	}
}

// seqs0 is the first record number of source s in the batches the test
// makes of sizes.
func seqs0(sizes []int, s string) uint64 {
	next := 0
	for i, n := range sizes {
		if fmt.Sprint("s", i) == s {
			return uint64(next)
		}
		next += n
	}
	return 0
}

// TestAppFoldsABurstInSlices gives the App a burst of three slices' worth
// of records: each Update folds one slice, and a q pressed between two
// slices quits before the rest is folded.
func TestAppFoldsABurstInSlices(t *testing.T) {
	var log strings.Builder
	for i := range 3 * foldSlice / 2 {
		fmt.Fprintf(&log, `{"type":"TEXT_MESSAGE_START","messageId":"m%d","role":"assistant"}`+"\n", i)
		fmt.Fprintf(&log, `{"type":"TEXT_MESSAGE_END","messageId":"m%d"}`+"\n", i)
	}
	recs, err := sources.ReadAll(strings.NewReader(log.String()))
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan []model.Record, 1)
	ch <- recs
	f := fold.New(fold.Options{})
	a := NewApp(f, ch, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, next := a.Update(a.Init()())
	// What is folded, by the record that last changed the newest item:
	// the screen sheds the oldest items as it follows.
	folded := func() uint64 {
		items := f.Items()
		return items[len(items)-1].LastSeq
	}
	if got := folded(); got != foldSlice {
		t.Fatalf("the first Update folded %d records, want %d", got, foldSlice)
	}
	if next == nil {
		t.Fatal("no command for the rest of the burst")
	}
	rest := next()
	if _, ok := rest.(recordsMsg); !ok {
		t.Fatalf("the rest of the burst came as %T", rest)
	}
	_, cmd := a.Update(keyPress("q"))
	if cmd == nil {
		t.Fatal("q between two slices gave no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q between two slices does not quit")
	}
	a.Update(rest)
	if got := folded(); got != 2*foldSlice {
		t.Errorf("the second Update folded %d records, want %d", got, 2*foldSlice)
	}
}
