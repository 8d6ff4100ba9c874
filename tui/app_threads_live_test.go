package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// liveThreads is an App whose input is still live, fed run by run, with a
// clock a second past the newest record fed, as a live agent's would be.
type liveThreads struct {
	*threadsApp
	recs []model.Record
	runs []logRun
	fed  int // runs fed
	now  time.Time
}

func newLiveThreads(t *testing.T, w, h, runs int) *liveThreads {
	t.Helper()
	l := &liveThreads{recs: threadsRecords(t)}
	l.runs = logRuns(t, l.recs)
	// The sheet gives the title bar the whole width.
	l.threadsApp = newThreadsApp(t, w, h, AppOptions{Title: threadsSource, Layout: LayoutSheet, Now: func() time.Time { return l.now }})
	l.feedRuns(t, 0, runs)
	return l
}

// feedRuns feeds runs [i, j) of the log, one batch each.
func (l *liveThreads) feedRuns(t testing.TB, i, j int) {
	t.Helper()
	var batches []model.Batch
	for _, r := range l.runs[i:j] {
		batches = append(batches, model.Batch{Source: threadsSource, Records: l.recs[r.from:r.to]})
	}
	l.now = l.recs[l.runs[j-1].to-1].At.Add(time.Second)
	l.feed(t, batches...)
	l.fed = j
}

// shows is checkShows for the records fed so far.
func (l *liveThreads) shows(t *testing.T, th *fold.Thread) {
	t.Helper()
	ref := fold.New(fold.Options{})
	for _, r := range l.runs[:l.fed] {
		if r.thread == th.ID {
			ref.Apply(l.recs[r.from:r.to]...)
		}
	}
	checkShowsFold(t, l.threadsApp, th, ref)
}

// thread is the thread of run i.
func (l *liveThreads) thread(t testing.TB, i int) *fold.Thread {
	t.Helper()
	ths := l.tv().set.Find(l.runs[i].thread)
	if len(ths) != 1 {
		t.Fatalf("run %d: %d threads of id %s", i, len(ths), l.runs[i].thread)
	}
	return ths[0]
}

// firstRunOf is the first run from i on that is of thread id, or of
// another thread when other is set.
func (l *liveThreads) firstRunOf(t testing.TB, i int, id string, other bool) int {
	t.Helper()
	for ; i < len(l.runs); i++ {
		if (l.runs[i].thread == id) != other {
			return i
		}
	}
	t.Fatalf("no run from %d on is of (or, other %v, not of) thread %s", i, other, id)
	return -1
}

// F follows the newest active thread as new records arrive, from a thread
// or the list, until F again.
func TestThreadsAppFollow(t *testing.T) {
	l := newLiveThreads(t, 200, 50, 3)
	if !l.tv().listing {
		t.Fatal("three runs of two threads do not open on the list")
	}
	l.press("enter")
	shown := l.tv().cur
	l.press("F")
	if !l.tv().follow || !strings.Contains(titleBar(l.App), "following") {
		t.Fatalf("F: follow %v, title bar %q", l.tv().follow, titleBar(l.App))
	}
	for i := 3; i < len(l.runs); i++ {
		l.feedRuns(t, i, i+1)
		l.shows(t, l.thread(t, i))
		// Its run has finished: the panel says it watches for more.
		if !l.following || !strings.Contains(ansi.Strip(l.screen(t)), "◌ watching") {
			t.Fatalf("run %d: the thread followed does not follow its newest step", i)
		}
	}
	if shown == l.tv().cur {
		t.Fatal("follow never changed thread")
	}
	l.press("F")
	if l.tv().follow || strings.Contains(titleBar(l.App), "following") {
		t.Fatalf("F again: follow %v, title bar %q", l.tv().follow, titleBar(l.App))
	}
}

// With F on, a burst that holds runs of two threads, X Y X, shows X: the
// thread of the newest record, the list's first row.
func TestThreadsAppFollowBurst(t *testing.T) {
	l := newLiveThreads(t, 200, 50, 1)
	i := 1
	for ; i+2 < len(l.runs); i++ {
		if r := l.runs[i:]; r[0].thread != r[1].thread && r[2].thread == r[0].thread {
			break
		}
	}
	if i+2 == len(l.runs) {
		t.Fatal("no runs X Y X in the log")
	}
	l.feedRuns(t, 1, i)
	l.press("enter", "F")
	l.feedRuns(t, i, i+3)
	want := l.thread(t, i+2)
	if l.tv().cur != want {
		t.Errorf("following shows %s after a burst of runs of %s, %s, %s; want %s, whose run came last",
			l.tv().cur.Key(), l.runs[i].thread, l.runs[i+1].thread, l.runs[i+2].thread, want.Key())
	}
	if l.tv().order[0] != want {
		t.Errorf("the list's first row is %s, want %s", l.tv().order[0].Key(), want.Key())
	}
	// F on the list turns follow off and on again.
	l.press("esc", "F")
	if l.tv().follow {
		t.Fatal("F on the list did not turn follow off")
	}
	l.press("F")
	next := l.firstRunOf(t, i+3, l.tv().cur.ID, true)
	l.feedRuns(t, i+3, next+1)
	l.shows(t, l.thread(t, next))
}

