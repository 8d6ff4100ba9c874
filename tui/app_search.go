package tui

// This file holds search and the filter line: / asks for text to find in
// the thread (messages, step labels, locations, arguments, output), n and
// N go from match to match across the whole thread, and the matches are
// drawn in the transcript and the computer; f asks for a filter. Both are
// typed into one input line at the bottom of the screen.

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/agentwatch/agentwatch/window"
)

// inputKind is what the input line asks for.
type inputKind int

const (
	inputNone inputKind = iota
	inputSearch
	inputFilter
	// inputThreads filters the thread list as it is typed.
	inputThreads
)

// searchDelay is how long typing must pause before a thread of more than
// searchAtOnce steps is searched: a keystroke costs a frame, not a scan.
const (
	searchDelay  = 80 * time.Millisecond
	searchAtOnce = 5000
	// searchEvery is how often the matches of a live thread are found
	// again as it grows.
	searchEvery = time.Second
)

// searchState is the search, and the input line that search and the
// filter share.
type searchState struct {
	input  textinput.Model
	asking inputKind
	// m is the search; hits where it matches, cur the match gone to last
	// (-1 before the first), found when they were found and stale whether
	// the thread changed since.
	m     search.Matcher
	hits  []search.Hit
	cur   int
	found time.Time
	stale bool
	// origin is the Seq of the item the search started from: the first
	// match is the first at or after it.
	origin uint64
	// gen tells the pause after the latest keystroke from older ones.
	gen int
	// err is why the filter typed is not one.
	err string
	// toPanel asks the panel to scroll to the first match in the step's
	// view once it is drawn.
	toPanel bool
	// shed is the search of what the window let go (app_search_shed.go).
	shed shedSearch
}

// searchTickMsg says typing paused: search for what was typed.
type searchTickMsg struct{ gen int }

// openInput opens the input line for a search or a filter.
func (a *App) openInput(kind inputKind) tea.Cmd {
	s := &a.search
	if s.input.Prompt == "" {
		s.input = textinput.New()
		s.input.SetStyles(styles.Input())
	}
	s.asking, s.err = kind, ""
	switch kind {
	case inputSearch:
		s.input.Prompt = "/"
		s.input.Placeholder = "text in messages, steps, arguments, output"
		s.input.SetValue(s.m.Query())
		s.origin = 0
		if seq, ok := a.transcript.CursorItem(); ok {
			s.origin = seq
		}
	case inputFilter:
		s.input.Prompt = "filter: "
		s.input.Placeholder = "failed · execute,edit · running · text:WORDS (empty: all)"
		s.input.SetValue(a.filter.spec.String())
	case inputThreads:
		s.input.Prompt = "/"
		s.input.Placeholder = "words of a thread's title, id or file"
		if tv, ok := a.mode.(*threadsView); ok {
			s.input.SetValue(tv.filter.Query())
		}
	}
	s.input.CursorEnd()
	return s.input.Focus()
}

// confirmInput applies the filter typed, or keeps the search typed.
func (a *App) confirmInput() tea.Cmd {
	s := &a.search
	if s.asking == inputThreads {
		a.closeInput() // the list was filtered as it was typed
		return nil
	}
	if s.asking == inputFilter {
		f, err := search.ParseFilter(s.input.Value())
		if err != nil {
			s.err = err.Error()
			return nil
		}
		a.setFilter(f)
		a.closeInput()
		a.searchStale()
		return nil
	}
	a.closeInput()
	if s.m.Query() != s.input.Value() || s.stale {
		a.runSearch(s.input.Value())
	}
	return nil
}

