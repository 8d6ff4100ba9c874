package tui

// This file holds the App's threads: a source of many threads (a server
// log, a folder of per-thread logs) opens on the thread list; Enter opens a
// thread, esc goes back, { and } step through threads without going back,
// F follows the newest active thread. One thread opens straight into its
// transcript, as a single-thread log always did.

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/tui/threadlist"
	"github.com/agentwatch/agentwatch/tui/transcript"
)

const (
	// activeFor is how long after its last records a thread counts as
	// active (its live mark in the list) while the source is live.
	activeFor = 10 * time.Second
	// openingFor is how long after its first records a source is still
	// being opened: the screen shows the list or the thread as the
	// threads found by then say. A thread that appears later never takes
	// the screen from the one a person reads.
	openingFor = time.Second
)

// threadsView is the App's state for a source of many threads.
type threadsView struct {
	set     *fold.Threads
	batches <-chan model.Batch
	// cur is the thread on screen (or last on screen, while listing).
	cur *fold.Thread
	// lost is the thread that was on screen when its source started over,
	// until a thread of the same id comes again.
	lost *fold.Thread
	// listing shows the thread list instead of a thread.
	listing bool
	// chosen is set once the person opened or left a thread by hand: from
	// then on the screen stops switching between list and thread itself.
	chosen bool
	// follow switches to the thread that most recently got records.
	follow bool
	list   *threadlist.List
	// moved is set once the person moved the list's selection: until then
	// it stays on the top row (the newest activity) as rows reorder.
	moved bool
	// order is the list's threads, newest activity first, as last drawn.
	order []*fold.Thread
	// marked are threads that appeared or became active while another
	// was on screen.
	marked map[*fold.Thread]bool
	// firstAt is when the first records arrived (zero before).
	firstAt time.Time
	// filter keeps the list's threads whose title, id or file holds it
	// (app_threads_filter.go).
	filter search.Matcher
	// saved keeps each opened thread's screen: transcript, selection.
	saved map[*fold.Thread]*threadScreen
	rows  map[*fold.Thread]threadRowCache
	// agents are the agents' word on their sessions by file path
	// (app_agents.go): nil until the first AgentStatesMsg, and for a
	// source of no agent's sessions.
	agents model.AgentStates
	// asking are the threads that started waiting for the person since
	// they last selected or opened them.
	asking map[*fold.Thread]bool
	// glances are the files of a big folder listed from what their heads
	// and tails say (app_glances.go), by source, in glanceOrder; folded
	// are the sources whose records came, whose threads list them from
	// then on; empty is the stand-ins' fold, which nothing folds into.
	glances     map[string]*glanced
	glanceOrder []*glanced
	folded      map[string]bool
	empty       *fold.Fold
	// wanted is the source the person opened from its glance, until its
	// thread comes.
	wanted string
}

// threadScreen is what the App shows of one thread, kept while another
// thread is on screen.
type threadScreen struct {
	transcript *transcript.Transcript
	selected   int
	following  bool
	focus      appFocus
}

// threadRowCache is a thread's list row, computed again only when the
// thread has new records.
type threadRowCache struct {
	lastSeq uint64
	runs    int
	steps   int
	failed  int
	title   string
	// open says a run of the thread is open.
	open bool
	// glanced says the row is a glanced file's, not folded: its counts are
	// not known.
	glanced bool
}

// batchesMsg carries batches of several sources from the pump.
type batchesMsg []model.Batch

// NewThreadsApp shows the threads of batches arriving on batches (the
// channel closes at the end of the input), each thread folded on its own
// in ts. Until the channel closes the input is live.
func NewThreadsApp(ts *fold.Threads, batches <-chan model.Batch, opts AppOptions) *App {
	a := NewApp(fold.New(fold.Options{}), nil, opts)
	tv := &threadsView{set: ts, batches: batches, list: threadlist.New(),
		marked: map[*fold.Thread]bool{}, asking: map[*fold.Thread]bool{},
		saved: map[*fold.Thread]*threadScreen{}, rows: map[*fold.Thread]threadRowCache{}, folded: map[string]bool{}}
	a.mode = tv
	a.afterThreads(tv, nil, nil)
	return a
}

// now is the App's clock.
func (a *App) now() time.Time {
	if a.opts.Now != nil {
		return a.opts.Now()
	}
	return time.Now()
}

