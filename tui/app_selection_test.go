package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
)

// markedRow returns the transcript row that carries the selection's mark
// (▶), or -1 when none in view does.
func (d *demoApp) markedRow() int {
	g := d.geo.transcript
	for row := range g.h {
		line := ansi.Strip(d.frame[g.y+row])
		line = ansi.Cut(line, g.x, g.x+g.w)
		if strings.Contains(ansi.Cut(line, 0, 7), "▶") {
			return row
		}
	}
	return -1
}

// checkMarked fails unless the selected step's row is in the transcript's
// view, marked, and shows that step.
func checkMarked(t *testing.T, d *demoApp, how string) {
	t.Helper()
	row := d.markedRow()
	if row < 0 {
		t.Fatalf("%s: step %d selected, no marked row in view:\n%s", how, d.selected, d.plain())
	}
	seq, ok := d.transcript.ItemAt(row)
	it := d.itemBySeq(seq)
	if !ok || it == nil || it.Step != d.selected {
		t.Fatalf("%s: the marked row %d shows %+v, not step %d", how, row, it, d.selected)
	}
	label := render.StepLabel(d.fold.Steps()[d.selected])
	if line := ansi.Strip(d.frame[d.geo.transcript.y+row]); !strings.Contains(line, ansi.Truncate(label, 20, "")) {
		t.Errorf("%s: the marked row %q does not show %q", how, line, label)
	}
}

// Selecting a step by key or by chip scrolls the transcript to its row and
// marks it, at every size, in both layouts.
func TestSelectionScrollsTranscript(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {100, 30}} {
		d := newDemoApp(t, sz[0], sz[1], true, AppOptions{})
		n := len(d.fold.Steps())
		for i := n - 2; i >= 0; i-- {
			d.press("left")
			if d.selected != i {
				t.Fatalf("%v: ← selected %d, want %d", sz, d.selected, i)
			}
			checkMarked(t, d, "←")
		}
		d.press("end")
		checkMarked(t, d, "End")
		d.press("home")
		checkMarked(t, d, "Home")
		for range n - 1 {
			d.press("right")
			checkMarked(t, d, "→")
		}
		d.press("[")
		checkMarked(t, d, "[")
		d.press("]")
		checkMarked(t, d, "]")
	}
}

// A chip click selects the step and brings its transcript row into view.
func TestChipClickScrollsTranscript(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	g := d.geo
	for col := 0; col < g.timeline.w; col++ {
		h := g.timelineView.HitAt(1, col)
		if h.Step < 0 {
			continue
		}
		d.Update(tea.MouseClickMsg{X: col + g.timeline.x, Y: g.timeline.y + 1, Button: tea.MouseLeft})
		if d.selected != h.Step {
			t.Fatalf("a click on chip %d selected %d", h.Step, d.selected)
		}
		checkMarked(t, d, "chip click")
		g = d.geo
	}
}

// Moving the transcript's cursor selects the step under it: every step's
// row is passed on the way from the top to the bottom, in order.
func TestCursorSelectsSteps(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		d := newDemoApp(t, sz[0], sz[1], true, AppOptions{})
		d.press("g")
		seen := map[int]bool{}
		last := -1
		for range 2000 {
			d.press("j")
			step, ok := d.transcript.CursorStep()
			if !ok {
				continue
			}
			if d.selected != step {
				t.Fatalf("%v: the cursor is on step %d, %d is selected", sz, step, d.selected)
			}
			checkMarked(t, d, "j")
			if d.selected < last {
				t.Fatalf("%v: going down selected %d after %d", sz, d.selected, last)
			}
			last = d.selected
			seen[d.selected] = true
		}
		if n := len(d.fold.Steps()); len(seen) != n {
			t.Errorf("%v: the cursor selected %d of %d steps on its way down", sz, len(seen), n)
		}
		// Back up with k and the page keys, the selection follows.
		d.press("pgup", "ctrl+u", "k")
		if step, ok := d.transcript.CursorStep(); ok && step != d.selected {
			t.Errorf("%v: after paging up the cursor is on %d, %d selected", sz, step, d.selected)
		}
		if d.following {
			t.Errorf("%v: moving the cursor left the screen following live", sz)
		}
	}
}

// While following live the newest step is selected, marked and in view.
func TestFollowingLiveMarksNewest(t *testing.T) {
	d := newDemoApp(t, 120, 40, false, AppOptions{})
	n := len(d.fold.Steps())
	if !d.following || d.selected != n-1 {
		t.Fatalf("live: selected %d following %v", d.selected, d.following)
	}
	checkMarked(t, d, "live")
	d.press("left", "k", "k")
	if d.following {
		t.Fatal("← kept following")
	}
	d.press("L")
	if !d.following || d.selected != n-1 || !d.transcript.Following() {
		t.Fatalf("L: selected %d, following %v, transcript at the bottom %v", d.selected, d.following, d.transcript.Following())
	}
	checkMarked(t, d, "L")
}

// v (the other layout), c (the computer hidden and shown) and a resize
// keep the selected step's row in view: the transcript's size changed
// under it.
func TestLayoutChangeKeepsSelectionInView(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		keys []string
	}{{160, 48, []string{"v"}}, {80, 24, []string{"v"}}, {120, 40, []string{"v"}}, {80, 24, []string{"v", "v"}},
		{160, 48, []string{"c", "c"}}, {80, 24, []string{"c"}}, {160, 48, []string{"resize"}}} {
		keys := tc.keys
		d := newDemoApp(t, tc.w, tc.h, true, AppOptions{})
		d.press("left", "left") // a row near the bottom of the view
		d.View()
		checkMarked(t, d, "before")
		for _, k := range keys {
			if k == "resize" {
				d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				continue
			}
			d.press(k)
		}
		d.View()
		checkMarked(t, d, fmt.Sprintf("%d×%d %s", tc.w, tc.h, strings.Join(keys, " ")))
	}
}
