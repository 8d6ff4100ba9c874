package computer

// This file lays out the step timeline under the computer panel:
// the slider, the chip row and the prev / play / next controls, plus
// what a mouse click on any of their cells means. It only renders; the
// screen owns the state and calls Timeline once per frame.

import (
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// HitKind says what a timeline cell does when clicked.
type HitKind int

// The hit kinds. HitNone is the zero value, so an unset cell does nothing.
const (
	HitNone HitKind = iota // padding, separators, the empty slider
	HitChip                // a chip (or a scroll marker next to the chips): select Hit.Step
	HitTick                // a slider cell: seek to Hit.Step (press and drag)
	HitPrev                // the prev button
	HitPlay                // the play / pause button
	HitNext                // the next button
	HitLive                // "● LIVE" or "⏭ Back to live": follow the newest step
)

var hitKindNames = [...]string{"none", "chip", "tick", "prev", "play", "next", "live"}

// String returns the kind as a lower-case word, for tests and logs.
func (k HitKind) String() string {
	if k < 0 || int(k) >= len(hitKindNames) {
		return "unknown"
	}
	return hitKindNames[k]
}

// Hit is what a click on one timeline cell means. Step is the step index for
// HitChip and HitTick, and -1 otherwise.
type Hit struct {
	Kind HitKind
	Step int
}

var noHit = Hit{Kind: HitNone, Step: -1}

// TimelineState is what the timeline shows: the steps of the selected reply,
// the selected one, whether play is on, whether the panel follows live, and
// whether it follows a source whose runs have all finished (Watching: it
// says so instead of LIVE).
type TimelineState struct {
	Steps    []*model.Step
	Current  int
	Playing  bool
	Live     bool
	Watching bool
}

// TimelineView is a laid-out timeline: three lines (slider, chips, controls),
// each exactly the requested width, and what a click on each cell means.
type TimelineView struct {
	Lines []string
	hits  [][]Hit // per line, per cell
}

// The lines of a TimelineView.
const (
	TimelineSlider   = 0
	TimelineChips    = 1
	TimelineControls = 2
	// TimelineLines is how many lines a TimelineView has.
	TimelineLines = 3
)

// HitAt returns what a click at (line, col) of the view means; HitNone
// outside it.
func (v TimelineView) HitAt(line, col int) Hit {
	if line < 0 || line >= len(v.hits) || col < 0 || col >= len(v.hits[line]) {
		return noHit
	}
	return v.hits[line][col]
}

// SliderStep returns the step nearest to column col of the slider line, for
// dragging: columns left of the slider give the first step, right of it the
// last. It returns -1 when there are no steps.
func (v TimelineView) SliderStep(col int) int {
	if len(v.hits) == 0 || len(v.hits[TimelineSlider]) == 0 {
		return -1
	}
	row := v.hits[TimelineSlider]
	col = max(0, min(col, len(row)-1))
	if row[col].Kind != HitTick {
		return -1
	}
	return row[col].Step
}

// timelineSGR is the colour of a step's chip and tick.
func timelineSGR(s model.Status) string {
	switch s {
	case model.StatusCompleted:
		return styles.ParamGreen
	case model.StatusFailed:
		return styles.ParamRed
	case model.StatusCancelled, model.StatusInterrupted, "": // "": a step no longer known
		return styles.ParamDim
	}
	return styles.ParamYellow // pending, running, and anything not yet final
}

func timelineStatus(s *model.Step) model.Status {
	if s == nil {
		return model.StatusPending
	}
	return s.Status
}

func timelineCategory(s *model.Step) model.Category {
	if s == nil {
		return model.CategoryOther
	}
	return s.Category
}

// Timeline lays out the timeline of s for a width of width cells: the slider
// (one tick per step spread over the width, ● done, ✗ failed, ○ pending or
// running, ◉ the current step; when there are more steps than cells, a cell
// stands for several and shows the most telling of them), the chip row (one
// chip per step coloured by status, the current one in brackets and reverse
// video, scrolled so that it is visible), and the controls. Every line is
// exactly width cells; nothing is drawn for a width below 1.
//
// Only the visible chips are looked at. The slider reads every step's status
// once, so that a failure among thousands still shows: 10,000 steps at 200
// columns take about 25 µs in all (BenchmarkTimeline), 1% of a frame.
func Timeline(s TimelineState, width int) TimelineView {
	width = max(width, 0)
	n := len(s.Steps)
	cur := -1
	if n > 0 {
		cur = max(0, min(s.Current, n-1))
	}
	v := TimelineView{Lines: make([]string, TimelineLines), hits: make([][]Hit, TimelineLines)}
	for i := range v.hits {
		v.hits[i] = make([]Hit, width)
	}
	if width == 0 {
		return v
	}
	v.Lines[TimelineSlider] = sliderLine(s.Steps, cur, width, v.hits[TimelineSlider])
	v.Lines[TimelineChips] = chipLine(s.Steps, cur, width, v.hits[TimelineChips])
	v.Lines[TimelineControls] = controlLine(s, cur, width, v.hits[TimelineControls])
	return v
}

// HideLiveButton blanks the controls' live button: once the input has ended
// there is no live to go back to.
func (v *TimelineView) HideLiveButton() {
	if TimelineControls >= len(v.hits) {
		return
	}
	hits := v.hits[TimelineControls]
	from, to := -1, -1
	for col, h := range hits {
		if h.Kind == HitLive {
			if from < 0 {
				from = col
			}
			to = col + 1
		}
	}
	if from < 0 {
		return
	}
	line := v.Lines[TimelineControls]
	v.Lines[TimelineControls] = ansi.Cut(line, 0, from) + styles.Reset + strings.Repeat(" ", to-from) + ansi.Cut(line, to, len(hits))
	for col := from; col < to; col++ {
		hits[col] = noHit
	}
}
