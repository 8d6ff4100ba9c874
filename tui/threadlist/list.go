package threadlist

// The thread list: the screen a source with many threads opens on, one row
// per thread (its first user message, runs, steps, failures, last activity
// and marks), scrolled so the selected thread stays visible. The root model
// owns it and calls SetRows, Move and View; it has no Update of its own.

import (
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Row is one thread as the thread list shows it.
type Row struct {
	// ID is the thread id, "" when the source never named one.
	ID string
	// Title is the thread's first user message, "" when there is none. It
	// is agent text: untrusted, possibly long, multi-line, with escapes.
	Title string
	// Source is the file the thread comes from, "-" for stdin.
	Source string
	// Project is what the thread is about when its source says (the
	// folder a Claude Code session ran in), shown in place of the file's
	// name; "" shows the file. Untrusted, like Title.
	Project string
	// Runs and Steps count the thread's runs and steps; Failed counts its
	// failed steps.
	Runs, Steps, Failed int
	// Unfolded says the thread is listed from a glance at its file and not
	// folded yet: its runs, steps and failures are not known, and show as
	// "-".
	Unfolded bool
	// First and Last are the times of the thread's first and last records,
	// zero when unknown.
	First, Last time.Time
	// Live says records arrived a moment ago and the source is still live;
	// for an agent's session (Agent known), that the agent is at it now.
	Live bool
	// Agent is what the agent that keeps the session says of it now
	// (working, waiting for you, idle, ended), shown in the state column;
	// model.AgentUnknown for a thread that is no agent's session.
	Agent model.AgentState
	// Asking says the session started waiting for the person since they
	// last selected it.
	Asking bool
	// Marked says the thread became active while another was on screen.
	Marked bool
	// Current says this is the thread the screen showed last.
	Current bool
}

// Marks of a thread row, one cell each, in the row's first three cells:
// the live mark is green, or yellow for a session waiting for the person;
// the asking mark takes the new mark's cell.
const (
	threadMarkCurrent = "›"
	threadMarkLive    = "●"
	threadMarkNew     = "◆"
	threadMarkAsking  = "!"
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

// List is the list of a source's threads: the rows, the selected one
// and the scroll. View draws it; RowAt maps a click on the last view back to
// a row.
type List struct {
	rows     []Row
	cells    []threadCells
	widest   [threadColCount]int // widest value of each column over all rows
	projects bool                // some row names its project
	agents   bool                // some row has an agent's state
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
type threadTextKey struct{ id, source, project, title string }

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
	colState
	colRuns
	colSteps
	colFailed
	colFirst
	colLast
	colTook
	threadColCount
)

var threadColNames = [threadColCount]string{"thread", "id", "source", "state", "runs", "steps", "failed", "first", "last", "took"}

// The columns shown narrow and wide, in order, and the order in which they
// give way when even those do not fit (the title never does).
var (
	threadColsNarrow = []threadCol{colTitle, colRuns, colSteps, colFailed, colLast}
	// Narrow, rows that name their project show it: sessions of one agent
	// often share a title, and the project is what tells them apart.
	threadColsNarrowProject = []threadCol{colTitle, colSource, colRuns, colSteps, colFailed, colLast}
	threadColsWide          = []threadCol{colTitle, colID, colSource, colState, colRuns, colSteps, colFailed, colFirst, colLast, colTook}
	// The state column goes last: what the agent does now is what the
	// list of an agent's sessions is looked at for.
	threadColsDrop = []threadCol{colTook, colFirst, colSource, colID, colLast, colRuns, colSteps, colFailed, colState}
)

// New returns an empty thread list.
func New() *List {
	return &List{selected: -1}
}

// SetRows replaces the rows, given in display order. The selection stays on
// the same thread (same ID and Source) when it is still listed, and is
// clamped otherwise.
func (l *List) SetRows(rows []Row) {
	var keep *Row
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

// Rows returns the rows, in display order, as SetRows last gave them.
func (l *List) Rows() []Row { return l.rows }

// Select selects row i, clamped to the rows.
func (l *List) Select(i int) {
	if len(l.rows) == 0 {
		l.selected = -1
		return
	}
	l.selected = max(0, min(i, len(l.rows)-1))
}

// Selected returns the selected row's index, -1 when the list is empty.
func (l *List) Selected() int { return l.selected }

// Move moves the selection by delta rows, clamped: ±1 for the arrows,
// ±PageSize for a page, a large delta for the first or last row.
func (l *List) Move(delta int) {
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
func (l *List) PageSize() int { return max(l.drawnCount, 1) }

// RowAt returns the index of the row drawn at line line of the last View,
// and false for the header, the status line and lines below the rows.
func (l *List) RowAt(line int) (int, bool) {
	k := line - l.drawnLine
	if k < 0 || k >= l.drawnCount {
		return -1, false
	}
	return l.drawnTop + k, true
}
