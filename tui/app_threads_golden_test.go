package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/model"
)

// threadSizes are the screens the goldens are drawn on: a terminal's
// default, where a thread's panel is a bottom sheet, and a wide one, where
// it is a side pane.
var threadSizes = [][2]int{{80, 24}, {200, 60}}

// pressed30 returns recs with their times drawn 30 times closer to the
// first record's: a busy server, where several threads were active within
// seconds of each other.
func pressed30(recs []model.Record) []model.Record {
	t0 := recs[0].At
	for i := range recs {
		recs[i].At = t0.Add(recs[i].At.Sub(t0) / 30)
	}
	return recs
}

// TestThreadsAppGolden draws the screens of a log of six threads:
//
//	list     the thread list of the saved log (no live marks)
//	help     the help overlay over the list
//	thread   the branch thread opened from the list, in the auto layout and
//	         in the one auto does not choose at that width
//	runtree  that thread with its run tree (t) in the panel
//	live     the list of a live log: three threads live (●), among them
//	         the one shown last (›) and one that got records meanwhile (◆)
func TestThreadsAppGolden(t *testing.T) {
	for _, sz := range threadSizes {
		w, h := sz[0], sz[1]
		suffix := fmt.Sprintf("_%dx%d", w, h)
		saved := func(t *testing.T, opts AppOptions) *threadsApp {
			opts.Title = threadsSource
			d := newThreadsApp(t, w, h, opts, model.Batch{Source: threadsSource, Records: threadsRecords(t)})
			d.close(t)
			return d
		}
		t.Run("list"+suffix, func(t *testing.T) {
			d := saved(t, AppOptions{})
			golden.RequireEqual(t, d.screen(t))
		})
		t.Run("help"+suffix, func(t *testing.T) {
			d := saved(t, AppOptions{})
			d.press("?")
			golden.RequireEqual(t, d.screen(t))
		})
		// The auto layout, and the one auto does not choose at this width;
		// the one it chooses, forced, draws what auto draws.
		chosen, other := LayoutSheet, LayoutSide
		if w >= sideMinWidth {
			chosen, other = other, chosen
		}
		for _, layout := range []string{LayoutAuto, other} {
			name := "thread_" + layout + suffix
			t.Run(name, func(t *testing.T) {
				d := saved(t, AppOptions{Layout: layout})
				d.open(t, branchThread(t, d.tv().set))
				got := d.screen(t)
				golden.RequireEqual(t, got)
				if layout != LayoutAuto {
					return
				}
				f := saved(t, AppOptions{Layout: chosen})
				f.open(t, branchThread(t, f.tv().set))
				if f.screen(t) != got {
					t.Errorf("layout %s draws otherwise than auto at %d columns", chosen, w)
				}
			})
		}
		t.Run("runtree"+suffix, func(t *testing.T) {
			d := saved(t, AppOptions{})
			d.open(t, branchThread(t, d.tv().set))
			d.press("t")
			golden.RequireEqual(t, d.screen(t))
		})
		t.Run("live"+suffix, func(t *testing.T) {
			recs := pressed30(threadsRecords(t))
			// The records before the last run, then the last run (of a
			// thread other than the branch thread) while the branch
			// thread is on screen.
			runs := logRuns(t, recs)
			cut := runs[len(runs)-1].from
			now := recs[len(recs)-1].At.Add(3 * time.Second)
			d := newThreadsApp(t, w, h, AppOptions{Title: threadsSource, Now: func() time.Time { return now }},
				model.Batch{Source: threadsSource, Records: recs[:cut]})
			d.open(t, branchThread(t, d.tv().set))
			d.feed(t, model.Batch{Source: threadsSource, Records: recs[cut:]})
			d.press("esc")
			var live, marked int
			for _, r := range d.tv().list.Rows() {
				live += btoi(r.Live)
				marked += btoi(r.Marked)
			}
			if live != 3 || marked != 1 || !d.tv().list.Rows()[0].Marked {
				t.Errorf("%d rows live, %d marked, want 3 and the first", live, marked)
			}
			golden.RequireEqual(t, d.screen(t))
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
