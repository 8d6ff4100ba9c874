package runtree

// This file draws the run tree for the panel: the title, the tree guides,
// each run's mark, id, branch and note, and its steps at the right.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// Limits of the run tree, in cells.
const (
	runIDMax     = 12 // run ids are cut in the middle to this
	runParentMax = 8  // so are the parents named on branch rows
	runNoteMin   = 6  // a note narrower than this is left out
	runGuideKeep = 16 // guides stop before leaving fewer cells than this
)

// Lines draws the run tree (rows as Rows makes them) for a panel
// of width×height cells: a title line ("runs · 5 · 2 branches · 1 failed",
// and which rows show when not all fit), then one line per run: tree guides
// (├─ └─ │) leading to branches, the status mark (✓ completed, ✗ failed,
// ● running, ⊘ cancelled, ○ other), the run id, "↳ r1" on a branch (the
// run it branches off), the error or outcome of a failed run (other
// outcomes dim, an orphan's note), and at the right the steps, failed
// steps and duration ("12 steps ✗2 36s", less when narrow). The selected
// row is a reverse video bar, scrolled to the middle when not all rows fit
// (the same rule as RowAt). Every line is exactly width cells;
// nothing is drawn for a width or height below 1.
func Lines(rows []Row, selected, width, height int) []string {
	if width < 1 || height < 1 {
		return nil
	}
	visible := height - 1
	top := runTreeTop(len(rows), selected, visible)
	end := min(len(rows), top+visible)
	lines := make([]string, 0, height)
	lines = append(lines, runTreeTitle(rows, top, end, width))
	if len(rows) == 0 && visible > 0 {
		w := render.NewLine(width)
		w.Put("no runs yet", styles.ParamDim)
		lines = append(lines, w.String())
	}
	if end > top {
		guides := runGuides(rows)
		right := runRightLayout(rows, width)
		for i := top; i < end; i++ {
			lines = append(lines, runTreeLine(rows, i, i == selected, guides[i], right, width))
		}
	}
	for len(lines) < height {
		lines = append(lines, strings.Repeat(" ", width))
	}
	return lines
}

// RowAt returns the row drawn at line line of what Lines(rows,
// selected, width, height) draws, and false for the title and empty lines.
func RowAt(rows []Row, selected, height, line int) (int, bool) {
	if line < 1 || line >= height {
		return -1, false
	}
	i := runTreeTop(len(rows), selected, height-1) + line - 1
	if i >= len(rows) {
		return -1, false
	}
	return i, true
}

// runTreeTop is the first row shown: the selected row in the middle, the
// list flush with its ends.
func runTreeTop(n, selected, visible int) int {
	if visible <= 0 || n <= visible {
		return 0
	}
	selected = max(0, min(selected, n-1))
	return max(0, min(selected-(visible-1)/2, n-visible))
}