// typeInput edits the input line; a search is run as it is typed (once
// typing pauses, on a big thread).
func (a *App) typeInput(k tea.KeyPressMsg) tea.Cmd {
	s := &a.search
	before := s.input.Value()
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(k)
	if s.input.Value() == before {
		return cmd
	}
	if s.asking == inputThreads {
		a.filterList(s.input.Value())
		return cmd
	}
	if s.asking != inputSearch {
		return cmd
	}
	if len(a.fold.Items()) <= searchAtOnce {
		// What is searched at once is what the view keeps; the archive of
		// what it let go is searched off the screen's goroutine.
		a.runSearch(s.input.Value())
		return cmd
	}
	s.gen++
	gen := s.gen
	return tea.Batch(cmd, tea.Tick(searchDelay, func(time.Time) tea.Msg { return searchTickMsg{gen} }))
}

// onSearchTick searches for what was typed, once typing paused.
func (a *App) onSearchTick(m searchTickMsg) {
	s := &a.search
	if m.gen != s.gen || s.asking != inputSearch {
		return
	}
	a.runSearch(s.input.Value())
}

// closeInput closes the input line.
func (a *App) closeInput() {
	a.search.asking = inputNone
	a.search.input.Blur()
}

// runSearch finds query and goes to the first match at or after where the
// search started. A query that extends the one before looks only at its
// matches: a longer query matches a subset. What the window let go is
// searched off the screen's goroutine (scanArchive).
func (a *App) runSearch(query string) {
	s := &a.search
	prev := s.m
	s.m = search.NewMatcher(query)
	a.transcript.SetHighlight(s.m)
	s.shed.showing = 0
	if s.m.Empty() {
		s.hits, s.cur = nil, -1
		a.stopScan()
		return
	}
	if !a.archive().Empty() {
		a.scanArchive(true)
		return
	}
	a.stopScan()
	if !s.stale && s.m.Narrows(prev) {
		s.hits = a.narrowHits(s.hits)
	} else {
		a.findHits()
	}
	s.cur = -1
	for i, h := range s.hits {
		if h.Seq >= s.origin {
			a.goToHit(i)
			return
		}
	}
	if len(s.hits) > 0 {
		a.goToHit(0)
	}
}

// findHits finds the search's matches in the whole thread.
func (a *App) findHits() {
	s := &a.search
	var keep func(int) bool
	if a.filtering() {
		keep = a.shown
	}
	s.hits = search.Find(a.fold.Items(), a.allSteps(), s.m, keep)
	s.found, s.stale = a.now(), false
}

