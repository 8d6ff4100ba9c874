package runtree

// The run tree: a thread's runs in the order they started, drawn as the
// tree their parentRunId links make. A run that continues the run before it
// stays at its depth, so a long conversation is a straight line; a run that
// goes back to an earlier run (an edit-and-retry, a fork) is a branch, one
// level in. The root model calls Rows when the runs change and
// Lines to draw.

import (
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
)

// Link says how a run joins its thread's run tree.
type Link int

// The run links.
const (
	// Root is a run that names no parent.
	Root Link = iota
	// Continues is a run whose parent is the run that started just before it.
	Continues
	// Branches is a run whose parent is an earlier run other than the one
	// just before it: an edit-and-retry or a fork.
	Branches
	// Orphan is a run whose parent is not an earlier run of the thread
	// (not in the thread at all, the run itself, or a later run). It is
	// drawn as a root.
	Orphan
)

var linkNames = [...]string{"root", "continues", "branch", "orphan"}

// String returns the link as a lower-case word, for tests and logs.
func (k Link) String() string {
	if k < 0 || int(k) >= len(linkNames) {
		return "unknown"
	}
	return linkNames[k]
}

// LinkOf says how runs[i] joins the tree of runs, which are in the order
// they started, and returns the index of its parent (-1 for a root or an
// orphan). When several runs share the parent's id, the parent is the
// latest of them to start before runs[i]. Nil runs are never parents.
func LinkOf(runs []*model.Run, i int) (Link, int) {
	if i < 0 || i >= len(runs) || runs[i] == nil || runs[i].ParentRunID == "" {
		return Root, -1
	}
	parent := runs[i].ParentRunID
	for j := i - 1; j >= 0; j-- {
		if runs[j] != nil && runs[j].RunID == parent {
			return linkTo(runs, i, j), j
		}
	}
	return Orphan, -1
}

// linkTo is the link of run i to its parent p, an earlier run: a
// continuation when p is the last non-nil run before i.
func linkTo(runs []*model.Run, i, p int) Link {
	for j := i - 1; j > p; j-- {
		if runs[j] != nil {
			return Branches
		}
	}
	return Continues
}

// Note says in words how runs[i] joins the tree, for a transcript's run
// line or the plain printer: "continues r1", "branch of r1", "parent r0 not
// in this thread", "names itself as parent", "parent r5 starts later", or ""
// for a root. Ids are made one safe line.
func Note(runs []*model.Run, i int) string {
	link, _ := LinkOf(runs, i)
	if link == Root {
		return ""
	}
	r := runs[i]
	parent := sanitize.OneLine(r.ParentRunID)
	switch link {
	case Continues:
		return "continues " + parent
	case Branches:
		return "branch of " + parent
	}
	later := func(id string) bool {
		for _, l := range runs[i+1:] {
			if l != nil && l.RunID == id {
				return true
			}
		}
		return false
	}
	return orphanNote(r, parent, later)
}

// orphanNote says why run r is an orphan; parent is its parent's id as
// shown, later reports whether a run that starts after r has an id.
func orphanNote(r *model.Run, parent string, later func(string) bool) string {
	switch {
	case r.ParentRunID == r.RunID:
		return "names itself as parent"
	case later(r.ParentRunID):
		return "parent " + parent + " starts later"
	}
	return "parent " + parent + " not in this thread"
}

// Row is one run as the run tree draws it.
type Row struct {
	Run *model.Run
	// Depth is how far in the run is drawn: a root's is 0, a continuation's
	// its parent's, a branch's its parent's plus one.
	Depth int
	// Branch says the run branches off an earlier run (Branches).
	Branch bool
	// Orphan says the run names a parent that is not an earlier run of the
	// thread (Orphan); it is drawn as a root with a note saying so.
	Orphan bool
	// Parent is the index of the parent's row, -1 for a root or an orphan.
	Parent int
	// Steps counts the run's steps, Failed the failed ones among them.
	Steps, Failed int
}

// Rows returns the rows of the run tree of runs (in the order they
// started) and steps; nil runs are left out. A step counts for the run
// whose id it names; when several runs share that id, for the latest of
// them that started at or before the step's first record.
func Rows(runs []*model.Run, steps []*model.Step) []Row {
	kept := make([]*model.Run, 0, len(runs))
	for _, r := range runs {
		if r != nil {
			kept = append(kept, r)
		}
	}
	rows := make([]Row, len(kept))
	byID := make(map[string][]int, len(kept)) // rows of each run id, in order
	for i, r := range kept {
		link, p := LinkOf(kept, i)
		row := Row{Run: r, Parent: p, Branch: link == Branches, Orphan: link == Orphan}
		switch link {
		case Continues:
			row.Depth = rows[p].Depth
		case Branches:
			row.Depth = rows[p].Depth + 1
		}
		rows[i] = row
		byID[r.RunID] = append(byID[r.RunID], i)
	}
	for _, s := range steps {
		if s == nil {
			continue
		}
		same, ok := byID[s.RunID]
		if !ok {
			continue
		}
		i := same[0]
		for _, j := range same[1:] {
			if kept[j].FirstSeq <= s.FirstSeq {
				i = j
			}
		}
		rows[i].Steps++
		if s.Status == model.StatusFailed {
			rows[i].Failed++
		}
	}
	return rows
}

// NameOf is what the run a run item shows is called (model.Run.Name),
// made one safe line: the item's id when the run is not known.
func NameOf(runs []*model.Run, it *model.Item) string {
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r != nil && r.RunID == it.ID && r.FirstSeq <= it.FirstSeq {
			return sanitize.OneLine(r.Name())
		}
	}
	return sanitize.OneLine(it.ID)
}

// NoteOf is Note for the run a run item shows: the latest run of that
// id that started at or before the item's first record ("" when none).
func NoteOf(runs []*model.Run, it *model.Item) string {
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r != nil && r.RunID == it.ID && r.FirstSeq <= it.FirstSeq {
			return Note(runs, i)
		}
	}
	if it.Name != "" {
		return "continues " + sanitize.OneLine(it.Name)
	}
	return ""
}
