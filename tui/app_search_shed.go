package tui

// This file searches what the window let go of the thread on screen, so
// that / finds a match in a 700,000-event log as it is typed. Before each
// trim a thread's archive (search.Archive) takes the text of its finished
// items; a keystroke searches the items kept at once, on the screen's
// goroutine, and the archive off it: one command finds the match to go to
// (the first at or after where the search started, else the first of
// all), another counts every match a few blocks at a time, each block's
// matches coming back as a message, so the count fills in while the
// person types on. A match in an item that was shed is gone to by reading
// it back (a step's row as a selected step's is; a message's through
// window.WantItemsAround).

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/tui/search"
)

// archiveBudget is what a screen's archives keep at most unless its
// options say otherwise (AppOptions.ArchiveBudget): past it, the
// biggest lets go of its oldest blocks, and the search line says how many
// items a search no longer finds. The 126 MB, 700,000-event log keeps
// 17 MiB (its 33 MB of text compressed, with each block's trigrams), so
// this is the text of a log of some 500 MB.
var archiveBudget = 64 << 20

// searchChunk is about how much archived text one command of a count reads
// (some 10–30 ms on a loaded machine), so that a newer query's commands
// wait little for an older one's.
const searchChunk = 4 << 20

// shedSearch is the search of the archive of the thread on screen.
type shedSearch struct {
	// archives hold the text of what the window let go, by fold, and
	// kept is what they cost in all; before is how many items a fold had
	// shed when its archive began (a fold taken up from a resume point),
	// which no search finds.
	archives map[*fold.Fold]*search.Archive
	kept     int
	before   map[*fold.Fold]int
	// scan is the query's search of the archive (nil when it has none);
	// gen tells its messages from an older scan's. finding is set until
	// its first match came back, counting until every block was read,
	// and ask says which commands are to be sent.
	scan              *search.Scan
	gen               int
	finding, counting bool
	ask               struct{ first, count bool }
	// liveAfter is the first match among the items kept at or after the
	// search's origin, if any (liveOK), and hi the Seq the archive's first
	// match must be under to come before it.
	liveAfter search.Hit
	liveOK    bool
	// seen is what the scan searched: when it is unchanged, the matches
	// are not stale.
	seen scanned
	// showing is a shed message gone to, shown once read back (0: none).
	showing uint64
}

// scanned says what a scan searched: the fold, how far its archive and
// the fold had come, and the filter.
type scanned struct {
	fold    *fold.Fold
	archive int
	seq     uint64
	filter  string
}

// searchFirstMsg brings the archive's match to go to: the first at or
// after the origin (after), else the first of all (first).
type searchFirstMsg struct {
	gen              int
	after, first     search.Hit
	afterOK, firstOK bool
}

// searchCountMsg brings the matches of some blocks of the archive.
type searchCountMsg struct {
	gen  int
	hits []search.Hit
}

// archiveBeforeTrim lets the archive of f take the text of what a trim is
// about to let go (nothing when the window will not trim it now).
func (a *App) archiveBeforeTrim(f *fold.Fold, looking bool) {
	budget := a.opts.ArchiveBudget
	if budget == 0 {
		budget = archiveBudget
	}
	if f == nil || looking || budget < 0 || len(f.Items()) < 2*a.win.Keeps().Items {
		return
	}
	s := &a.search.shed
	ar := s.archives[f]
	if ar == nil {
		ar = &search.Archive{}
		if s.archives == nil {
			s.archives = map[*fold.Fold]*search.Archive{}
		}
		s.archives[f] = ar
		if n := f.Shedded().Items; n > 0 {
			if s.before == nil {
				s.before = map[*fold.Fold]int{}
			}
			s.before[f] = n
		}
	}
	_, before := ar.Cost()
	ar.Take(f.Items(), f.Steps(), f.StepBase())
	_, after := ar.Cost()
	s.kept += after - before
	for s.kept > budget {
		var big *search.Archive
		most := 0
		for _, x := range s.archives {
			if _, k := x.Cost(); k > most {
				big, most = x, k
			}
		}
		if !big.DropOldest() {
			return
		}
		_, k := big.Cost()
		s.kept -= most - k
	}
}

