package threadlist

// This file draws the thread list: the columns that fit the width, the
// header, the rows with their marks, and the scroll that keeps the
// selection visible.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// View draws the list in width×height cells: a dim header naming the
// columns, then one row per thread, the selected one in reverse video,
// scrolled to keep it visible. When not all rows fit, the last line says
// which are shown ("rows 21–40 of 104") unless that would leave a single
// row; an empty list says "no threads yet"; a height of 1 shows the
// selected row alone. At 140 columns and more
// the id, source, first time and duration columns are added. Every line is
// exactly width cells; nothing is drawn for a width or height below 1.
func (l *List) View(width, height int) []string {
	l.drawnLine, l.drawnTop, l.drawnCount = 0, 0, 0
	if width < 1 || height < 1 {
		return nil
	}
	n := len(l.rows)
	cols := l.layout(width)
	lines := make([]string, 0, height)
	if height == 1 {
		if n > 0 {
			l.top = l.selected
			l.drawnTop, l.drawnCount = l.selected, 1
			return append(lines, l.rowLine(l.selected, cols, width))
		}
		return append(lines, threadNote("no threads yet", width))
	}
	lines = append(lines, threadHeader(cols, width))
	visible := height - 1
	status := n > visible && visible >= 2 // else the one row is worth more
	if status {
		visible--
	}
	if n == 0 {
		lines = append(lines, threadNote("no threads yet", width))
	}
	if n > 0 {
		l.scroll(visible)
		end := min(n, l.top+visible)
		for i := l.top; i < end; i++ {
			lines = append(lines, l.rowLine(i, cols, width))
		}
		l.drawnLine, l.drawnTop, l.drawnCount = 1, l.top, end-l.top
		if status {
			lines = append(lines, threadNote("rows "+strconv.Itoa(l.top+1)+"–"+strconv.Itoa(end)+" of "+strconv.Itoa(n), width))
		}
	}
	for len(lines) < height {
		lines = append(lines, strings.Repeat(" ", width))
	}
	return lines[:height]
}

// scroll moves the first shown row as little as keeps the selection among
// the visible rows, and never leaves blank lines under the last row.
func (l *List) scroll(visible int) {
	if l.selected < l.top {
		l.top = l.selected
	}
	if l.selected >= l.top+visible {
		l.top = l.selected - visible + 1
	}
	l.top = max(0, min(l.top, len(l.rows)-visible))
}

// threadColumn is one laid-out column: which, and its width in cells.
type threadColumn struct {
	col   threadCol
	width int
}

// layout picks the columns for width cells and their widths: each as wide
// as its widest value or its name, the title taking what is left. Columns
// give way in threadColsDrop order while the title would keep fewer than
// threadTitleMin cells.
func (l *List) layout(width int) []threadColumn {
	want := threadColsNarrow
	if l.projects {
		want = threadColsNarrowProject
	}
	if width >= threadWideAt {
		want = threadColsWide
	}
	if !l.agents {
		want = slices.DeleteFunc(slices.Clone(want), func(c threadCol) bool { return c == colState })
	} else if width < threadWideAt {
		// After the source: narrow, the state is what a row is read for.
		i := slices.Index(want, colRuns)
		want = slices.Insert(slices.Clone(want), i, colState)
	}
	colWidth := func(c threadCol) int {
		return max(l.widest[c], len(threadColNames[c]))
	}
	shown := map[threadCol]bool{}
	fixed := threadMarkCells + 1
	for _, c := range want {
		shown[c] = true
		if c != colTitle {
			fixed += threadColGap + colWidth(c)
		}
	}
	for _, c := range threadColsDrop {
		if width-fixed >= threadTitleMin {
			break
		}
		if shown[c] {
			shown[c] = false
			fixed -= threadColGap + colWidth(c)
		}
	}
	cols := make([]threadColumn, 0, len(want))
	for _, c := range want {
		if !shown[c] {
			continue
		}
		w := colWidth(c)
		if c == colTitle {
			w = max(width-fixed, 0)
		}
		cols = append(cols, threadColumn{c, w})
	}
	return cols
}

// threadRightAligned says whether a column's values are numbers or times,
// lined up on the right.
func threadRightAligned(c threadCol) bool { return c >= colRuns }

// threadHeader is the dim line naming the columns.
func threadHeader(cols []threadColumn, width int) string {
	w := render.NewLine(width)
	w.Spaces(threadMarkCells + 1)
	for i, c := range cols {
		if i > 0 {
			w.Spaces(threadColGap)
		}
		name := threadColNames[c.col]
		if threadRightAligned(c.col) {
			w.Spaces(c.width - len(name))
			w.Put(name, styles.ParamDim)
		} else {
			w.Cut(name, c.width, styles.ParamDim)
			w.Spaces(c.width - min(len(name), c.width))
		}
	}
	return w.String()
}

// threadNote is a dim line of text under the marks column.
func threadNote(text string, width int) string {
	w := render.NewLine(width)
	w.Spaces(threadMarkCells + 1)
	w.Put(text, styles.ParamDim)
	return w.String()
}

// rowLine draws row i: the marks, then each column.
func (l *List) rowLine(i int, cols []threadColumn, width int) string {
	r, c := l.rows[i], l.cells[i]
	p := render.NewPen(width, i == l.selected)
	mark := func(on bool, glyph, sgr string) {
		if on {
			p.Put(glyph, sgr)
		} else {
			p.Pad(1)
		}
	}
	mark(r.Current, threadMarkCurrent, "")
	if r.Agent == model.AgentWaiting {
		mark(true, threadMarkLive, styles.ParamAttention)
	} else {
		mark(r.Live, threadMarkLive, styles.ParamGreen)
	}
	if r.Asking {
		mark(true, threadMarkAsking, styles.ParamAttention)
	} else {
		mark(r.Marked, threadMarkNew, styles.ParamBold+";"+styles.ParamYellow)
	}
	p.Pad(1)
	for k, col := range cols {
		if k > 0 {
			p.Pad(threadColGap)
		}
		text, cells := c.text[col.col], c.cols[col.col]
		sgr := threadCellSGR(r, &c, col.col)
		if threadRightAligned(col.col) {
			p.Pad(col.width - cells)
			p.Put(text, sgr)
			continue
		}
		p.Cut(text, col.width, sgr)
		p.Pad(col.width - min(cells, col.width))
	}
	return p.String()
}

// threadCellSGR is the colour of one cell of a row.
func threadCellSGR(r Row, c *threadCells, col threadCol) string {
	switch {
	case c.dim[col]:
		return styles.ParamDim
	case col == colFailed && r.Failed > 0:
		return "1;" + styles.ParamRed
	case col == colTitle && (r.Marked || r.Asking):
		return styles.ParamBold
	case col == colState:
		return agentSGR(r.Agent)
	}
	return ""
}

// agentSGR is the colour of an agent's state: working green as a live
// mark is, waiting for you as what asks for attention, ended dim.
func agentSGR(s model.AgentState) string {
	switch s {
	case model.AgentWorking:
		return styles.ParamGreen
	case model.AgentWaiting:
		return styles.ParamAttention
	case model.AgentEnded:
		return styles.ParamDim
	}
	return ""
}