// onBatches folds what arrived into the threads and updates the screen.
func (a *App) onBatches(msg batchesMsg) {
	tv, ok := a.mode.(*threadsView)
	if !ok {
		return
	}
	a.noteRestarts(msg)
	if tv.firstAt.IsZero() {
		tv.firstAt = a.now()
	}
	var touched, fresh []*fold.Thread
	for _, b := range msg {
		a.heardFrom(b.Records, a.win.IsFile(b.Source) || b.Size > 0)
		a.win.Read(b)
		if b.Restart {
			a.forget(tv, tv.set.Forget(b.Source))
			touched = slices.DeleteFunc(touched, func(th *fold.Thread) bool { return th.Source == b.Source })
		}
		if b.Glance != nil {
			tv.noteGlance(b.Source, b.Glance)
		}
		if len(b.Records) > 0 {
			tv.folded[b.Source] = true
		}
		had := tv.set.Len()
		for _, u := range tv.set.Apply(b.Source, b.Records...) {
			if !slices.Contains(touched, u.Thread) {
				touched = append(touched, u.Thread)
			}
		}
		if list := tv.set.List(); len(list) > had {
			fresh = append(fresh, list[had:]...)
		}
	}
	a.afterThreads(tv, touched, fresh)
	a.tookUp(tv, fresh)
	a.checkpoint()
	a.trimThreads(tv, touched)
}

// afterThreads settles which thread is on screen after records arrived
// for the touched threads (fresh: those that appeared with them), and
// redraws what changed. While the source is being opened the screen shows
// the list when it has several threads; after that, a thread that appears
// or wakes up is marked, and never takes the screen from the thread a
// person reads.
func (a *App) afterThreads(tv *threadsView, touched, fresh []*fold.Thread) {
	n := tv.total()
	if tv.cur == nil && tv.set.Len() > 0 {
		th := tv.set.List()[0]
		if again := tv.sameThread(tv.lost); again != nil {
			th = again
		}
		a.showThread(tv, th)
	}
	if !tv.chosen && a.opening(tv) {
		tv.listing = n > 1
	}
	// A mark says "new or active while you looked at another thread": the
	// list on screen shows every thread already.
	for _, th := range touched {
		if !tv.listing && th != tv.cur && (a.active(th) || slices.Contains(fresh, th)) {
			tv.marked[th] = true
		}
	}
	if tv.follow && len(touched) > 0 {
		// The thread of the newest record: touched lists threads by
		// their first records, so a burst of runs X Y X ends on Y there.
		newest := tv.set.Last()
		if newest != tv.cur {
			a.switchThread(tv, newest)
			tv.listing = false
		}
	}
	if tv.cur != nil && slices.Contains(touched, tv.cur) {
		a.refresh()
	}
	a.refreshList(tv)
}

// opening reports whether the source is still being opened: its files
// are being read for the first time, or its first records came less than
// openingFor ago.
func (a *App) opening(tv *threadsView) bool {
	if _, _, reading := a.win.Reading(); reading {
		return true
	}
	return tv.firstAt.IsZero() || a.now().Sub(tv.firstAt) < openingFor
}

// forget drops what the screen kept of threads whose source started over;
// the thread on screen is shown again once its source sends it again.
func (a *App) forget(tv *threadsView, gone []*fold.Thread) {
	a.win.Forget(gone)
	a.forgetArchives(gone)
	for _, th := range gone {
		delete(tv.saved, th)
		delete(tv.rows, th)
		delete(tv.marked, th)
		delete(tv.asking, th)
		if th == tv.cur {
			tv.cur, tv.lost = nil, th
			light := a.transcript.Light()
			a.transcript = transcript.New()
			a.transcript.SetLight(light)
			a.fold = fold.New(fold.Options{})
			a.selected, a.following = -1, true
			a.panelCache = panelCache{}
			a.refresh()
		}
	}
}

// sameThread is the thread of the same source and id as th, when there
// is one again (nil otherwise).
func (tv *threadsView) sameThread(th *fold.Thread) *fold.Thread {
	if th == nil {
		return nil
	}
	for _, t := range tv.set.Find(th.ID) {
		if t.Source == th.Source {
			return t
		}
	}
	return nil
}

// showThread puts th on screen, restoring how it was left.
func (a *App) showThread(tv *threadsView, th *fold.Thread) {
	if tv.cur != nil && tv.cur != th {
		tv.saved[tv.cur] = &threadScreen{transcript: a.transcript, selected: a.selected, following: a.following, focus: a.focus}
	}
	tv.cur, tv.lost = th, nil
	delete(tv.marked, th)
	tv.lookedAt(th)
	a.fold = th.Fold
	a.stopPlay()
	a.showPlan, a.showRuns = false, false
	a.panelCache = panelCache{}
	if s := tv.saved[th]; s != nil {
		a.transcript, a.selected, a.following, a.focus = s.transcript, s.selected, s.following, s.focus
	} else {
		light := a.transcript.Light()
		a.transcript = transcript.New()
		a.transcript.SetLight(light)
		a.selected, a.following, a.focus = -1, true, focusTranscript
	}
	a.refresh()
}

