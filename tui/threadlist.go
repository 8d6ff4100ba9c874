package tui

// The thread list: the screen a source with many threads opens on, one row
// per thread (its first user message, runs, steps, failures, last activity
// and marks), scrolled so the selected thread stays visible. The root model
// owns it and calls SetRows, Move and View; it has no Update of its own.

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// ThreadRow is one thread as the thread list shows it.
type ThreadRow struct {
	// ID is the thread id, "" when the source never named one.
	ID string
	// Title is the thread's first user message, "" when there is none. It
	// is agent text: untrusted, possibly long, multi-line, with escapes.
	Title string
	// Source is the file the thread comes from, "-" for stdin.
	Source string
	// Runs and Steps count the thread's runs and steps; Failed counts its
	// failed steps.
	Runs, Steps, Failed int
	// First and Last are the times of the thread's first and last records,
	// zero when unknown.
	First, Last time.Time
	// Live says records arrived a moment ago and the source is still live.
	Live bool
	// Marked says the thread became active while another was on screen.
	Marked bool
	// Current says this is the thread the screen showed last.
	Current bool
}

// Marks of a thread row, one cell each, in the row's first three cells.
const (
	threadMarkCurrent = "›"
	threadMarkLive    = "●"
	threadMarkNew     = "◆"
)

// Limits of the thread list's columns, in cells.
const (
	threadTitleMin  = 12 // the title keeps this much before other columns go
	threadIDMax     = 14 // ids (often UUIDs) are cut in the middle to this
	threadSourceMax = 24 // file names are cut in the middle to this
	threadWideAt    = 140
	threadMarkCells = 3 // current, live, new
	threadColGap    = 2
	// threadTitleBytes is how much of a title is cleaned: more than the
	// widest screen shows, so a first message of megabytes costs nothing.
	threadTitleBytes = 4096
)

// ThreadList is the list of a source's threads: the rows, the selected one
// and the scroll. View draws it; RowAt maps a click on the last view back to
// a row.
type ThreadList struct {
	rows     []ThreadRow
	cells    []threadCells
	widest   [threadColCount]int // widest value of each column over all rows
	selected int
	top      int // first row shown

	// What the last View drew, for RowAt and PageSize.
	drawnLine  int // line of the view that shows row drawnTop
	drawnTop   int
	drawnCount int

	// texts keeps each thread's cleaned title, id and source by what they
	// were made from: rows are set again on every batch of a live folder,
	// and cleaning a thousand titles each time made a folder of 1,000 logs
	// take 3 s to list (2.6 s of it here).
	texts map[threadTextKey]threadTexts
}

// threadTextKey is what a row's cleaned texts are made from.
type threadTextKey struct{ id, source, title string }

// threadTexts are a row's cleaned title, id and source, with their widths.
type threadTexts struct {
	title, id, source          string
	titleDim, idDim            bool
	titleCols, idCols, srcCols int
}

// threadCells is a row's text for each column, made once by SetRows so that
// View only lays out.
type threadCells struct {
	text [threadColCount]string
	cols [threadColCount]int  // cells of each text
	dim  [threadColCount]bool // a stand-in ("-", "(no thread id)") or a zero count
}

// The thread list's columns besides the marks.
type threadCol int

const (
	colTitle threadCol = iota
	colID
	colSource
	colRuns
	colSteps
	colFailed
	colFirst
	colLast
	colTook
	threadColCount
)

var threadColNames = [threadColCount]string{"thread", "id", "source", "runs", "steps", "failed", "first", "last", "took"}

// The columns shown narrow and wide, in order, and the order in which they
// give way when even those do not fit (the title never does).
var (
	threadColsNarrow = []threadCol{colTitle, colRuns, colSteps, colFailed, colLast}
	threadColsWide   = []threadCol{colTitle, colID, colSource, colRuns, colSteps, colFailed, colFirst, colLast, colTook}
	threadColsDrop   = []threadCol{colTook, colFirst, colSource, colID, colLast, colRuns, colSteps, colFailed}
)

// NewThreadList returns an empty thread list.
func NewThreadList() *ThreadList {
	return &ThreadList{selected: -1}
}

// SetRows replaces the rows, given in display order. The selection stays on
// the same thread (same ID and Source) when it is still listed, and is
// clamped otherwise.
func (l *ThreadList) SetRows(rows []ThreadRow) {
	var keep *ThreadRow
	if l.selected >= 0 && l.selected < len(l.rows) {
		r := l.rows[l.selected]
		keep = &r
	}
	l.rows = rows
	l.prepare()
	if keep != nil {
		for i, r := range rows {
			if r.ID == keep.ID && r.Source == keep.Source {
				l.selected = i
				return
			}
		}
	}
	l.Select(l.selected)
}

// Select selects row i, clamped to the rows.
func (l *ThreadList) Select(i int) {
	if len(l.rows) == 0 {
		l.selected = -1
		return
	}
	l.selected = max(0, min(i, len(l.rows)-1))
}

// Selected returns the selected row's index, -1 when the list is empty.
func (l *ThreadList) Selected() int { return l.selected }

