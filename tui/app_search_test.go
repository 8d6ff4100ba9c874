package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// typeText types s into the focused input, key by key.
func (d *demoApp) typeText(s string) {
	for _, r := range s {
		d.press(string(r))
	}
}

// searchLineText is the line that says what the search and filter are.
func (d *demoApp) searchLineText() string {
	return ansi.Strip(d.frame[len(d.frame)-2])
}

// / finds a word of a tool output; n and N go through every match in
// order and wrap around, and the line says which match is shown.
func TestSearchCountsAndWraps(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	want := search.Find(d.fold.Items(), d.fold.Steps(), search.NewMatcher("parselength"), nil)
	if len(want) < 5 {
		t.Fatalf("the demo has %d matches of parselength", len(want))
	}
	d.press("g", "/")
	d.typeText("parselength")
	d.press("enter")
	if got := len(d.search.hits); got != len(want) {
		t.Fatalf("%d matches, want %d", got, len(want))
	}
	if line := d.searchLineText(); !strings.Contains(line, "match 1 of "+thousands(len(want))) {
		t.Fatalf("the search line says %q", line)
	}
	seen := []int{d.search.cur}
	for range len(want) - 1 {
		d.press("n")
		seen = append(seen, d.search.cur)
		h := d.search.hits[d.search.cur]
		if h.Step >= 0 && d.selected != h.Step {
			t.Fatalf("match %d is step %d, %d selected", d.search.cur, h.Step, d.selected)
		}
	}
	for i, c := range seen {
		if c != i {
			t.Fatalf("n visited %v, want every match in order", seen)
		}
	}
	d.press("n")
	if d.search.cur != 0 || !strings.Contains(d.plain(), "wrapped") {
		t.Errorf("n after the last match: match %d, note %q", d.search.cur, d.note)
	}
	d.press("N")
	if d.search.cur != len(want)-1 {
		t.Errorf("N before the first match went to %d", d.search.cur)
	}
	// A match in a step's output is drawn in the computer, scrolled to it.
	for i, h := range d.search.hits {
		if h.Step >= 0 && strings.Contains(d.fold.Steps()[h.Step].Result, "ParseLength") {
			for d.search.cur != i {
				d.press("n")
			}
			break
		}
	}
	if !strings.Contains(strings.Join(d.frame, "\n"), styles.Match+"ParseLength") {
		t.Error("the match is not highlighted on screen")
	}
	// esc clears the search.
	d.press("esc")
	if d.searching() || strings.Contains(strings.Join(d.frame, "\n"), styles.Match) {
		t.Error("esc left the search in force")
	}
}

// The failed filter leaves only failed steps: on the timeline, in the
// transcript, in "step N of M", and for the step keys.
func TestFilterFailed(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	var failed []int
	for i, s := range d.fold.Steps() {
		if s.Status == model.StatusFailed {
			failed = append(failed, i)
		}
	}
	if len(failed) < 2 {
		t.Fatalf("the demo has %d failed steps", len(failed))
	}
	d.press("f")
	d.typeText("failed")
	d.press("enter")
	checkFailedOnly(t, d, failed)
	d.press("home")
	for _, want := range failed {
		if d.selected != want {
			t.Fatalf("→ through the failed steps reached %d, want %d", d.selected, want)
		}
		d.press("right")
	}
	status := ansi.Strip(d.frame[d.geo.panelView.y+d.geo.panelView.h])
	if want := "of " + thousands(len(failed)); !strings.Contains(status, want) || !strings.Contains(status, "filter failed") {
		t.Errorf("the status line %q does not count the failed steps", status)
	}
	// The same from the command line.
	e := newDemoApp(t, 160, 48, true, AppOptions{Filter: "failed"})
	checkFailedOnly(t, e, failed)
	// esc clears it.
	d.press("esc")
	if d.filtering() || strings.Count(ansi.Strip(d.frame[d.geo.timeline.y+1]), "exec") < 2 {
		t.Error("esc left the filter in force")
	}
}

func checkFailedOnly(t *testing.T, d *demoApp, failed []int) {
	t.Helper()
	if len(d.shownSteps()) != len(failed) {
		t.Fatalf("the timeline shows %d steps, want the %d failed", len(d.shownSteps()), len(failed))
	}
	for _, s := range d.shownSteps() {
		if s.Status != model.StatusFailed {
			t.Fatalf("the timeline shows a %s step", s.Status)
		}
	}
	screen := d.plain()
	for _, s := range d.fold.Steps() {
		if s.Status != model.StatusFailed && strings.Contains(screen, "✓ "+"❯ "+s.Label()) {
			t.Errorf("the transcript still shows %q", s.Label())
		}
	}
	if !strings.Contains(d.searchLineText(), "filter failed · "+thousands(len(failed))+" of ") {
		t.Errorf("the search line says %q", d.searchLineText())
	}
}

// e and E jump to the next and previous failed step, wrapping around.
func TestNextFailed(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	var failed []int
	for i, s := range d.fold.Steps() {
		if s.Status == model.StatusFailed {
			failed = append(failed, i)
		}
	}
	d.press("home", "e")
	if d.selected != failed[0] {
		t.Fatalf("e from the first step went to %d, want %d", d.selected, failed[0])
	}
	checkMarked(t, d, "e")
	d.press("e")
	if d.selected != failed[1] {
		t.Fatalf("e again went to %d, want %d", d.selected, failed[1])
	}
	d.press("E")
	if d.selected != failed[0] {
		t.Fatalf("E went to %d, want %d", d.selected, failed[0])
	}
	d.press("E")
	if d.selected != failed[len(failed)-1] {
		t.Fatalf("E before the first failure went to %d, want the last %d", d.selected, failed[len(failed)-1])
	}
}

// An unreadable filter says why and changes nothing.
func TestFilterError(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	d.press("f")
	d.typeText("bogus")
	d.press("enter")
	if d.filtering() || d.search.asking != inputFilter || !strings.Contains(d.searchLineText(), "bogus") {
		t.Fatalf("a bad filter: filtering %v, asking %v, line %q", d.filtering(), d.search.asking, d.searchLineText())
	}
	d.press("esc")
	if d.search.asking != inputNone {
		t.Error("esc did not close the filter line")
	}
}

// An empty search or filter line shows its whole placeholder (not "/t"),
// and a search's matches stay marked without colours (NO_COLOR): reverse
// video survives where colours are dropped.
func TestSearchLineReadsWithoutColours(t *testing.T) {
	d := newDemoApp(t, 100, 30, true, AppOptions{})
	d.press("/")
	if line := d.searchLineText(); !strings.Contains(line, "/text in messages, steps, arguments, output") {
		t.Fatalf("the empty search line reads %q", line)
	}
	d.press("esc", "f")
	if line := d.searchLineText(); !strings.Contains(line, "filter: failed · execute,edit") {
		t.Fatalf("the empty filter line reads %q", line)
	}
	d.press("esc", "/")
	d.typeText("ParseLength")
	d.press("enter")
	if plain := withoutColours(strings.Join(d.frame, "\n")); !strings.Contains(plain, "\x1b[7mParseLength") {
		t.Fatal("without colours the matches are not marked")
	}
}