// forgetArchives lets go of the archives of threads that are gone.
func (a *App) forgetArchives(gone []*fold.Thread) {
	s := &a.search.shed
	for _, th := range gone {
		_, k := s.archives[th.Fold].Cost()
		s.kept -= k
		delete(s.archives, th.Fold)
		delete(s.before, th.Fold)
	}
}

// unsearched is how many items of the thread on screen a search does not
// find: those its archive let go of to stay within its budget, and those
// shed before it began (or all shed, without one) — a thread taken up
// where the last screen left off, whose shed items that screen had.
func (a *App) unsearched() int {
	if a.modeIs(modeReplay) {
		return 0 // read back from the timeline as it goes; not searched before
	}
	ar := a.archive()
	if ar == nil {
		return a.fold.Shedded().Items
	}
	return ar.Dropped() + a.search.shed.before[a.fold]
}

// archive is the archive of the thread on screen (nil for none: nothing
// was let go, or a replay, whose timeline reads back what it shed).
func (a *App) archive() *search.Archive {
	if a.modeIs(modeReplay) {
		return nil
	}
	return a.search.shed.archives[a.fold]
}

// scanArchive searches the items kept for the query at once and starts the
// archive's search; the commands are sent by searchCmd. It keeps the match
// gone to (by its Seq) when move is false: the thread grew.
func (a *App) scanArchive(move bool) {
	s, sh := &a.search, &a.search.shed
	ar := a.archive()
	var keep func(int) bool
	if a.filtering() {
		keep = a.shown
	}
	cur := s.curHit()
	hits, live := search.FindKept(a.fold.Items(), a.allSteps(), s.m, keep, ar)
	if !slices.IsSortedFunc(hits, bySeq) {
		slices.SortFunc(hits, bySeq)
	}
	now := a.scannedNow()
	if !move && sh.scan != nil && sh.seen.fold == now.fold && sh.seen.filter == now.filter {
		// The thread grew: what the archive matched still matches (it
		// only takes more), so the count goes on from there, not from 0.
		hits = mergeHits(s.hits, hits)
	}
	var narrow *search.Scan
	if move && !sh.counting && sh.scan != nil {
		narrow = sh.scan // used only if the query narrows its and nothing changed
	}
	sh.scan = ar.Scan(s.m, live, narrow)
	if a.filtering() {
		sh.scan.KeepSteps(slices.Clone(a.filter.kept))
	}
	sh.seen = now
	sh.gen++
	s.hits, s.found, s.stale = hits, a.now(), false
	sh.counting, sh.ask.count = true, true
	s.cur = -1
	if !move {
		s.cur = s.indexOf(cur)
		return
	}
	sh.liveAfter, sh.liveOK = search.Hit{}, false
	for _, h := range hits {
		if h.Seq >= s.origin {
			sh.liveAfter, sh.liveOK = h, true
			break
		}
	}
	sh.finding, sh.ask.first = true, true
}

// scannedNow is what a scan would search now.
func (a *App) scannedNow() scanned {
	return scanned{fold: a.fold, archive: a.archive().Generation(), seq: a.fold.LastSeq(), filter: a.filter.spec.String()}
}

// stopScan drops the archive's search; its messages still under way are
// ignored.
func (a *App) stopScan() {
	sh := &a.search.shed
	sh.scan, sh.finding, sh.counting, sh.ask.first, sh.ask.count = nil, false, false, false, false
	sh.gen++
}

