package tui

// This file filters the thread list: / asks for words, and the list keeps
// the threads whose title, id or file holds them (smart case, as the
// search), as they are typed; esc clears the filter.

import (
	"path/filepath"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/tui/search"
)

// filterList filters the thread list by query ("" shows every thread) and
// selects its first row.
func (a *App) filterList(query string) {
	tv, ok := a.mode.(*threadsView)
	if !ok {
		return
	}
	tv.filter = search.NewMatcher(query)
	tv.moved = false
	a.refreshList(tv)
}

// listed reports whether the list's filter keeps th.
func (tv *threadsView) listed(th *fold.Thread) bool {
	m := tv.filter
	if m.Empty() {
		return true
	}
	title := tv.rows[th].title
	if title == "" {
		title = th.Title()
	}
	return m.In(title) || m.In(th.ID) || m.In(filepath.Base(th.Source))
}

// listFilterLine is the line under the thread list: the filter being
// typed, or the one in force, and how many threads it keeps.
func (a *App) listFilterLine(tv *threadsView) string {
	s := &a.search
	kept := count(len(tv.order), "thread", "threads") + " of " + thousands(tv.total())
	if s.asking == inputThreads {
		return a.inputView() + "   " + kept
	}
	if tv.filter.Empty() {
		return ""
	}
	return "/" + Plain(tv.filter.Query()) + "   " + kept + " · esc shows them all"
}

// listEsc clears the list's filter; with none, it says there is nothing
// to go back to from the list (Enter opens a thread).
func (a *App) listEsc() {
	tv, ok := a.mode.(*threadsView)
	if !ok {
		return
	}
	if !tv.filter.Empty() {
		a.filterList("")
		return
	}
	a.note = "the thread list is the top: Enter opens a thread, q quits"
}