// A thread that gets records while another is shown is marked, in the
// title bar and the list, until it is opened; records that arrive while
// the list is on screen mark nothing.
func TestThreadsAppMarks(t *testing.T) {
	l := newLiveThreads(t, 200, 50, 3)
	if len(l.tv().marked) != 0 {
		t.Fatalf("%d threads marked while the list was on screen", len(l.tv().marked))
	}
	l.press("enter")
	shown := l.tv().cur
	if strings.Contains(titleBar(l.App), "◆") {
		t.Fatalf("title bar %q before any other thread got records", titleBar(l.App))
	}
	i := l.firstRunOf(t, 3, shown.ID, true)
	l.feedRuns(t, 3, i+1)
	other := l.thread(t, i)
	if !l.tv().marked[other] || len(l.tv().marked) != 1 {
		t.Fatalf("marked %v, want only %s", l.tv().marked, other.Key())
	}
	if top := titleBar(l.App); !strings.Contains(top, "◆ 1 new or active (esc: list)") {
		t.Fatalf("title bar %q", top)
	}
	l.press("esc")
	s := strings.Split(ansi.Strip(l.screen(t)), "\n")
	row := s[2+slices.Index(l.tv().order, other)]
	if !strings.HasPrefix(row, " ●◆") {
		t.Errorf("the row of %s is %q, want it live and marked", other.Key(), row)
	}
	// Records while the list is on screen mark nothing more.
	j := l.firstRunOf(t, i+1, other.ID, true)
	l.feedRuns(t, i+1, j+1)
	if len(l.tv().marked) != 1 {
		t.Errorf("%d threads marked after records arrived at the list, want 1", len(l.tv().marked))
	}
	// Opening the marked thread clears its mark.
	l.open(t, other)
	if len(l.tv().marked) != 0 || strings.Contains(titleBar(l.App), "◆") {
		t.Errorf("opening %s left marks %v, title bar %q", other.Key(), l.tv().marked, titleBar(l.App))
	}
	// Records of another thread an hour old mark nothing.
	l.press("esc")
	l.open(t, shown)
	marked := func(id string) bool {
		for th := range l.tv().marked {
			if th.ID == id {
				return true
			}
		}
		return false
	}
	k := j + 1
	for ; k < len(l.runs); k++ {
		if id := l.runs[k].thread; id != shown.ID && !marked(id) {
			break
		}
	}
	if k == len(l.runs) {
		t.Fatal("no run of a thread neither shown nor marked is left")
	}
	l.now = l.recs[l.runs[k].to-1].At.Add(time.Hour)
	l.feed(t, model.Batch{Source: threadsSource, Records: l.recs[l.runs[j+1].from:l.runs[k].to]})
	if th := l.thread(t, k); l.tv().marked[th] {
		t.Errorf("records an hour old marked thread %s", th.Key())
	}
}

// The list keeps the selected thread when rows move as records arrive.
func TestThreadsAppListKeepsSelection(t *testing.T) {
	l := newLiveThreads(t, 200, 50, 1)
	l.feedRuns(t, 1, len(l.runs)-1)
	l.press("esc", "home") // the threads came after the first was on screen: the list is asked for
	last := l.thread(t, len(l.runs)-1)
	k := slices.Index(l.tv().order, last)
	if k < 1 {
		t.Fatalf("the last run's thread is row %d: nothing can move", k)
	}
	chosen := l.tv().order[k-1]
	for range k - 1 {
		l.press("down")
	}
	if l.selectedThread() != chosen {
		t.Fatalf("↓×%d selects %s, want %s", k-1, l.selectedThread().Key(), chosen.Key())
	}
	l.feedRuns(t, len(l.runs)-1, len(l.runs))
	if l.tv().order[0] != last || l.tv().order[k] != chosen {
		t.Fatalf("the rows did not move: %s first, %s at %d", l.tv().order[0].Key(), l.tv().order[k].Key(), k)
	}
	if l.selectedThread() != chosen {
		t.Errorf("after the rows moved the list selects %s, want %s", l.selectedThread().Key(), chosen.Key())
	}
	bar := strings.Split(l.screen(t), "\n")[2+k]
	if !strings.HasPrefix(bar, "\x1b[7m") {
		t.Errorf("row %d is not drawn selected: %q", k, ansi.Strip(bar))
	}
	l.press("enter")
	l.shows(t, chosen)
}

// A thread that appears once the source is open never takes the screen
// from the thread a person reads: the screen stays, the new thread is
// marked, and the title says how many threads there are and how to step
// to them. While the source is being opened, several threads show the
// list.
func TestNewThreadNeverMovesTheScreen(t *testing.T) {
	l := newLiveThreads(t, 200, 50, 1)
	first := l.tv().cur
	if l.tv().listing || first == nil {
		t.Fatal("one thread does not open straight into it")
	}
	i := l.firstRunOf(t, 1, first.ID, true)
	l.feedRuns(t, 1, i+1)
	second := l.thread(t, i)
	if l.tv().listing || l.tv().cur != first {
		t.Fatalf("a new thread took the screen: listing %v, on %s", l.tv().listing, l.tv().cur.Key())
	}
	if !l.tv().marked[second] {
		t.Errorf("the new thread %s is not marked", second.Key())
	}
	if top := titleBar(l.App); !strings.Contains(top, "2 threads · { }") || !strings.Contains(top, "◆ 1 new") {
		t.Errorf("title bar %q", top)
	}
	if key := "}"; true {
		if slices.Index(l.tv().order, second) < slices.Index(l.tv().order, first) {
			key = "{"
		}
		l.press(key)
	}
	if l.tv().cur != second {
		t.Errorf("} shows %s, want the new thread %s", l.tv().cur.Key(), second.Key())
	}

	// Opened with two threads at once: the list.
	both := newLiveThreads(t, 200, 50, i+1)
	if !both.tv().listing {
		t.Error("a source opened with two threads does not show the list")
	}
}