// runTreeTitle is "runs · 5 · 2 branches · 1 failed" and, when not all rows
// show, "· 3–10".
func runTreeTitle(rows []Row, top, end, width int) string {
	branches, failed := 0, 0
	for _, r := range rows {
		if r.Branch {
			branches++
		}
		if r.Run.Status == model.StatusFailed {
			failed++
		}
	}
	w := render.NewLine(width)
	w.Put("runs", styles.ParamBold)
	w.Put(" · "+strconv.Itoa(len(rows)), styles.ParamDim)
	if branches > 0 {
		w.Put(" · "+plural(branches, "branch", "branches"), styles.ParamDim)
	}
	if failed > 0 {
		w.Put(" · ", styles.ParamDim)
		w.Put(strconv.Itoa(failed)+" failed", styles.ParamRed)
	}
	if top > 0 || end < len(rows) {
		w.Put(" · "+strconv.Itoa(top+1)+"–"+strconv.Itoa(end), styles.ParamDim)
	}
	return w.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// runGuides returns the tree guides of every row, two cells per level of
// its depth. On the level of a row's own branch, "├─" when a later branch
// at that level follows and "└─" when it is the last; "│ " on a row passed
// by a line that leads to a later branch. A row shallower than a line's
// level ends that line: runs are in the order they started, so a line can
// only run down through rows drawn deeper than it.
func runGuides(rows []Row) []string {
	out := make([]string, len(rows))
	var open []bool // open[c]: a branch at depth c+1 follows, unbroken
	var b strings.Builder
	for i := len(rows) - 1; i >= 0; i-- {
		d := rows[i].Depth
		b.Reset()
		for c := 0; c < d; c++ {
			on := c < len(open) && open[c]
			switch {
			case c == d-1 && rows[i].Branch && on:
				b.WriteString("├─")
			case c == d-1 && rows[i].Branch:
				b.WriteString("└─")
			case on:
				b.WriteString("│ ")
			default:
				b.WriteString("  ")
			}
		}
		out[i] = b.String()
		for len(open) < d {
			open = append(open, false)
		}
		for c := d; c < len(open); c++ {
			open[c] = false // a shallower row ends deeper lines
		}
		if rows[i].Branch && d > 0 {
			open[d-1] = true
		}
	}
	return out
}

// runRight is the layout of the right-hand counts, the same on every row so
// that they line up.
type runRight struct {
	short                     bool // "4" instead of "4 steps"
	steps, failed, dur, cells int  // column widths, 0 for a column left out; cells in all
}

func runSteps(r Row, short bool) string {
	if short {
		return strconv.Itoa(r.Steps)
	}
	return plural(r.Steps, "step", "steps")
}

// runFailed is "✗2" for two failed steps, "" for none.
func runFailed(r Row) string {
	if r.Failed == 0 {
		return ""
	}
	return "✗" + strconv.Itoa(r.Failed)
}

func runDuration(r *model.Run) string {
	if r.Started.IsZero() || r.Ended.IsZero() {
		return ""
	}
	return render.FormatStepDuration(r.Ended.Sub(r.Started))
}

// runRightLayout picks the widest form of the counts ("12 steps ✗2 36s",
// then without the duration, then "12 ✗2") that leaves every row its guides,
// mark, id, branch and some of its note; failing that, its guides, mark and
// some of its id; failing that, no counts at all.
func runRightLayout(rows []Row, width int) runRight {
	full, least := 0, 0
	for _, r := range rows {
		base := min(2*r.Depth, runGuideCells(width)) + 2
		id := render.CellWidth(sanitize.OneLine(r.Run.Name()))
		least = max(least, base+min(id, 6))
		need := base + min(id, runIDMax)
		if r.Branch && r.Parent >= 0 && r.Parent < len(rows) {
			need += 3 + min(render.CellWidth(sanitize.OneLine(rows[r.Parent].Run.Name())), runParentMax)
		}
		if r.Orphan || r.Run.Outcome != "" || r.Run.Status == model.StatusFailed && r.Run.Error != "" {
			need += 2 + runNoteMin
		}
		full = max(full, need)
	}
	for _, left := range []int{full, least} {
		for _, form := range []struct{ short, dur bool }{{false, true}, {false, false}, {true, false}} {
			l := runRight{short: form.short}
			for _, r := range rows {
				l.steps = max(l.steps, render.CellWidth(runSteps(r, form.short)))
				l.failed = max(l.failed, render.CellWidth(runFailed(r)))
				if form.dur {
					l.dur = max(l.dur, len(runDuration(r.Run)))
				}
			}
			l.cells = 2 + l.steps
			for _, c := range []int{l.failed, l.dur} {
				if c > 0 {
					l.cells += 1 + c
				}
			}
			if left+l.cells <= width {
				return l
			}
		}
	}
	return runRight{}
}

// runGuideCells is how many cells of a line guides may take.
func runGuideCells(width int) int { return max(0, width-runGuideKeep) &^ 1 }

// runStatusMark is a run's status glyph and colour: a step's, but a
// running run is a full dot (a step's half dot says it is under way).
func runStatusMark(s model.Status) (string, string) {
	if s == model.StatusRunning {
		return "●", styles.ParamYellow
	}
	return render.StepGlyph(s)
}

// runNoteText is what row i says after its id: a failed run's error (or
// outcome), an orphan's missing parent, another run's outcome; and its
// colour.
func runNoteText(rows []Row, i int) (string, string) {
	run := rows[i].Run
	switch {
	case run.Status == model.StatusFailed:
		text := run.Error
		if text == "" {
			text = run.Outcome
		}
		return sanitize.OneLine(text), styles.ParamRed
	case rows[i].Orphan:
		later := func(id string) bool {
			for _, r := range rows[i+1:] {
				if r.Run.RunID == id {
					return true
				}
			}
			return false
		}
		return orphanNote(run, render.ShortMiddle(sanitize.OneLine(run.ParentRunID), runParentMax), later), styles.ParamDim
	}
	return sanitize.OneLine(run.Outcome), styles.ParamDim
}

// runTreeLine draws row i.
func runTreeLine(rows []Row, i int, selected bool, guides string, right runRight, width int) string {
	r := rows[i]
	p := render.NewPen(width, selected)
	if g := runGuideCells(width); len(guides) > 0 && render.CellWidth(guides) > g {
		guides = ansi.TruncateLeft(guides, render.CellWidth(guides)-g, "")
	}
	p.Put(guides, styles.ParamDim)
	mark, sgr := runStatusMark(r.Run.Status)
	p.Put(mark, sgr)
	p.Pad(1)
	room := width - p.Col() - right.cells
	id := sanitize.OneLine(r.Run.Name())
	if id == "" {
		id = "(no run id)"
	}
	id = render.ShortMiddle(id, min(runIDMax, max(room, 1)))
	p.Put(id, styles.ParamBold)
	room -= render.CellWidth(id)
	if r.Branch && r.Parent >= 0 && r.Parent < len(rows) && room >= 4 {
		from := render.ShortMiddle(sanitize.OneLine(rows[r.Parent].Run.Name()), min(runParentMax, room-3))
		p.Put(" ↳ ", styles.ParamDim)
		p.Put(from, "")
		room -= 3 + render.CellWidth(from)
	}
	if note, sgr := runNoteText(rows, i); note != "" && room >= runNoteMin+2 {
		p.Pad(2)
		p.Cut(note, room-2, sgr)
		room -= 2 + min(render.CellWidth(note), room-2)
	}
	if right.cells == 0 {
		return p.String()
	}
	p.Pad(room + 2 + right.steps - render.CellWidth(runSteps(r, right.short)))
	stepsSGR := ""
	if r.Steps == 0 {
		stepsSGR = styles.ParamDim
	}
	p.Put(runSteps(r, right.short), stepsSGR)
	if right.failed > 0 {
		f := runFailed(r)
		p.Pad(1 + right.failed - render.CellWidth(f))
		p.Put(f, styles.ParamRed)
	}
	if right.dur > 0 {
		d := runDuration(r.Run)
		p.Pad(1 + right.dur - len(d))
		p.Put(d, styles.ParamDim)
	}
	return p.String()
}