// searchCmd sends the archive's search commands asked for, and reads back
// a shed message gone to.
func (a *App) searchCmd() tea.Cmd {
	sh := &a.search.shed
	var cmds []tea.Cmd
	if sh.ask.first && sh.scan != nil {
		scan, gen, origin := sh.scan, sh.gen, a.search.origin
		hi, anyAfter := ^uint64(0), sh.liveOK
		if sh.liveOK {
			hi = sh.liveAfter.Seq
		}
		cmds = append(cmds, func() tea.Msg {
			m := searchFirstMsg{gen: gen}
			m.after, m.afterOK = scan.First(origin, hi)
			if !m.afterOK && !anyAfter {
				m.first, m.firstOK = scan.First(0, origin)
			}
			return m
		})
	}
	if sh.ask.count && sh.scan != nil {
		scan, gen := sh.scan, sh.gen
		cmds = append(cmds, func() tea.Msg { return searchCountMsg{gen: gen, hits: scan.Next(searchChunk)} })
	}
	sh.ask.first, sh.ask.count = false, false
	if sh.showing != 0 {
		at := a.at()
		gap, shed := a.win.GapOf(at, sh.showing)
		switch job := a.win.WantItemsAround(at, sh.showing); {
		case job != nil:
			a.refresh()
			a.transcript.ShowItem(gap) // whose row says it is reading
			cmds = append(cmds, func() tea.Msg { return job() })
		case !shed:
			sh.showing = 0 // shown meanwhile, or gone with its thread
		case !a.win.CanRead(at):
			a.transcript.ShowItem(gap) // whose row says why it cannot be read back
			sh.showing = 0
		}
		// Otherwise a read is under way: the match is shown after it if
		// that read brought it (searchTookItems).
	}
	if len(cmds) == 0 {
		return nil
	}
	return tea.Batch(cmds...)
}

// onSearchFirst goes to the match the archive's search found first, or to
// the first kept one when it comes before.
func (a *App) onSearchFirst(m searchFirstMsg) {
	s, sh := &a.search, &a.search.shed
	if m.gen != sh.gen {
		return
	}
	sh.finding = false
	var to search.Hit
	switch {
	case m.afterOK:
		to = m.after // under liveAfter, when there is one
	case sh.liveOK:
		to = sh.liveAfter
	case m.firstOK && (len(s.hits) == 0 || m.first.Seq < s.hits[0].Seq):
		to = m.first
	case len(s.hits) > 0:
		to = s.hits[0]
	default:
		return // no match yet; the count says whether there is one
	}
	s.hits = mergeHits(s.hits, []search.Hit{to})
	a.goToHit(s.indexOf(to))
}

// onSearchCount adds the matches of some blocks of the archive and asks
// for the next, keeping the match gone to.
func (a *App) onSearchCount(m searchCountMsg) {
	s, sh := &a.search, &a.search.shed
	if m.gen != sh.gen {
		return
	}
	cur := s.curHit()
	s.hits = mergeHits(s.hits, m.hits)
	if s.cur >= 0 {
		s.cur = s.indexOf(cur)
	}
	if sh.scan.Done() {
		sh.counting = false
		return
	}
	sh.ask.count = true
}

// fillUncounted, while the archive's count runs, finds the match n (dir
// 1) or N (-1) goes to among every match, not only those counted yet: the
// archive between the match gone to and the next one known (wrapping,
// before the first or after the last) is searched at once. That is a few
// blocks read back, or none: blocks whose trigrams cannot hold the query
// are skipped.
func (a *App) fillUncounted(dir int) {
	s, sh := &a.search, &a.search.shed
	if !sh.counting || sh.scan == nil || s.cur < 0 || s.cur >= len(s.hits) {
		return
	}
	cur, n := s.hits[s.cur], len(s.hits)
	var h search.Hit
	var ok bool
	if dir > 0 {
		hi := ^uint64(0)
		if s.cur+1 < n {
			hi = s.hits[s.cur+1].Seq
		}
		if h, ok = sh.scan.First(cur.Seq+1, hi); !ok && s.cur == n-1 {
			h, ok = sh.scan.First(0, s.hits[0].Seq)
		}
	} else {
		lo := uint64(0)
		if s.cur > 0 {
			lo = s.hits[s.cur-1].Seq + 1
		}
		if h, ok = sh.scan.Last(lo, cur.Seq); !ok && s.cur == 0 {
			h, ok = sh.scan.Last(s.hits[n-1].Seq+1, ^uint64(0))
		}
	}
	if ok {
		s.hits = mergeHits(s.hits, []search.Hit{h})
		s.cur = s.indexOf(cur)
	}
}

// searchTookItems shows the shed message gone to, now that items were
// read back (once: a read that did not bring it leaves the gap row, which
// says why).
func (a *App) searchTookItems() {
	sh := &a.search.shed
	if sh.showing == 0 {
		return
	}
	if a.transcript.ShowItem(sh.showing) {
		a.following = false
	}
	sh.showing = 0
}
