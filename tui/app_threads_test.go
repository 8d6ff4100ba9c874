package tui

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/runtree"
)

// threadsLog is the log the thread screen's tests read: a server's log of
// six threads whose runs take turns, one thread with five runs of which two
// branch. Its times are UTC, so the screens do not depend on the machine's
// time zone.
var threadsLog = sync.OnceValue(func() []byte { return loggen.GenerateThreads(6000, 6, 7) })

// threadsSource is the file name the tests give the log.
const threadsSource = "server.jsonl"

func threadsRecords(t testing.TB) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(threadsLog()))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// threadsApp is an App of many threads fed through its pump, as the
// program feeds it.
type threadsApp struct {
	fedApp[model.Batch]
}

// newThreadsApp returns an App of w×h cells that has received batches.
func newThreadsApp(t testing.TB, w, h int, opts AppOptions, batches ...model.Batch) *threadsApp {
	t.Helper()
	ch := make(chan model.Batch, 4096)
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), ch, opts)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	d := &threadsApp{fedApp[model.Batch]{App: a, ch: ch, next: a.Init()}}
	d.feed(t, batches...)
	return d
}

// feed sends batches on the channel and hands the pump's messages to the
// App until the channel is empty.
func (d *threadsApp) feed(t testing.TB, batches ...model.Batch) {
	t.Helper()
	if len(batches) > cap(d.ch)-len(d.ch) {
		t.Fatalf("%d batches do not fit the channel", len(batches))
	}
	for _, b := range batches {
		d.ch <- b
	}
	for len(d.ch) > 0 {
		msg := d.next()
		if _, ok := msg.(batchesMsg); !ok {
			t.Fatalf("the pump gave %T, want batchesMsg", msg)
		}
		_, d.next = d.Update(msg)
		if d.next == nil {
			t.Fatal("the pump was not issued again")
		}
	}
}

// screen is drawnScreen of d's App.
func (d *threadsApp) screen(t *testing.T) string {
	t.Helper()
	return drawnScreen(t, d.App)
}

// drawnScreen draws a and fails unless the screen is exactly a's size
// (checkScreen) and holds no escape sequence but SGR colours and no other
// control character.
func drawnScreen(t *testing.T, a *App) string {
	t.Helper()
	s := a.View().Content
	lines := strings.Split(s, "\n")
	checkScreen(t, lines, a.width, a.height)
	for i, l := range lines {
		for _, r := range sgrRE.ReplaceAllString(l, "") {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("line %d holds control character %U: %q", i, r, l)
			}
		}
	}
	return s
}

// selectedThread is the thread of the list's selected row.
func (d *threadsApp) selectedThread() *fold.Thread {
	tv := d.tv()
	if i := tv.list.Selected(); i >= 0 && i < len(tv.order) {
		return tv.order[i]
	}
	return nil
}

// open selects th in the list with the keys and opens it with Enter.
func (d *threadsApp) open(t testing.TB, th *fold.Thread) {
	t.Helper()
	if !d.tv().listing {
		t.Fatal("open: the list is not on screen")
	}
	i := slices.Index(d.tv().order, th)
	if i < 0 {
		t.Fatalf("open: thread %s is not listed", th.Key())
	}
	d.press("g")
	for range i {
		d.press("j")
	}
	d.press("enter")
	if d.tv().cur != th || d.tv().listing {
		t.Fatalf("open: %s on screen (listing %v), want %s", d.tv().cur.Key(), d.tv().listing, th.Key())
	}
}

// branchThread is the first thread of ts with a run that branches.
func branchThread(t testing.TB, ts *fold.Threads) *fold.Thread {
	t.Helper()
	for _, th := range ts.List() {
		for _, r := range runtree.Rows(th.Fold.Runs(), th.Fold.Steps()) {
			if r.Branch {
				return th
			}
		}
	}
	t.Fatal("no thread has a branch run")
	return nil
}

// titleBar is the plain text of the screen's first line.
func titleBar(a *App) string {
	top, _, _ := strings.Cut(a.View().Content, "\n")
	return ansi.Strip(top)
}

