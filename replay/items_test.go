package replay

import (
	"errors"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Items reads back what a position's fold shed: the items of a range as
// the fold of the records up to where it stopped, without shedding, has
// them; and it stops early only once every item wanted is there and
// finished or held by the position's fold, or it has waited long enough
// for one that stays open. Checked at every position of a short log and
// those seekSplits picks in a longer one.
func TestTimelineItems(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		for _, mode := range timelineModes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				tl := modeTimeline(t, recs, 3, mode)
				shed := 0
				walk := newWalker(recs, 0)
				for _, k := range seekSplits(recs, tl.Every()) {
					whole := walk.At(k)
					at, err := tl.At(k)
					if err != nil {
						t.Fatal(err)
					}
					// The folds of the records up to where a read stopped,
					// made once for all the reads from k that stop there.
					upTo := map[int]*fold.Threads{k: whole}
					foldUpTo := func(j int) *fold.Threads {
						if upTo[j] == nil {
							upTo[j] = foldRecs(recs[:j])
						}
						return upTo[j]
					}
					for _, th := range whole.List() {
						shed += int(th.Fold.ItemsMade()) - len(findThread(at.List(), th.Source, th.ID).Fold.Items())
						for from := uint64(1); from <= th.Fold.ItemsMade(); from += 2 {
							to := min(from+3, th.Fold.ItemsMade()+1)
							got, steps, j, err := tl.Items(k, th.Source, th.ID, from, to)
							if err != nil {
								t.Fatal(err)
							}
							if j > k || j < 0 {
								t.Fatalf("Items(%d, …) stopped at %d", k, j)
							}
							then := findThread(foldUpTo(j).List(), th.Source, th.ID)
							var want []*model.Item
							stillOpen := false
							for _, it := range then.Fold.Items() {
								if it.Seq >= from && it.Seq < to {
									want = append(want, it)
									// (An item At(k) holds need not be waited for.)
									stillOpen = stillOpen || !it.Status.Done() && itemOf(at, th, it.Seq) == nil
								}
							}
							if j < k && then.Fold.ItemsMade() < to {
								t.Fatalf("Items(%d, %q, %d, %d) stopped at %d, before the items wanted were there", k, th.ID, from, to, j)
							}
							if j < k && stillOpen && then.Fold.ItemsMade() < to+2*(to-from) {
								t.Fatalf("Items(%d, %q, %d, %d) stopped at %d with an item open", k, th.ID, from, to, j)
							}
							if a, b := jsonOf(t, got), jsonOf(t, want); a != b {
								t.Fatalf("Items(%d, %q, %d, %d):\n got %s\nwant %s", k, th.ID, from, to, a, b)
							}
							// The steps the tool-call rows show, as rows draw them.
							var rows []*model.Step
							for _, it := range want {
								if s := then.Fold.Step(it.Step); it.Kind == model.ItemToolCall && s != nil {
									rows = append(rows, s)
								}
							}
							if len(steps) != len(rows) {
								t.Fatalf("Items(%d, %q, %d, %d): %d steps for %d tool calls", k, th.ID, from, to, len(steps), len(rows))
							}
							for i, s := range rows {
								if g := steps[i]; g.Index != s.Index || g.Label() != s.Label() || g.Status != s.Status || g.Result != "" || g.Args != "" {
									t.Fatalf("Items(%d, …): step %d reads back as %q %s, want %q %s without content", k, s.Index, g.Label(), g.Status, s.Label(), s.Status)
								}
							}
						}
					}
				}
				if len(recs) > 20 && shed == 0 {
					t.Fatal("nothing was shed: the test reads nothing back")
				}
				if _, _, _, err := tl.Items(len(recs), "", "", 3, 3); err == nil {
					t.Fatal("an empty range: want an error")
				}
				if _, _, _, err := tl.Items(len(recs), "", "no such thread", 1, 2); err == nil {
					t.Fatal("a thread the log does not have: want an error")
				}
			})
		}
	}
}

// ItemsChecked hands its check every record it folds, in order and
// without a gap, up to where it stopped, before folding them; an error of
// the check is the read's.
func TestTimelineItemsChecked(t *testing.T) {
	reads := 0
	for name, recs := range seekFixtures(t) {
		tl := modeTimeline(t, recs, 3, timelineModes[0])
		last := foldRecs(recs).List()
		th := last[len(last)-1]
		made := th.Fold.ItemsMade()
		if made < 4 {
			continue
		}
		from := made - 2
		next := -1
		var first int
		items, _, j, err := tl.ItemsChecked(len(recs), th.Source, th.ID, from, made+1, func(at int, got []model.Record) error {
			if next >= 0 && at != next {
				t.Fatalf("%s: records checked from %d after ending at %d", name, at, next)
			}
			if next < 0 {
				first = at
			}
			for i := range got {
				if got[i].Seq != recs[at+i].Seq {
					t.Fatalf("%s: record %d checked as position %d", name, got[i].Seq, at+i)
				}
			}
			next = at + len(got)
			return nil
		})
		if err != nil || len(items) == 0 {
			t.Fatalf("%s: %d items, %v", name, len(items), err)
		}
		if next != j || first > j {
			t.Fatalf("%s: records %d to %d checked, the read folded to %d", name, first, next, j)
		}
		reads++
		stop := errors.New("changed")
		if _, _, _, err := tl.ItemsChecked(len(recs), th.Source, th.ID, from, made+1, func(int, []model.Record) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("%s: a check that fails: %v", name, err)
		}
	}
	if reads == 0 {
		t.Fatal("no fixture has items to read back: the test tests nothing")
	}
}