// switchThread opens th by hand (or by follow): the screen stops choosing.
func (a *App) switchThread(tv *threadsView, th *fold.Thread) {
	if tv.glancedRow(th) != nil {
		a.openGlanced(tv, th)
		return
	}
	tv.chosen = true
	tv.listing = false
	a.showThread(tv, th)
}

// refreshList hands the threads to the list, newest activity first, or
// for an agent's sessions by what the agent does with them first
// (agentOrder).
func (a *App) refreshList(tv *threadsView) {
	tv.order = tv.order[:0]
	var states map[*fold.Thread]model.AgentState
	if tv.agents != nil {
		states = make(map[*fold.Thread]model.AgentState, tv.total())
	}
	for _, th := range append(tv.set.List(), tv.unfolded()...) {
		if tv.listed(th) {
			tv.order = append(tv.order, th)
			if states != nil {
				states[th] = tv.agentStateNow(th)
			}
		}
	}
	slices.SortStableFunc(tv.order, tv.agentOrder(states))
	rows := make([]threadlist.Row, len(tv.order))
	now := a.now()
	for i, th := range tv.order {
		c, gl := tv.rows[th], tv.glancedRow(th)
		if gl != nil && c.title == "" {
			c = threadRowCache{title: gl.g.Title, glanced: true}
			tv.rows[th] = c
		}
		if gl == nil && (c.lastSeq != th.LastSeq || c.title == "") {
			c = threadRowCache{lastSeq: th.LastSeq, runs: len(th.Fold.Runs()), steps: th.Fold.StepCount(), title: th.Title(),
				failed: a.win.FailedForgotten(th.Fold), open: anyRunOpen(th.Fold)}
			for _, s := range th.Fold.Steps() {
				if s.Status == model.StatusFailed {
					c.failed++
				}
			}
			tv.rows[th] = c
		}
		project := ""
		if a.opts.Project != nil {
			project = a.opts.Project(th.Source)
		}
		live, agent := a.activeAt(th, now), states[th]
		if agent.Known() {
			live = agent.Busy() // the agent's word, not the file's
		}
		rows[i] = threadlist.Row{ID: th.ID, Title: c.title, Source: th.Source, Project: project, Runs: c.runs, Steps: c.steps, Failed: c.failed, Unfolded: c.glanced,
			First: th.First, Last: th.Last, Live: live, Agent: agent, Asking: tv.asking[th],
			Marked: tv.marked[th], Current: th == tv.cur && tv.chosen}
	}
	tv.list.SetRows(rows)
	if !tv.moved {
		tv.list.Select(0)
	}
}

// threadOrder is the thread list's order: the newest activity first, by
// the last record's time, then by arrival, later threads first; then the
// threads whose time is not known (a log without timestamps, read from
// before it was watched) in the order of their files and, in a file, of
// their first records. Such a thread has no newest activity to sort by, and
// the time it was read is not when it happened.
func threadOrder(x, y *fold.Thread) int {
	xt, yt := !x.Last.IsZero(), !y.Last.IsZero()
	switch {
	case xt && yt:
		if c := y.Last.Compare(x.Last); c != 0 {
			return c
		}
		return cmp.Compare(y.LastSeq, x.LastSeq)
	case xt:
		return -1
	case yt:
		return 1
	}
	if c := cmp.Compare(x.Source, y.Source); c != 0 {
		return c
	}
	return cmp.Compare(x.FirstSeq, y.FirstSeq)
}

// active reports whether th is active now: the source is live and th's
// last record is recent. A record's time is its own timestamp, or its
// arrival time when it has none, so a saved log opened for review has no
// active thread, while a live agent's newest records make theirs active.
func (a *App) active(th *fold.Thread) bool { return a.activeAt(th, a.now()) }

func (a *App) activeAt(th *fold.Thread, now time.Time) bool {
	if a.done || th.Last.IsZero() {
		return false
	}
	age := now.Sub(th.Last)
	return age < activeFor && age > -activeFor
}

// stepThread opens the thread before (-1) or after (+1) the one on screen
// in the list's order.
func (a *App) stepThread(dir int) {
	tv, ok := a.mode.(*threadsView)
	if !ok || tv.total() < 2 {
		a.note = "one thread only: { and } step between the threads of a source of many"
		return
	}
	a.refreshList(tv)
	i := slices.Index(tv.order, tv.cur)
	j := i + dir
	if i < 0 || j < 0 || j >= len(tv.order) {
		a.note = "no thread after this one in the list"
		if dir < 0 {
			a.note = "no thread before this one in the list"
		}
		return
	}
	a.switchThread(tv, tv.order[j])
	tv.selectRow(tv.order[j])
}