// threadFiles are the log's threads one file each, by thread id.
var threadFiles = sync.OnceValue(func() map[string][]byte { return loggen.ThreadFiles(6000, 6, 7) })

// threadFileRecords are the records of thread id's own file.
func threadFileRecords(t testing.TB, id string) []model.Record {
	t.Helper()
	log, ok := threadFiles()[id]
	if !ok {
		t.Fatalf("no file for thread %s", id)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// threadFold folds thread id's own file alone: what the App must show for
// that thread of the log.
func threadFold(t testing.TB, id string) *fold.Fold {
	t.Helper()
	f := fold.New(fold.Options{})
	if _, err := f.Apply(threadFileRecords(t, id)...); err != nil {
		t.Fatal(err)
	}
	return f
}

// checkShows fails unless the App shows thread th of the saved log: its
// fold, its steps (those of th's file folded alone) and its newest step in
// the panel; with several threads, its id in the title bar.
func checkShows(t *testing.T, d *threadsApp, th *fold.Thread) {
	t.Helper()
	checkShowsFold(t, d, th, threadFold(t, th.ID))
}

// checkShowsFold is checkShows with the fold th must show.
func checkShowsFold(t *testing.T, d *threadsApp, th *fold.Thread, ref *fold.Fold) {
	t.Helper()
	if d.tv().listing || d.tv().cur != th || d.fold != th.Fold {
		t.Fatalf("thread %s is not on screen (listing %v, cur %s)", th.Key(), d.tv().listing, d.tv().cur.Key())
	}
	want := ref.Steps()
	got := d.fold.Steps()
	if len(got) != len(want) {
		t.Fatalf("thread %s shows %d steps, its file alone folds to %d", th.Key(), len(got), len(want))
	}
	for i := range want {
		if got[i].ToolCallID != want[i].ToolCallID || got[i].Status != want[i].Status || got[i].RunID != want[i].RunID {
			t.Fatalf("step %d is %s %s of run %s, want %s %s of run %s", i, got[i].ToolCallID, got[i].Status, got[i].RunID,
				want[i].ToolCallID, want[i].Status, want[i].RunID)
		}
	}
	if d.transcript.Len() != len(th.Fold.Items()) {
		t.Errorf("the transcript has %d items, the thread %d", d.transcript.Len(), len(th.Fold.Items()))
	}
	s := ansi.Strip(d.screen(t))
	if top := titleBar(d.App); d.tv().set.Len() > 1 && !strings.Contains(top, "thread "+th.ID[:8]) {
		t.Errorf("title bar %q does not name thread %s", top, th.ID)
	}
	if n := len(want); !strings.Contains(s, fmt.Sprintf("step %d of %d", n, n)) {
		t.Errorf("the panel does not show step %d of %d:\n%s", n, n, s)
	}
}

// savedThreads is the log read to its end, at w×h.
func savedThreads(t *testing.T, w, h int) *threadsApp {
	t.Helper()
	d := newThreadsApp(t, w, h, AppOptions{Title: threadsSource}, model.Batch{Source: threadsSource, Records: threadsRecords(t)})
	d.close(t)
	return d
}

// One thread opens straight into its transcript; more open on the list.
func TestThreadsAppOpensOn(t *testing.T) {
	files := threadFiles()
	ids := make([]string, 0, len(files))
	for id := range files {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	file := func(id string) model.Batch {
		recs, err := sources.ReadAll(bytes.NewReader(files[id]))
		if err != nil {
			t.Fatal(err)
		}
		return model.Batch{Source: id + ".jsonl", Records: recs}
	}
	for _, tc := range []struct {
		name    string
		batches []model.Batch
		threads int
	}{
		{"one thread", []model.Batch{file(ids[0])}, 1},
		{"two files", []model.Batch{file(ids[0]), file(ids[1])}, 2},
		{"a server log of six", []model.Batch{{Source: threadsSource, Records: threadsRecords(t)}}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newThreadsApp(t, 100, 30, AppOptions{}, tc.batches...)
			d.close(t)
			if n := d.tv().set.Len(); n != tc.threads {
				t.Fatalf("%d threads, want %d", n, tc.threads)
			}
			s := ansi.Strip(d.screen(t))
			if tc.threads == 1 {
				if d.tv().listing || !strings.HasPrefix(s, "─ transcript") || !strings.Contains(s, "? help") {
					t.Fatalf("one thread does not open into its transcript:\n%s", s)
				}
				if strings.Contains(titleBar(d.App), "thread ") {
					t.Errorf("one thread's title bar names it: %q", titleBar(d.App))
				}
				checkShows(t, d, d.tv().set.List()[0])
				// Nothing to go back to, nothing to step to: the screen
				// stays, and { } say why in the footer.
				d.press("esc", "backspace", "{", "}")
				got := ansi.Strip(d.screen(t))
				body := func(s string) string { return s[:strings.LastIndex(s, "\n")] }
				if d.tv().listing || body(got) != body(s) || !strings.Contains(got, "one thread only") {
					t.Errorf("esc, backspace, { or } changed the screen of a single thread:\n%s", got)
				}
				return
			}
			if !d.tv().listing || !strings.HasPrefix(s, fmt.Sprintf("─ threads · %d ", tc.threads)) {
				t.Fatalf("%d threads do not open on the list:\n%s", tc.threads, s)
			}
			if len(d.tv().marked) != 0 {
				t.Errorf("a saved log marks %d threads", len(d.tv().marked))
			}
		})
	}
}

// Enter (→, l) opens the selected thread; esc goes back to the list with
// that thread selected, and Enter opens it again; esc on the list opens
// nothing (it is the top).
func TestThreadsAppOpenAndBack(t *testing.T) {
	d := savedThreads(t, 120, 40)
	order := slices.Clone(d.tv().order)
	if len(order) != 6 {
		t.Fatalf("%d threads listed", len(order))
	}
	for i, th := range order {
		for _, key := range []string{"enter", "right", "l"} {
			d.press("g")
			for range i {
				d.press("j")
			}
			if got := d.selectedThread(); got != th {
				t.Fatalf("row %d selects %s, want %s", i, got.Key(), th.Key())
			}
			d.press(key)
			checkShows(t, d, th)
			d.press("esc")
			if !d.tv().listing || d.selectedThread() != th {
				t.Fatalf("esc from %s: listing %v, %s selected", th.Key(), d.tv().listing, d.selectedThread().Key())
			}
			if s := ansi.Strip(d.screen(t)); !strings.Contains(strings.Split(s, "\n")[2+i], "›") {
				t.Errorf("row %d does not carry the › of the thread shown last:\n%s", i, s)
			}
		}
	}
	// esc on the list stays there; Enter opens the thread shown last,
	// selected; backspace goes back too.
	d.press("esc")
	if !d.tv().listing {
		t.Fatal("esc on the list opened a thread")
	}
	d.press("enter")
	checkShows(t, d, order[len(order)-1])
	d.press("backspace")
	if !d.tv().listing {
		t.Error("backspace did not go back to the list")
	}
}

// { and } open the thread before and after in the list's order, newest
// activity first, without going back to the list.
func TestThreadsAppStepThreads(t *testing.T) {
	d := savedThreads(t, 120, 40)
	order := slices.Clone(d.tv().order)
	for i := 1; i < len(order); i++ {
		if order[i].Last.After(order[i-1].Last) {
			t.Fatalf("row %d is newer than row %d", i, i-1)
		}
	}
	d.press("enter")
	checkShows(t, d, order[0])
	d.press("{")
	checkShows(t, d, order[0])
	for i := 1; i < len(order); i++ {
		d.press("}")
		checkShows(t, d, order[i])
	}
	d.press("}")
	checkShows(t, d, order[len(order)-1])
	for i := len(order) - 2; i >= 2; i-- {
		d.press("{")
		checkShows(t, d, order[i])
	}
	d.press("esc")
	if d.selectedThread() != order[2] {
		t.Errorf("after { and } the list selects %s, want %s", d.selectedThread().Key(), order[2].Key())
	}
}

// logRun is one run of the log: its records recs[from:to] and its thread.
type logRun struct {
	from, to int
	thread   string
}

// logRuns splits recs at each RUN_STARTED (the log's runs never overlap).
func logRuns(t testing.TB, recs []model.Record) []logRun {
	t.Helper()
	var runs []logRun
	for i := range recs {
		if rs, ok := recs[i].Event.(*agui.RunStarted); ok {
			if n := len(runs); n > 0 {
				runs[n-1].to = i
			}
			runs = append(runs, logRun{from: i, to: len(recs), thread: rs.ThreadID})
		}
	}
	if len(runs) == 0 || runs[0].from != 0 {
		t.Fatal("the log does not start with a run")
	}
	return runs
}

// A thread keeps its selected step and its transcript's scroll while
// others are shown, whichever way one comes back to it.
func TestThreadsAppKeepsThreadScreen(t *testing.T) {
	d := savedThreads(t, 120, 40)
	first := d.tv().order[1]
	d.open(t, first)
	d.screen(t) // the transcript learns its height
	d.press("left", "left", "left", "k", "k", "k", "k", "k")
	sel, tr, screen := d.selected, d.transcript, d.screen(t)
	if d.following || tr.Following() {
		t.Fatal("← and ↑ left the thread following")
	}
	for _, back := range [][]string{
		{"esc", "g", "enter", "esc", "j", "enter"}, // by the list
		{"{", "}"}, // by { and }
		{"}", "}", "{", "{"},
		{"esc", "enter"}, // to the list, where the thread is selected, and back
	} {
		d.press(back...)
		if d.tv().cur != first || d.selected != sel || d.transcript != tr || d.following {
			t.Fatalf("after %v: %s, step %d, following %v; want %s, step %d", back, d.tv().cur.Key(), d.selected, d.following,
				first.Key(), sel)
		}
		if got := d.screen(t); got != screen {
			t.Errorf("after %v the screen differs from when the thread was left:\n%s\nwas:\n%s", back, ansi.Strip(got), ansi.Strip(screen))
		}
	}
	// A thread not opened before starts at its newest step, following.
	d.press("esc", "G", "enter")
	if n := len(d.fold.Steps()); d.tv().cur != d.tv().order[5] || d.selected != n-1 || !d.following || d.transcript == tr {
		t.Errorf("a thread opened for the first time shows step %d of %d (following %v)", d.selected, n, d.following)
	}
}

// Every screen of the thread list and of a thread fits any size.
func TestThreadsAppSizes(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {1, 2}, {20, 1}, {20, 4}, {60, 20}, {119, 7}, {140, 3}, {300, 100}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			d := savedThreads(t, sz[0], sz[1])
			d.screen(t)
			for _, k := range []string{"j", "pgdown", "?", "esc", "enter", "t", "tab", "down", "enter", "v", "}", "c", "esc", "G", "l", "?"} {
				d.press(k)
				d.screen(t)
			}
		})
	}
}

// Hostile thread ids reach neither the list nor a thread's title bar.
func TestThreadsAppHostileIDs(t *testing.T) {
	recs, err := sources.ReadAll(bytes.NewReader(hostileThreadsLog(t)))
	if err != nil {
		t.Fatal(err)
	}
	d := newThreadsApp(t, 200, 20, AppOptions{Title: "evil\x1b[2J.jsonl", Layout: LayoutSheet},
		model.Batch{Source: "dir/\x1b[31mevil\nname.jsonl", Records: recs})
	d.close(t)
	d.screen(t)
	for i := range d.tv().order {
		d.press("g")
		for range i {
			d.press("j")
		}
		d.press("enter")
		if top := titleBar(d.App); !strings.Contains(top, " · thread ") || strings.Contains(top, "[2J") {
			t.Errorf("title bar %q: no thread named, or an escape's text left", top)
		}
		d.screen(t)
		d.press("esc")
	}
	s := ansi.Strip(d.screen(t))
	for _, want := range []string{"hello 1", "hello 5", "threads · 6 · evil.jsonl"} {
		if !strings.Contains(s, want) {
			t.Errorf("the list lacks %q:\n%s", want, s)
		}
	}
}