// narrowHits keeps the hits that still match after the query grew.
func (a *App) narrowHits(hits []search.Hit) []search.Hit {
	items, steps := a.fold.Items(), a.allSteps()
	out := hits[:0]
	for _, h := range hits {
		it := window.FindItem(items, h.Seq)
		if it == nil {
			continue
		}
		if h.Step >= 0 {
			if h.Step < len(steps) && search.StepHas(steps[h.Step], a.search.m) {
				out = append(out, h)
			}
			continue
		}
		if len(search.Find([]*model.Item{it}, steps, a.search.m, nil)) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// searchStale notes that the thread or the filter changed: the matches
// are found again, at once for a small thread, at most every searchEvery
// for a big one that keeps growing.
func (a *App) searchStale() {
	s := &a.search
	if s.m.Empty() {
		return
	}
	if s.shed.scan != nil {
		if s.shed.seen == a.scannedNow() {
			return // the thread and what the archive holds did not change
		}
		s.stale = true
		if a.now().Sub(s.found) >= searchEvery {
			a.scanArchive(false)
		}
		return
	}
	s.stale = true
	if len(a.allSteps()) <= searchAtOnce || a.now().Sub(s.found) >= searchEvery {
		if !a.archive().Empty() {
			a.scanArchive(false) // the thread on screen began to let go
			return
		}
		a.findHits()
		s.cur = min(s.cur, len(s.hits)-1)
	}
}

// clearSearch forgets the search and its highlights.
func (a *App) clearSearch() {
	s := &a.search
	s.m, s.hits, s.cur, s.stale = search.Matcher{}, nil, -1, false
	s.shed.showing = 0
	a.stopScan()
	a.transcript.SetHighlight(s.m)
}

// searching reports whether a search is in force (its matches drawn).
func (a *App) searching() bool { return !a.search.m.Empty() }

// nextHit goes to the match dir places after (before, when negative) the
// one gone to last, wrapping around the thread.
func (a *App) nextHit(dir int) tea.Cmd {
	s := &a.search
	if s.stale && s.shed.scan != nil {
		a.scanArchive(false) // n goes on among the matches found meanwhile
	} else if s.stale {
		a.findHits()
	}
	a.fillUncounted(dir)
	n := len(s.hits)
	if n == 0 && (s.shed.finding || s.shed.counting) {
		a.note = "still searching for " + strconv.Quote(s.m.Query())
		return nil
	}
	if n == 0 {
		a.note = "no match for " + strconv.Quote(s.m.Query())
		return nil
	}
	i := s.cur + dir
	if s.cur < 0 && dir < 0 {
		i = n - 1
	}
	switch {
	case i >= n:
		i, a.note = 0, "search wrapped to the top"
	case i < 0:
		i, a.note = n-1, "search wrapped to the bottom"
	}
	return a.goToHit(i)
}

// goToHit shows match i: a step's match selects the step and scrolls the
// computer to it, a message's brings the message into view.
func (a *App) goToHit(i int) tea.Cmd {
	s := &a.search
	s.cur = i
	h := s.hits[i]
	a.stopPlay()
	if h.Step >= 0 {
		s.toPanel = true
		return a.goToStep(h.Step)
	}
	a.following = false
	s.shed.showing = 0
	if !a.transcript.ShowItem(h.Seq) && s.shed.scan != nil {
		s.shed.showing = h.Seq // a shed message: read back, then shown (searchCmd)
	}
	return nil
}

// searchLine is the input line, or what the search and filter in force
// say ("match 3 of 41", "filter failed · 12 of 30 steps"); "" for none.
func (a *App) searchLine() string {
	s := &a.search
	var parts []string
	if tv, ok := a.mode.(*threadsView); ok && tv.listing {
		return a.listFilterLine(tv)
	}
	if s.asking != inputNone {
		parts = append(parts, a.inputView())
	} else if a.searching() {
		parts = append(parts, "/"+Plain(s.m.Query()))
	}
	if a.searching() {
		more := "" // the archive's count is under way
		if s.shed.counting {
			more = "…"
		}
		switch {
		case len(s.hits) == 0 && (s.shed.finding || s.shed.counting):
			parts = append(parts, "searching…")
		case len(s.hits) == 0:
			parts = append(parts, "no match")
		case s.cur >= 0:
			parts = append(parts, "match "+thousands(s.cur+1)+" of "+thousands(len(s.hits))+more)
		default:
			parts = append(parts, count(len(s.hits), "match", "matches")+more)
		}
		if n := a.unsearched(); n > 0 {
			parts = append(parts, "the oldest "+count(n, "item", "items")+" not searched")
		}
	}
	if s.err != "" && s.asking == inputFilter {
		parts = append(parts, Plain(s.err))
	} else if a.filtering() && s.asking != inputFilter {
		parts = append(parts, "filter "+Plain(a.filter.spec.String())+" · "+thousands(len(a.filter.kept))+" of "+count(len(a.allSteps()), "step", "steps"))
	}
	return strings.Join(parts, "   ")
}

// inputView draws the input line as wide as what it holds (its
// placeholder when empty, whole: with no width the input shows only its
// first letter, "/t"), leaving room after it for the match count.
func (a *App) inputView() string {
	in := &a.search.input
	want := ansi.StringWidth(in.Value()) + 1
	if in.Value() == "" {
		want = ansi.StringWidth(in.Placeholder) + 1
	}
	room := a.width - ansi.StringWidth(in.Prompt) - 24
	in.SetWidth(max(1, min(want, room)))
	return in.View()
}
