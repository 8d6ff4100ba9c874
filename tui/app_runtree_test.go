package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// runFirstStep is the index of run r's first step, -1 when it has none.
func runFirstStep(f *fold.Fold, r *model.Run) int {
	return slices.IndexFunc(f.Steps(), func(s *model.Step) bool { return s.RunID == r.RunID })
}

// t shows the run tree; with the panel focused ↑/↓ choose a run and Enter
// goes to its first step, as a click on its row does; [ and ] still step
// through the runs.
func TestThreadsAppRunTree(t *testing.T) {
	for _, sz := range threadSizes {
		d := savedThreads(t, sz[0], sz[1])
		th := branchThread(t, d.tv().set)
		d.open(t, th)
		runs := th.Fold.Runs()
		d.press("home", "t")
		if !d.showRuns || d.runCursor != 0 {
			t.Fatalf("%v: t: run tree %v, cursor %d", sz, d.showRuns, d.runCursor)
		}
		s := ansi.Strip(d.screen(t))
		if !strings.Contains(s, fmt.Sprintf("runs · %d", len(runs))) || !strings.Contains(s, "branches") {
			t.Fatalf("%v: no run tree of %d runs with branches:\n%s", sz, len(runs), s)
		}
		d.press("tab")
		for i := 1; i < len(runs); i++ {
			d.press("down", "enter")
			if want := runFirstStep(th.Fold, runs[i]); d.selected != want || d.step().RunID != runs[i].RunID {
				t.Fatalf("%v: ↓ Enter to run %d selected step %d, want %d", sz, i, d.selected, want)
			}
		}
		d.press("j", "enter")
		if d.runCursor != len(runs)-1 || d.step().RunID != runs[len(runs)-1].RunID {
			t.Errorf("%v: j past the last run: cursor %d", sz, d.runCursor)
		}
		d.press("k", "up", "enter")
		if d.step().RunID != runs[len(runs)-3].RunID {
			t.Errorf("%v: k ↑ Enter: run %s, want %s", sz, d.step().RunID, runs[len(runs)-3].RunID)
		}
		// A click on each run's row goes to it, the first last.
		for i := len(runs) - 1; i >= 0; i-- {
			s := d.screen(t)
			y := lineOf(s, runs[i].RunID[:6]+"…")
			if y < 0 || !d.geo.runTree.contains(d.geo.runTree.x+2, y) {
				t.Fatalf("%v: run %s not drawn in the run tree:\n%s", sz, runs[i].RunID, ansi.Strip(s))
			}
			d.Update(tea.MouseClickMsg{X: d.geo.runTree.x + 2, Y: y, Button: tea.MouseLeft})
			if want := runFirstStep(th.Fold, runs[i]); d.selected != want || d.runCursor != i {
				t.Fatalf("%v: a click on run %d selected step %d (cursor %d), want %d", sz, i, d.selected, d.runCursor, want)
			}
		}
		// [ and ] step through the runs' first steps, the panel focused or
		// not.
		for _, focus := range []string{"panel", "transcript"} {
			if focus == "transcript" {
				d.press("tab")
			}
			for i := 1; i < len(runs); i++ {
				d.press("]")
				if d.selected != runFirstStep(th.Fold, runs[i]) {
					t.Fatalf("%v, %s focused: ] to run %d selected step %d", sz, focus, i, d.selected)
				}
			}
			for i := len(runs) - 2; i >= 0; i-- {
				d.press("[")
				if d.selected != runFirstStep(th.Fold, runs[i]) {
					t.Fatalf("%v, %s focused: [ to run %d selected step %d", sz, focus, i, d.selected)
				}
			}
		}
		// t hides it; another thread opens without it.
		d.press("t")
		if d.showRuns || strings.Contains(ansi.Strip(d.screen(t)), "runs · ") {
			t.Errorf("%v: t again left the run tree", sz)
		}
		d.press("t", "}")
		if d.showRuns {
			t.Errorf("%v: } opened the next thread with the run tree", sz)
		}
	}
}
