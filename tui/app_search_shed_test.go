package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/window"
)

// turnsLog is n turns of thread t in one run, as JSON Lines: turn i says
// "kiwi<i>" in a message and prints "papaya<i>" from a tool call (i in four
// digits).
func turnsLog(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TEXT_MESSAGE_START","messageId":"m%d","role":"assistant"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d","delta":"turn %d looks at kiwi%04d"}`+"\n", i, i, i)
		fmt.Fprintf(&b, `{"type":"TEXT_MESSAGE_END","messageId":"m%d"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"bash","metadata":{"category":"execute"}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{\"command\":\"echo\"}"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"printed papaya%04d"}`+"\n", i, i, i)
	}
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n")
	return b.String()
}

// shedSearchKeep is small, so that a log of a few hundred turns is shed
// many times over.
var shedSearchKeep = fold.Keep{Items: 60, Content: 10, Skeletons: 30, Tombstones: fold.TombstonesRecent}

// shedSearchApp is the screen of turnsLog(n), fed 150 records a batch,
// shedding as it goes; its reader reads items and steps back from whole,
// the fold of the log that kept everything.
func shedSearchApp(t *testing.T, n int) (d *threadsApp, whole *fold.Fold) {
	t.Helper()
	return shedSearchAppOf(t, n, true)
}

// shedSearchAppOf is shedSearchApp, without a reader unless readBack (a
// stream that is not a file).
func shedSearchAppOf(t *testing.T, n int, readBack bool) (d *threadsApp, whole *fold.Fold) {
	t.Helper()
	return shedSearchAppBudget(t, n, readBack, 0)
}

// shedSearchAppBudget is shedSearchAppOf with the screen's archive budget
// (AppOptions.ArchiveBudget).
func shedSearchAppBudget(t *testing.T, n int, readBack bool, budget int) (d *threadsApp, whole *fold.Fold) {
	t.Helper()
	recs, err := sources.ReadAll(strings.NewReader(turnsLog(n)))
	if err != nil {
		t.Fatal(err)
	}
	whole = fold.New(fold.Options{})
	whole.Apply(recs...)
	reader := fakeReader{
		items: func(w window.ItemsWanted) (window.ItemsRead, error) {
			var got window.ItemsRead
			for _, it := range whole.Items() {
				if w.Step >= 0 && it.Step == w.Step || w.Step < 0 && it.Seq >= w.From && it.Seq < w.To {
					got.Items = append(got.Items, it)
				}
			}
			return got, nil
		},
		step: func(_ string, index int, _ string) (*model.Step, error) {
			c := *whole.Steps()[index]
			return &c, nil
		},
	}
	opts := window.Options{Reader: readFrom(reader), Keep: shedSearchKeep}
	if !readBack {
		opts.Reader = nil
	}
	d = newThreadsApp(t, 160, 48, AppOptions{Window: opts, ArchiveBudget: budget})
	for i := 0; i < len(recs); i += 150 {
		d.feed(t, model.Batch{Source: "log", Records: recs[i:min(i+150, len(recs))]})
	}
	if d.fold.Shedded().Items < n {
		t.Fatalf("the screen shed %d items of %d", d.fold.Shedded().Items, whole.ItemsMade())
	}
	return d, whole
}

// typeSearch types / and then query, faster than the search of each
// letter comes back (only the last letter's commands run), and runs the
// commands they ask for until they are done (settle).
func (d *threadsApp) typeSearch(query string) {
	d.openSearch()
	var cmd tea.Cmd
	for _, k := range strings.Split(query, "") {
		_, cmd = d.Update(keyPress(k))
	}
	settle(d.App, cmd)
}

// openSearch presses / with a cursor that does not blink: a key then asks
// for no tick.
func (a *App) openSearch() {
	a.Update(keyPress("/"))
	st := a.search.input.Styles()
	st.Cursor.Blink = false
	a.search.input.SetStyles(st)
}

// settle runs cmd as the program would and hands what it brings to a,
// then the commands a answers with, until there are none. Only the
// search's and the window's messages are handed on: a command that does
// not answer at once (a tick) is left running.
func settle(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	got := make(chan tea.Msg, 1)
	go func() { got <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-got:
	case <-time.After(200 * time.Millisecond):
		return // a tick
	}
	switch m := msg.(type) {
	case tea.BatchMsg:
		for _, c := range m {
			settle(a, c)
		}
	case searchFirstMsg, searchCountMsg, window.ItemsReadMsg, window.StepReadMsg:
		_, next := a.Update(m)
		settle(a, next)
	}
}

// A search of a thread whose items were shed finds what was let go as a
// fold that kept everything does, counts every match, and going to a
// match in a shed message reads it back and puts the cursor on it; a
// match in a shed step's output selects the step.
func TestSearchFindsShedItems(t *testing.T) {
	const n = 400
	d, whole := shedSearchApp(t, n)

	// A word of one message, long shed: the cursor goes to it.
	d.typeSearch("kiwi0007")
	want := search.Find(whole.Items(), whole.Steps(), search.NewMatcher("kiwi0007"), nil)
	if len(want) != 1 || len(d.search.hits) != 1 || d.search.hits[0] != want[0] {
		t.Fatalf("kiwi0007: hits %v, want %v", d.search.hits, want)
	}
	if seq, ok := d.transcript.CursorItem(); !ok || seq != want[0].Seq {
		t.Fatalf("the cursor is on item %d (%v), want the shed message %d", seq, ok, want[0].Seq)
	}
	if !strings.Contains(d.plain(), "turn 7 looks at kiwi0007") || !strings.Contains(d.searchLineText(), "match 1 of 1") {
		t.Errorf("the message is not on screen, or the line says %q:\n%s", d.searchLineText(), d.plain())
	}

	// A word of every tenth message: the keystroke goes back before the
	// count, which fills in after; counted as the whole fold counts it.
	d.press("esc")
	d.press("end")
	d.openSearch()
	d.press(strings.Split("kiwi0", "")...)
	_, cmd := d.Update(keyPress("0"))
	if line := d.searchLineText(); !d.search.shed.counting || !strings.Contains(line, "searching…") {
		t.Errorf("before its commands ran, the keystroke's search line says %q", line)
	}
	settle(d.App, cmd)
	want = search.Find(whole.Items(), whole.Steps(), search.NewMatcher("kiwi00"), nil)
	if len(d.search.hits) != len(want) {
		t.Fatalf("kiwi00: %d matches, want %d", len(d.search.hits), len(want))
	}
	for i := range want {
		if d.search.hits[i] != want[i] {
			t.Fatalf("match %d is %v, want %v", i, d.search.hits[i], want[i])
		}
	}
	if !strings.Contains(d.searchLineText(), "match 1 of 100") {
		t.Errorf("after wrapping to the top the line says %q", d.searchLineText())
	}

	// The output of a shed step: the step is selected.
	d.press("esc")
	d.typeSearch("papaya0012")
	if len(d.search.hits) != 1 || d.search.hits[0].Step != 12 || d.selected != 12 {
		t.Fatalf("papaya0012: hits %v, step %d selected", d.search.hits, d.selected)
	}
}

// searchLineText is the line that says what the search and filter are.
func (d *threadsApp) searchLineText() string {
	lines := strings.Split(d.plain(), "\n")
	return lines[len(lines)-2]
}

// A screen told to keep no archive (a server's viewer) keeps none, finds
// what it keeps, and says how many older items it does not search.
func TestSearchWithoutArchive(t *testing.T) {
	const n = 3000
	d, whole := shedSearchAppBudget(t, n, true, -1)
	if ar := d.archive(); ar != nil {
		_, kept := ar.Cost()
		t.Fatalf("the screen keeps an archive of %d bytes", kept)
	}
	d.typeSearch("kiwi0007")
	if len(d.search.hits) != 0 || !strings.Contains(d.searchLineText(), fmt.Sprintf("the oldest %s items not searched", thousands(d.fold.Shedded().Items))) {
		t.Errorf("a word of a shed item: hits %v, line %q", d.search.hits, d.searchLineText())
	}
	d.press("esc")
	word := fmt.Sprintf("kiwi%04d", n-1)
	d.typeSearch(word)
	want := search.Find(whole.Items(), whole.Steps(), search.NewMatcher(word), nil)
	if len(want) != 1 || len(d.search.hits) != 1 || d.search.hits[0] != want[0] {
		t.Errorf("a word of an item kept: hits %v, want %v", d.search.hits, want)
	}
}

// What the archives keep is bounded: past the budget the oldest blocks go,
// a search no longer finds what they held, and the search line says how
// many items it does not search.
func TestSearchArchiveBudget(t *testing.T) {
	defer func(b int) { archiveBudget = b }(archiveBudget)
	archiveBudget = 1 // one block stays
	const n = 3000
	d, whole := shedSearchApp(t, n)
	if _, kept := d.archive().Cost(); kept > 200<<10 {
		t.Errorf("the archive keeps %d bytes over its budget", kept)
	}
	d.typeSearch("kiwi0007")
	if len(d.search.hits) != 0 || !strings.Contains(d.searchLineText(), "no match") ||
		!strings.Contains(d.searchLineText(), "items not searched") {
		t.Errorf("a word of a block let go: hits %v, line %q", d.search.hits, d.searchLineText())
	}
	d.press("esc")
	d.typeSearch(fmt.Sprintf("kiwi%04d", n-200))
	want := search.Find(whole.Items(), whole.Steps(), search.NewMatcher(fmt.Sprintf("kiwi%04d", n-200)), nil)
	if len(want) != 1 || len(d.search.hits) != 1 || d.search.hits[0] != want[0] {
		t.Errorf("a word of the newest block: hits %v, want %v", d.search.hits, want)
	}
}

// n and N go through every match in order while the count still runs,
// not only through the matches counted yet.
func TestSearchNextWhileCounting(t *testing.T) {
	d, whole := shedSearchApp(t, 400)
	want := search.Find(whole.Items(), whole.Steps(), search.NewMatcher("kiwi00"), nil)
	d.openSearch()
	d.press(strings.Split("kiwi0", "")...)
	_, cmd := d.Update(keyPress("0"))
	settleFirstOnly(d.App, cmd)
	d.press("enter")
	if !d.search.shed.counting || d.search.curHit() != want[0] {
		t.Fatalf("counting %v, at %v, want the count under way and %v", d.search.shed.counting, d.search.curHit(), want[0])
	}
	for i := 1; i <= len(want); i++ {
		d.press("n")
		if got := d.search.curHit(); got != want[i%len(want)] {
			t.Fatalf("n %d times went to %v, want %v", i, got, want[i%len(want)])
		}
	}
	for i := len(want) - 1; i >= 0; i-- {
		d.press("N")
		if got := d.search.curHit(); got != want[i] {
			t.Fatalf("N back to match %d went to %v, want %v", i+1, got, want[i])
		}
	}
}

// settleFirstOnly is settle, but the count's messages are dropped: the
// count stays under way.
func settleFirstOnly(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			settleFirstOnly(a, c)
		}
	case searchFirstMsg:
		_, next := a.Update(m)
		settleFirstOnly(a, next)
	}
}

// A match in a stream that is not a file is found too, but its item is
// gone: the search goes to the gap row where it was, which says why.
func TestSearchShedInStream(t *testing.T) {
	d, whole := shedSearchAppOf(t, 400, false)
	d.typeSearch("kiwi0007")
	want := search.Find(whole.Items(), whole.Steps(), search.NewMatcher("kiwi0007"), nil)
	if len(d.search.hits) != 1 || d.search.hits[0] != want[0] {
		t.Fatalf("hits %v, want %v", d.search.hits, want)
	}
	seq, _ := d.transcript.CursorItem()
	if !d.gapAt(seq) || seq > want[0].Seq {
		t.Errorf("the cursor is on item %d, want the gap row before %d", seq, want[0].Seq)
	}
	if !strings.Contains(d.plain(), "is not a file") {
		t.Errorf("the gap row does not say why:\n%s", d.plain())
	}
}

// A filter in force leaves out the archive's matches in steps it hides,
// as it does the kept ones.
func TestSearchShedUnderFilter(t *testing.T) {
	d, _ := shedSearchApp(t, 400)
	d.press("f")
	for _, k := range strings.Split("read", "") {
		d.press(k)
	}
	d.press("enter")
	if !d.filtering() {
		t.Fatal("the filter is not in force")
	}
	d.typeSearch("papaya0012")
	if len(d.search.hits) != 0 {
		t.Errorf("a step the filter hides matched: %v", d.search.hits)
	}
	d.press("esc", "esc")
	d.typeSearch("papaya0012")
	if len(d.search.hits) != 1 {
		t.Errorf("without the filter: hits %v", d.search.hits)
	}
}

// A thread whose items were shed before its archive began (taken up where
// the last screen left off) does not find them, and the search line says
// how many items it does not search.
func TestSearchSaysWhatItDoesNotSearch(t *testing.T) {
	recs, err := sources.ReadAll(strings.NewReader(turnsLog(400)))
	if err != nil {
		t.Fatal(err)
	}
	d := newThreadsApp(t, 160, 48, AppOptions{Window: window.Options{Keep: shedSearchKeep}})
	d.feed(t, model.Batch{Source: "log", Records: recs[:300]}) // too few items to trim
	d.fold.Trim(fold.Keep{Items: 10})                          // as the screen before this one did
	shedBefore := d.fold.Shedded().Items
	if shedBefore == 0 {
		t.Fatal("nothing was shed")
	}
	for i := 300; i < len(recs); i += 150 {
		d.feed(t, model.Batch{Source: "log", Records: recs[i:min(i+150, len(recs))]})
	}
	d.typeSearch("kiwi0007")
	if len(d.search.hits) != 0 || !strings.Contains(d.searchLineText(), fmt.Sprintf("the oldest %d items not searched", shedBefore)) {
		t.Errorf("hits %v, line %q", d.search.hits, d.searchLineText())
	}
	d.press("esc")
	d.typeSearch("kiwi0300")
	if len(d.search.hits) != 1 {
		t.Errorf("an item shed since: hits %v", d.search.hits)
	}
}