// Move moves the selection by delta rows, clamped: ±1 for the arrows,
// ±PageSize for a page, a large delta for the first or last row.
func (l *ThreadList) Move(delta int) {
	if len(l.rows) == 0 {
		return
	}
	// Saturating, so that Move(math.MinInt) means "the first row".
	switch {
	case delta < -len(l.rows):
		l.Select(0)
	case delta > len(l.rows):
		l.Select(len(l.rows) - 1)
	default:
		l.Select(l.selected + delta)
	}
}

// PageSize returns how many rows the last View showed (at least 1), the
// step of PgUp and PgDn.
func (l *ThreadList) PageSize() int { return max(l.drawnCount, 1) }

// RowAt returns the index of the row drawn at line line of the last View,
// and false for the header, the status line and lines below the rows.
func (l *ThreadList) RowAt(line int) (int, bool) {
	k := line - l.drawnLine
	if k < 0 || k >= l.drawnCount {
		return -1, false
	}
	return l.drawnTop + k, true
}

// View draws the list in width×height cells: a dim header naming the
// columns, then one row per thread, the selected one in reverse video,
// scrolled to keep it visible. When not all rows fit, the last line says
// which are shown ("rows 21–40 of 104") unless that would leave a single
// row; an empty list says "no threads yet"; a height of 1 shows the
// selected row alone. At 140 columns and more
// the id, source, first time and duration columns are added. Every line is
// exactly width cells; nothing is drawn for a width or height below 1.
func (l *ThreadList) View(width, height int) []string {
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
func (l *ThreadList) scroll(visible int) {
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
func (l *ThreadList) layout(width int) []threadColumn {
	want := threadColsNarrow
	if width >= threadWideAt {
		want = threadColsWide
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
	w := newCardWriter(width)
	w.spaces(threadMarkCells + 1)
	for i, c := range cols {
		if i > 0 {
			w.spaces(threadColGap)
		}
		name := threadColNames[c.col]
		if threadRightAligned(c.col) {
			w.spaces(c.width - len(name))
			w.put(name, tlDim)
		} else {
			w.cut(name, c.width, tlDim)
			w.spaces(c.width - min(len(name), c.width))
		}
	}
	return w.String()
}

// threadNote is a dim line of text under the marks column.
func threadNote(text string, width int) string {
	w := newCardWriter(width)
	w.spaces(threadMarkCells + 1)
	w.put(text, tlDim)
	return w.String()
}

// rowLine draws row i: the marks, then each column.
func (l *ThreadList) rowLine(i int, cols []threadColumn, width int) string {
	r, c := l.rows[i], l.cells[i]
	p := rowPen{w: newCardWriter(width), bar: i == l.selected}
	mark := func(on bool, glyph, sgr string) {
		if on {
			p.put(glyph, sgr)
		} else {
			p.pad(1)
		}
	}
	mark(r.Current, threadMarkCurrent, "")
	mark(r.Live, threadMarkLive, tlGreen)
	mark(r.Marked, threadMarkNew, "1;"+tlYellow)
	p.pad(1)
	for k, col := range cols {
		if k > 0 {
			p.pad(threadColGap)
		}
		text, cells := c.text[col.col], c.cols[col.col]
		sgr := threadCellSGR(r, &c, col.col)
		if threadRightAligned(col.col) {
			p.pad(col.width - cells)
			p.put(text, sgr)
			continue
		}
		p.cut(text, col.width, sgr)
		p.pad(col.width - min(cells, col.width))
	}
	return p.String()
}

// threadCellSGR is the colour of one cell of a row.
func threadCellSGR(r ThreadRow, c *threadCells, col threadCol) string {
	switch {
	case c.dim[col]:
		return tlDim
	case col == colFailed && r.Failed > 0:
		return "1;" + tlRed
	case col == colTitle && r.Marked:
		return "1"
	}
	return ""
}

// prepare makes every row's cell texts and the widest of each column.
func (l *ThreadList) prepare() {
	l.cells = make([]threadCells, len(l.rows))
	l.widest = [threadColCount]int{}
	var newest time.Time
	for _, r := range l.rows {
		if t := threadDay(r); t.After(newest) {
			newest = t
		}
	}
	if l.texts == nil || len(l.texts) > 2*len(l.rows)+64 {
		l.texts = make(map[threadTextKey]threadTexts, len(l.rows))
	}
	for i, r := range l.rows {
		c := &l.cells[i]
		k := threadTextKey{r.ID, r.Source, r.Title}
		tx, ok := l.texts[k]
		if !ok {
			tx.title, tx.titleDim = threadTitle(r.Title)
			tx.id, tx.idDim = "(no thread id)", true
			if id := plainOneLine(r.ID); id != "" {
				tx.id, tx.idDim = shortMiddle(id, threadIDMax), false
			}
			tx.source = shortMiddle(threadSource(r.Source), threadSourceMax)
			tx.titleCols, tx.idCols, tx.srcCols = cellWidth(tx.title), cellWidth(tx.id), cellWidth(tx.source)
			l.texts[k] = tx
		}
		c.text[colTitle], c.dim[colTitle] = tx.title, tx.titleDim
		c.text[colID], c.dim[colID] = tx.id, tx.idDim
		c.text[colSource] = tx.source
		c.text[colRuns] = strconv.Itoa(r.Runs)
		c.text[colSteps] = strconv.Itoa(r.Steps)
		c.text[colFailed] = strconv.Itoa(r.Failed)
		c.dim[colFailed] = r.Failed == 0
		c.text[colFirst], c.text[colLast] = threadTimes(r, newest)
		c.text[colTook] = threadTook(r.First, r.Last)
		for _, k := range []threadCol{colFirst, colLast, colTook} {
			c.dim[k] = c.text[k] == "-"
		}
		for k, s := range c.text {
			switch threadCol(k) {
			case colTitle:
				c.cols[k] = tx.titleCols
			case colID:
				c.cols[k] = tx.idCols
			case colSource:
				c.cols[k] = tx.srcCols
			default:
				c.cols[k] = cellWidth(s)
			}
			if threadCol(k) != colTitle { // the title takes what is left
				l.widest[k] = max(l.widest[k], c.cols[k])
			}
		}
	}
}

// threadTitle is a title made one safe line, or "(no user message)" and
// true when there is nothing to show.
func threadTitle(title string) (string, bool) {
	cut := len(title) > threadTitleBytes
	if cut {
		title = title[:threadTitleBytes]
	}
	s := plainOneLine(title)
	if s == "" {
		return "(no user message)", true
	}
	if cut {
		s += "…"
	}
	return s, false
}

// threadSource is the base name of a source file, "stdin" for "-".
func threadSource(source string) string {
	if source == "-" {
		return "stdin"
	}
	s := plainOneLine(source)
	if s == "" {
		return "-"
	}
	return filepath.Base(s)
}

// threadDay is the time a row's date is taken from: its last record, else
// its first.
func threadDay(r ThreadRow) time.Time {
	if !r.Last.IsZero() {
		return r.Last
	}
	return r.First
}

// threadTimes formats a row's first and last times: "15:04:05", or with the
// date ("Jan 2 15:04") when the row spans days or is not of the newest
// row's day, and as a date alone ("Dec 30 2024") when not of its year.
func threadTimes(r ThreadRow, newest time.Time) (first, last string) {
	day := threadDay(r)
	long := !r.First.IsZero() && !r.Last.IsZero() && !sameDay(r.First, r.Last) ||
		!day.IsZero() && !sameDay(day, newest)
	format := func(t time.Time) string {
		switch {
		case t.IsZero():
			return "-"
		case !long:
			return t.Format("15:04:05")
		case t.Year() != newest.Year():
			return t.Format("Jan 2 2006")
		}
		return t.Format("Jan 2 15:04")
	}
	return format(r.First), format(r.Last)
}

// sameDay reports whether a and b fall on the same date, each in its own
// location.
func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// threadTook is how long a thread went on, "-" when unknown.
func threadTook(first, last time.Time) string {
	if first.IsZero() || last.IsZero() {
		return "-"
	}
	if d := FormatStepDuration(last.Sub(first)); d != "" {
		return d
	}
	return "0s"
}

// shortMiddle cuts s to at most cells cells by putting "…" in its middle,
// so both ends of an id or a file name stay readable.
func shortMiddle(s string, cells int) string {
	n := cellWidth(s)
	if n <= cells {
		return s
	}
	if cells < 3 {
		return ansi.Truncate(s, cells, "")
	}
	tail := (cells - 1) / 2
	head := cells - 1 - tail
	// A wide character straddling the cut is kept whole by TruncateLeft:
	// cut one cell further.
	end := ansi.TruncateLeft(s, n-tail, "")
	for k := 1; ansi.StringWidth(end) > tail; k++ {
		end = ansi.TruncateLeft(s, n-tail+k, "")
	}
	return ansi.Truncate(s, head, "") + "…" + end
}

// cellWidth is ansi.StringWidth of text without escapes, a byte a cell for
// printable ASCII. Most ids, file names and numbers are: the shortcut makes
// SetRows of 10,000 threads four times faster (BenchmarkThreadListSetRows).
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// rowPen writes a list row on a cardWriter; a selected row is one reverse
// video bar, its colours given up so that it reads the same on any theme.
type rowPen struct {
	w   *cardWriter
	bar bool
}

func (p rowPen) sgr(sgr string) string {
	if p.bar {
		return "7"
	}
	return sgr
}

func (p rowPen) put(s, sgr string) { p.w.put(s, p.sgr(sgr)) }

func (p rowPen) cut(s string, cells int, sgr string) { p.w.cut(s, cells, p.sgr(sgr)) }

// pad writes n blanks, part of the bar on a selected row.
func (p rowPen) pad(n int) {
	if n = min(n, p.w.room()); n > 0 {
		p.w.put(strings.Repeat(" ", n), p.sgr(""))
	}
}

// String returns the row padded to its width.
func (p rowPen) String() string {
	p.pad(p.w.room())
	return p.w.String()
}
