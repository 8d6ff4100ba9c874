package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// rowOfStep is the row of the view that shows step's tool call, or -1.
func rowOfStep(tr *Transcript, items []*model.Item, step int) int {
	for row := range tr.height {
		seq, ok := tr.ItemAt(row)
		if !ok {
			continue
		}
		for _, it := range items {
			if it.Seq == seq && it.Kind == model.ItemToolCall && it.Step == step {
				return row
			}
		}
	}
	return -1
}

// ShowStep brings a step's row into view from above and from below,
// scrolling the least: a row already in view does not move.
func TestShowStepRevealsTheRow(t *testing.T) {
	items, steps := demoTranscript(t)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(80, 12)
	tr.View()
	for _, step := range []int{0, len(steps) - 1, 3, 17, 16, 29, 5} {
		if !tr.ShowStep(step) {
			t.Fatalf("step %d has no row", step)
		}
		view := tr.View()
		row := rowOfStep(tr, items, step)
		if row < 0 {
			t.Fatalf("step %d: its row is not in view:\n%s", step, strings.Join(view, "\n"))
		}
		if !strings.Contains(ansi.Strip(view[row]), "▶") {
			t.Errorf("step %d: row %d is not marked: %q", step, row, ansi.Strip(view[row]))
		}
		before := strings.Join(view, "\n")
		tr.ShowStep(step)
		if strings.Join(tr.View(), "\n") != before {
			t.Errorf("step %d: showing a row in view scrolled", step)
		}
		if got, ok := tr.CursorStep(); !ok || got != step {
			t.Errorf("step %d: the cursor is on step %d (%v)", step, got, ok)
		}
	}
}

// The cursor stops at the first and last rows, and stays on its item
// while more items arrive below.
func TestCursorBoundsAndAnchor(t *testing.T) {
	items, steps := demoTranscript(t)
	tr := New()
	tr.SetItems(items[:len(items)/2], steps)
	tr.SetSize(60, 10)
	tr.SetCursorShown(true)
	tr.View()
	tr.CursorToTop()
	tr.MoveCursor(-5)
	if seq, _ := tr.CursorItem(); seq != items[0].Seq {
		t.Errorf("above the top the cursor is on item %d", seq)
	}
	tr.MoveCursor(4)
	seq, _ := tr.CursorItem()
	view := strings.Join(tr.View(), "\n")
	tr.SetItems(items, steps)
	if got, _ := tr.CursorItem(); got != seq {
		t.Errorf("new items moved the cursor from item %d to %d", seq, got)
	}
	if strings.Join(tr.View(), "\n") != view {
		t.Error("new items below scrolled the view")
	}
	tr.MoveCursor(1 << 20)
	if seq, _ := tr.CursorItem(); seq != items[len(items)-1].Seq {
		t.Errorf("past the bottom the cursor is on item %d", seq)
	}
	if !tr.Following() {
		t.Error("the cursor on the last row does not follow the bottom")
	}
	// The cursor row carries the cursor's background, and only it.
	marked := 0
	for _, l := range tr.View() {
		if strings.Contains(l, "48;5;237") {
			marked++
		}
	}
	if marked != 1 {
		t.Errorf("%d rows carry the cursor", marked)
	}
}