// selectRow moves the list's selection to th.
func (tv *threadsView) selectRow(th *fold.Thread) {
	if i := slices.Index(tv.order, th); i >= 0 {
		tv.list.Select(i)
		tv.moved = true
	}
}

// listClick opens the thread clicked on.
func (a *App) listClick(tv *threadsView, m tea.Mouse) {
	if !a.geo.list.contains(m.X, m.Y) {
		return
	}
	if i, ok := tv.list.RowAt(m.Y - a.geo.list.y); ok && i < len(tv.order) {
		tv.list.Select(i)
		tv.moved = true
		tv.lookedAt(tv.order[i])
		a.switchThread(tv, tv.order[i])
	}
}

// drawList draws the thread list into its rectangles: its title line and
// its rows.
func (a *App) drawList(c *canvas, tv *threadsView, l screenLayout) {
	if l.listTitle.empty() {
		return
	}
	title := "threads · " + strconv.Itoa(tv.total())
	if !tv.filter.Empty() {
		title = "threads · " + strconv.Itoa(len(tv.order)) + " of " + strconv.Itoa(tv.total())
	}
	if a.opts.Title != "" {
		title += " · " + a.opts.Title
	}
	word, _ := a.listWord(tv).mark()
	title += a.titleNotes(word)
	if tv.follow {
		title += " · following the newest active thread"
	}
	c.putLine(l.listTitle, titleLine(title, true, l.listTitle.w))
	c.put(l.list, tv.list.View(l.list.w, l.list.h))
}

// threadTitle is what the transcript's title bar says about threads: which
// thread is shown, and how many others became active meanwhile.
func (a *App) threadTitle() string {
	if r, ok := a.mode.(*replayMode); ok {
		if th := r.player.Thread(); th != nil && r.player.Threads().Len() > 1 {
			return "playing " + threadName(th) + " · " + count(r.player.Threads().Len(), "thread", "threads")
		}
		return ""
	}
	tv, ok := a.mode.(*threadsView)
	if !ok || tv.cur == nil || tv.total() < 1 {
		return ""
	}
	if tv.total() == 1 {
		// One thread: the title it was given says more than its file's
		// name (an agent's session file is named by an id).
		if t := tv.cur.Name(); t != "" {
			return "“" + ansi.Truncate(strings.Join(strings.Fields(Plain(t)), " "), 60, "…") + "”"
		}
		return ""
	}
	// A thread that appeared or woke up is said first: it is news, and a
	// long thread name after it is what a narrow title bar cuts.
	s := ""
	if n := len(tv.marked); n > 0 {
		s = "◆ " + strconv.Itoa(n) + " new or active (esc: list) · "
	}
	s += threadName(tv.cur) + " · " + count(tv.total(), "thread", "threads") + " · { }"
	if tv.follow {
		s += " · following"
	}
	return s
}

// threadName is "thread ID “title”", cleaned for a title bar.
func threadName(th *fold.Thread) string {
	s := "thread " + strings.Join(strings.Fields(Plain(th.Key())), " ")
	if t := th.Title(); t != "" {
		s += " “" + ansi.Truncate(strings.Join(strings.Fields(Plain(t)), " "), 40, "…") + "”"
	}
	return s
}

// listMove moves the list's selection by delta rows; from then on the
// list no longer keeps the newest activity selected by itself.
func (a *App) listMove(delta int) {
	if tv, ok := a.mode.(*threadsView); ok {
		tv.moved = true
		tv.list.Move(delta)
		if th := tv.selectedThread(); tv.asking[th] {
			tv.lookedAt(th)
			a.refreshList(tv)
		}
	}
}

// listPage is how many rows the thread list shows: the step of PgUp and
// PgDn there.
func (a *App) listPage() int {
	if tv, ok := a.mode.(*threadsView); ok {
		return tv.list.PageSize()
	}
	return 1
}

// openListed opens the thread selected in the list.
func (a *App) openListed() {
	tv, ok := a.mode.(*threadsView)
	if !ok {
		return
	}
	tv.moved = true
	if i := tv.list.Selected(); i >= 0 && i < len(tv.order) {
		a.switchThread(tv, tv.order[i])
	}
}

// toggleFollow starts or stops following the newest active thread.
func (a *App) toggleFollow() {
	tv, ok := a.mode.(*threadsView)
	if !ok || tv.total() < 2 {
		a.note = "one thread only: F follows the newest active of a source's threads"
		return
	}
	tv.follow = !tv.follow
	a.note = "stopped following the newest active thread"
	if tv.follow {
		a.note = "following the newest active thread (F stops)"
	}
}
