package threadlist

// This file makes the thread list's cell texts, once per SetRows: titles,
// ids and file names cleaned and shortened, times and durations.

import (
	"path/filepath"
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/render"
)

// prepare makes every row's cell texts and the widest of each column.
func (l *List) prepare() {
	l.cells = make([]threadCells, len(l.rows))
	l.widest = [threadColCount]int{}
	l.projects, l.agents = false, false
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
		k := threadTextKey{r.ID, r.Source, r.Project, r.Title}
		tx, ok := l.texts[k]
		if !ok {
			tx.title, tx.titleDim = threadTitle(r.Title)
			tx.id, tx.idDim = "(no thread id)", true
			if id := sanitize.OneLine(r.ID); id != "" {
				tx.id, tx.idDim = render.ShortMiddle(id, threadIDMax), false
			}
			tx.source = render.ShortStart(threadSource(r.Source), threadSourceMax)
			if p := sanitize.OneLine(r.Project); p != "" {
				tx.source = render.ShortStart(p, threadSourceMax)
			}
			tx.titleCols, tx.idCols, tx.srcCols = render.CellWidth(tx.title), render.CellWidth(tx.id), render.CellWidth(tx.source)
			l.texts[k] = tx
		}
		c.text[colTitle], c.dim[colTitle] = tx.title, tx.titleDim
		c.text[colID], c.dim[colID] = tx.id, tx.idDim
		c.text[colSource] = tx.source
		l.projects = l.projects || r.Project != ""
		l.agents = l.agents || r.Agent.Known()
		c.text[colState] = r.Agent.String()
		c.text[colRuns] = strconv.Itoa(r.Runs)
		c.text[colSteps] = strconv.Itoa(r.Steps)
		c.text[colFailed] = strconv.Itoa(r.Failed)
		c.dim[colFailed] = r.Failed == 0
		if r.Unfolded {
			for _, k := range []threadCol{colRuns, colSteps, colFailed} {
				c.text[k], c.dim[k] = "-", true
			}
		}
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
				c.cols[k] = render.CellWidth(s)
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
	s := sanitize.OneLine(title)
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
	s := sanitize.OneLine(source)
	if s == "" {
		return "-"
	}
	return filepath.Base(s)
}

// threadDay is the time a row's date is taken from: its last record, else
// its first.
func threadDay(r Row) time.Time {
	if !r.Last.IsZero() {
		return r.Last
	}
	return r.First
}

// threadTimes formats a row's first and last times: "15:04:05", or with the
// date ("Jan 2 15:04") when the row spans days or is not of the newest
// row's day, and as a date alone ("Dec 30 2024") when not of its year.
func threadTimes(r Row, newest time.Time) (first, last string) {
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
	if d := render.FormatStepDuration(last.Sub(first)); d != "" {
		return d
	}
	return "0s"
}
