package tui

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/computer"
)

func demoRecords(t testing.TB) []model.Record {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// fedApp is an App fed through its pump from ch, as the program feeds it.
type fedApp[T any] struct {
	*App
	ch   chan T
	next tea.Cmd // the pump, issued again after the last message
}

// close ends the input: a saved log read to its end.
func (d *fedApp[T]) close(t testing.TB) {
	t.Helper()
	close(d.ch)
	msg := d.next()
	if _, ok := msg.(recordsDoneMsg); !ok {
		t.Fatalf("the pump after close gave %T, want recordsDoneMsg", msg)
	}
	d.Update(msg)
}

func (d *fedApp[T]) press(keys ...string) {
	for _, k := range keys {
		d.Update(keyPress(k))
	}
}

// demoApp is an App that has received the whole demo in one batch, at
// w×h; with closed the channel has closed too (a saved log).
type demoApp struct {
	fedApp[[]model.Record]
}

func newDemoApp(t testing.TB, w, h int, closed bool, opts AppOptions) *demoApp {
	t.Helper()
	ch := make(chan []model.Record, 1)
	ch <- demoRecords(t)
	a := NewApp(fold.New(fold.Options{}), ch, opts)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	msg := a.Init()()
	if _, ok := msg.(recordsMsg); !ok {
		t.Fatalf("first pump message is %T, want recordsMsg", msg)
	}
	_, next := a.Update(msg)
	d := &demoApp{fedApp[[]model.Record]{App: a, ch: ch, next: next}}
	if closed {
		d.close(t)
	}
	return d
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if len(k) > 5 && k[:5] == "ctrl+" {
		return tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func (d *demoApp) screen() []string { return strings.Split(d.View().Content, "\n") }

func (d *demoApp) plain() string { return ansi.Strip(d.View().Content) }

func checkScreen(t *testing.T, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, n, w, l)
		}
	}
}

func TestAppGolden(t *testing.T) {
	type goldenCase struct {
		name   string
		w, h   int
		closed bool
		keys   []string
		layout string
	}
	cases := []goldenCase{
		{"side_live_160x48", 160, 48, false, nil, ""},
		{"side_back_160x48", 160, 48, false, []string{"left", "left"}, ""},
		{"sheet_100x30", 100, 30, true, nil, ""},
	}
	// The first step of each category, for a golden of its panel view.
	demoFold := fold.New(fold.Options{})
	demoFold.Apply(demoRecords(t)...)
	firstOf := map[model.Category]int{}
	for i, s := range demoFold.Steps() {
		if _, seen := firstOf[s.Category]; !seen {
			firstOf[s.Category] = i
		}
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		suffix := fmt.Sprintf("_%dx%d", sz[0], sz[1])
		for _, cat := range model.Categories {
			i, ok := firstOf[cat]
			if !ok {
				t.Fatalf("the demo has no %s step", cat)
			}
			keys := []string{"home"}
			for range i {
				keys = append(keys, "right")
			}
			cases = append(cases, goldenCase{"step_" + string(cat) + suffix, sz[0], sz[1], true, keys, ""})
		}
		cases = append(cases,
			goldenCase{"live" + suffix, sz[0], sz[1], false, nil, ""},
			goldenCase{"back" + suffix, sz[0], sz[1], false, []string{"left", "left"}, ""},
			goldenCase{"sheet" + suffix, sz[0], sz[1], true, nil, LayoutSheet},
			goldenCase{"help" + suffix, sz[0], sz[1], false, []string{"?"}, ""},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDemoApp(t, c.w, c.h, c.closed, AppOptions{Title: "demo", Layout: c.layout})
			d.press(c.keys...)
			got := d.View().Content
			checkScreen(t, strings.Split(got, "\n"), c.w, c.h)
			golden.RequireEqual(t, got)
		})
	}
}

// send gives the App records through its open channel, as the pump would.
func (d *demoApp) send(t testing.TB, recs []model.Record) {
	t.Helper()
	d.ch <- recs
	msg := d.next()
	if _, ok := msg.(recordsMsg); !ok {
		t.Fatalf("pump gives %T, want recordsMsg", msg)
	}
	_, d.next = d.Update(msg)
}

func TestAppFollowsLive(t *testing.T) {
	d := newDemoApp(t, 160, 48, false, AppOptions{})
	n := len(d.fold.Steps())
	if n < 2 {
		t.Fatalf("demo has %d steps", n)
	}
	if d.selected != n-1 || !d.following {
		t.Fatalf("selected %d following %v, want %d true", d.selected, d.following, n-1)
	}
	// Every run of the demo has finished: the source can bring more, but
	// nothing is live.
	if s := d.plain(); strings.Contains(s, "LIVE") || !strings.Contains(s, "◌ watching") {
		t.Errorf("a source whose runs all finished is not shown as watching:\n%s", s)
	}
	// A new run starts: live again.
	recs, err := sources.ReadAll(strings.NewReader(`{"type":"RUN_STARTED","threadId":"82397c72-6035-488c-98cd-14bf01fc91c2","runId":"r-more"}`))
	if err != nil {
		t.Fatal(err)
	}
	d.send(t, recs)
	if !strings.Contains(d.plain(), "● LIVE") {
		t.Error("no ● LIVE while a run is open and the channel is open")
	}

	d.press("left")
	if d.selected != n-2 || d.following {
		t.Errorf("after ←: selected %d following %v, want %d false", d.selected, d.following, n-2)
	}
	if !strings.Contains(d.plain(), "Back to live") {
		t.Error("no Back to live after ←")
	}
	d.press("h", "right")
	if d.selected != n-2 || d.following {
		t.Errorf("after h →: selected %d following %v", d.selected, d.following)
	}
	d.press("l")
	if d.selected != n-1 || d.following {
		t.Errorf("after l: selected %d following %v, want the last without following", d.selected, d.following)
	}
	d.press("home")
	if d.selected != 0 {
		t.Errorf("after Home: selected %d", d.selected)
	}
	d.press("L")
	if d.selected != n-1 || !d.following || !strings.Contains(d.plain(), "● LIVE") {
		t.Errorf("after L: selected %d following %v", d.selected, d.following)
	}
	d.press("left", "end")
	if d.selected != n-1 || !d.following {
		t.Errorf("after End: selected %d following %v", d.selected, d.following)
	}

	d.close(t)
	if s := d.plain(); strings.Contains(s, "LIVE") || strings.Contains(s, "Back to live") {
		t.Error("LIVE or Back to live shown after the channel closed")
	}
	if d.selected != n-1 {
		t.Errorf("after close: selected %d", d.selected)
	}
}

func TestAppNewStepsWhileReviewing(t *testing.T) {
	recs := demoRecords(t)
	ch := make(chan []model.Record, 2)
	half := len(recs) / 2
	ch <- recs[:half]
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, next := a.Update(a.Init()())
	a.Update(keyPress("left"))
	sel := a.selected
	ch <- recs[half:]
	a.Update(next())
	if a.selected != sel {
		t.Errorf("reviewing step %d, new records moved it to %d", sel, a.selected)
	}
	a.Update(keyPress("L"))
	if a.selected != len(a.fold.Steps())-1 {
		t.Errorf("L selected %d of %d", a.selected, len(a.fold.Steps()))
	}
}

func TestAppLayoutSwitch(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	if !d.sideBySide() {
		t.Fatal("160 columns is not side by side")
	}
	side := d.screen()
	d.press("v")
	if d.sideBySide() {
		t.Fatal("v kept side by side")
	}
	sheet := d.screen()
	checkScreen(t, sheet, 160, 48)
	if strings.Join(side, "\n") == strings.Join(sheet, "\n") {
		t.Error("v did not change the screen")
	}
	d.press("v")
	if !d.sideBySide() {
		t.Error("v twice is not side by side again")
	}

	s := newDemoApp(t, 100, 30, true, AppOptions{Layout: LayoutSide})
	if !s.sideBySide() {
		t.Error("Layout side at 100 columns is not side by side")
	}
	s = newDemoApp(t, 200, 30, true, AppOptions{Layout: LayoutSheet})
	if s.sideBySide() {
		t.Error("Layout sheet at 200 columns is side by side")
	}
}

func TestAppSizes(t *testing.T) {
	for _, sz := range [][2]int{{60, 20}, {120, 40}, {300, 100}, {1, 1}, {20, 4}, {119, 7}} {
		for _, closed := range []bool{false, true} {
			d := newDemoApp(t, sz[0], sz[1], closed, AppOptions{Title: "demo"})
			checkScreen(t, d.screen(), sz[0], sz[1])
			d.press("left", "v", "tab")
			checkScreen(t, d.screen(), sz[0], sz[1])
		}
	}
	// Before any record: the waiting line.
	ch := make(chan []model.Record)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := strings.Split(a.View().Content, "\n")
	checkScreen(t, lines, 80, 24)
	if !strings.Contains(ansi.Strip(a.View().Content), appWaiting) {
		t.Error("no waiting line before the first step")
	}
}

func TestAppResizeKeepsStep(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	d.press("left", "left", "left")
	sel := d.selected
	d.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
	d.View()
	if d.selected != sel {
		t.Errorf("resize moved the selection from %d to %d", sel, d.selected)
	}
}

func TestAppClickChip(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {100, 30}} {
		d := newDemoApp(t, sz[0], sz[1], false, AppOptions{})
		d.View()
		g := d.geo
		row := g.timeline.y + computer.TimelineChips
		target := -1
		for col := 0; col < g.timeline.w; col++ {
			h := g.timelineView.HitAt(computer.TimelineChips, col)
			if h.Kind == computer.HitChip && h.Step != d.selected {
				target = h.Step
				d.Update(tea.MouseClickMsg{X: g.timeline.x + col, Y: row, Button: tea.MouseLeft})
				break
			}
		}
		if target < 0 {
			t.Fatalf("%v: no chip of another step on screen", sz)
		}
		if d.selected != target || d.following {
			t.Errorf("%v: click on the chip of step %d selected %d (following %v)", sz, target, d.selected, d.following)
		}
		// The live button resumes.
		d.View()
		g = d.geo
		for col := 0; col < g.timeline.w; col++ {
			if g.timelineView.HitAt(computer.TimelineControls, col).Kind == computer.HitLive {
				d.Update(tea.MouseClickMsg{X: g.timeline.x + col, Y: g.timeline.y + computer.TimelineControls, Button: tea.MouseLeft})
				break
			}
		}
		if !d.following || d.selected != len(d.fold.Steps())-1 {
			t.Errorf("%v: click on back to live: selected %d following %v", sz, d.selected, d.following)
		}
	}
}

func TestAppClickTranscriptStep(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	d.View()
	g := d.geo
	for row := 0; row < g.transcript.h; row++ {
		seq, ok := d.transcript.ItemAt(row)
		if !ok {
			continue
		}
		it := d.itemBySeq(seq)
		if it == nil || it.Kind != model.ItemToolCall || it.Step < 0 || it.Step == d.selected {
			continue
		}
		d.Update(tea.MouseClickMsg{X: g.transcript.x + 2, Y: g.transcript.y + row, Button: tea.MouseLeft})
		if d.selected != it.Step {
			t.Errorf("click on the row of step %d selected %d", it.Step, d.selected)
		}
		return
	}
	t.Skip("no tool call row of another step on screen")
}

func TestAppPlay(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	n := len(d.fold.Steps())
	d.press("home")
	_, cmd := d.Update(keyPress("space"))
	if !d.playing || cmd == nil {
		t.Fatal("space did not start play")
	}
	for i := 1; i < n; i++ {
		_, cmd = d.Update(playTickMsg{gen: d.playGen})
		if d.selected != i {
			t.Fatalf("tick %d selected %d", i, d.selected)
		}
	}
	if d.playing || cmd != nil {
		t.Error("play did not stop at the last step")
	}
	// A stale tick does nothing.
	d.press("home", "space", "space")
	d.Update(playTickMsg{gen: d.playGen - 1})
	if d.selected != 0 {
		t.Errorf("a tick after pause moved to %d", d.selected)
	}
}

func TestAppScrollAndQuit(t *testing.T) {
	d := newDemoApp(t, 100, 30, true, AppOptions{})
	d.View()
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.View() // wheel notches apply at the next frame
	if d.transcript.Following() {
		t.Error("wheel up kept following")
	}
	for range 1000 {
		d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	d.View()
	if !d.transcript.Following() {
		t.Error("wheel down to the bottom did not follow again")
	}
	_, cmd := d.Update(keyPress("q"))
	if cmd == nil {
		t.Fatal("q gave no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
	_, cmd = d.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+c gave no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("ctrl+c does not quit")
	}
}

// TestAppProgram runs the App in a real Program, fed through a pipe as a
// terminal feeds it, to the first frame, and quits with q.
func TestAppProgram(t *testing.T) {
	ch := make(chan []model.Record, 1)
	ch <- demoRecords(t)
	close(ch)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{Title: "demo"})
	out := &syncbuf.Buffer{}
	inR, inW := io.Pipe()
	defer inW.Close()
	p, done := startProgram(a, 120, 40, tea.WithInput(inR), tea.WithOutput(out), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	deadline := time.Now().Add(5 * time.Second)
	for !out.Contains("agent computer") {
		if time.Now().After(deadline) {
			p.Kill()
			t.Fatalf("no first frame after 5 s; output %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.Send(keyPress("q"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		p.Kill()
		t.Fatal("q did not end the program")
	}
}

func TestAppHelp(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {60, 20}, {20, 4}, {1, 1}} {
		d := newDemoApp(t, sz[0], sz[1], false, AppOptions{})
		sel := d.selected
		d.press("?")
		if !d.help {
			t.Fatalf("%v: ? did not open help", sz)
		}
		checkScreen(t, d.screen(), sz[0], sz[1])
		if sz[0] >= 60 {
			// Every page of the help, scrolled with ↓ where it does not fit.
			s := d.plain()
			for range 60 {
				d.press("down")
				s += d.plain()
			}
			for _, want := range []string{"Keys · live", "h/l", "Home", "End / L", "space", "tab", "Enter", "[ / ]", "PgUp/PgDn", "drag", "wheel", "quit"} {
				if !strings.Contains(s, want) {
					t.Errorf("%v: help lacks %q", sz, want)
				}
			}
		}
		// Keys other than Esc, ? and q do nothing while it is open.
		d.press("left", "c")
		if d.selected != sel || d.hidePanel {
			t.Errorf("%v: keys acted under the help overlay", sz)
		}
		d.press("esc")
		if d.help {
			t.Errorf("%v: Esc did not close help", sz)
		}
		d.press("?", "?")
		if d.help {
			t.Errorf("%v: ? did not close help", sz)
		}
		if sz[0] >= 60 && strings.Contains(d.plain(), "PgUp/PgDn") {
			t.Errorf("%v: help still drawn after closing", sz)
		}
	}
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	d.press("?")
	_, cmd := d.Update(keyPress("q"))
	if cmd == nil {
		t.Fatal("q under help gave no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q under help does not quit")
	}
}

func TestAppHidePanel(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {80, 24}} {
		d := newDemoApp(t, sz[0], sz[1], true, AppOptions{})
		d.press("c")
		if !d.hidePanel {
			t.Fatalf("%v: c did not hide the panel", sz)
		}
		checkScreen(t, d.screen(), sz[0], sz[1])
		if strings.Contains(d.plain(), "agent computer") {
			t.Errorf("%v: panel drawn while hidden", sz)
		}
		if d.geo.transcript.w != sz[0] || d.geo.transcript.h != sz[1]-2 {
			t.Errorf("%v: hidden panel leaves the transcript %dx%d", sz, d.geo.transcript.w, d.geo.transcript.h)
		}
		d.press("tab")
		if d.focus != focusTranscript {
			t.Errorf("%v: tab focused the hidden panel", sz)
		}
		d.press("c")
		if d.hidePanel || !strings.Contains(d.plain(), "agent computer") {
			t.Errorf("%v: c again did not show the panel", sz)
		}
	}
}

func TestAppRuns(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	steps := d.fold.Steps()
	var order []int // first step of each run with steps, in run order
	for _, r := range d.fold.Runs() {
		for i, s := range steps {
			if s.RunID == r.RunID {
				order = append(order, i)
				break
			}
		}
	}
	if len(order) < 2 {
		t.Fatalf("demo has %d runs with steps", len(order))
	}
	d.press("home")
	first := d.selected
	d.press("]")
	if d.selected == first && order[0] == first {
		if d.selected != order[1] {
			t.Errorf("] from the first run selected %d, want %d", d.selected, order[1])
		}
	}
	if d.following {
		t.Error("] kept following")
	}
	// From the last step, [ walks back through the runs' first steps.
	d.press("end")
	cur := -1
	for i, r := range d.fold.Runs() {
		if r.RunID == steps[d.selected].RunID {
			cur = i
		}
	}
	if cur < 0 {
		t.Fatal("last step's run not among the runs")
	}
	d.press("[")
	// the run before the last step's run, with steps
	wantPrev := -1
	for i := cur - 1; i >= 0; i-- {
		for j, s := range steps {
			if s.RunID == d.fold.Runs()[i].RunID {
				wantPrev = j
				break
			}
		}
		if wantPrev >= 0 {
			break
		}
	}
	if wantPrev >= 0 && d.selected != wantPrev {
		t.Errorf("[ selected %d, want %d", d.selected, wantPrev)
	}
	for range 10 {
		d.press("[")
	}
	if d.selected != order[0] {
		t.Errorf("[ many times selected %d, want the first run's first step %d", d.selected, order[0])
	}
	for range 10 {
		d.press("]")
	}
	if d.selected != order[len(order)-1] {
		t.Errorf("] many times selected %d, want the last run's first step %d", d.selected, order[len(order)-1])
	}
}

// Enter opens the row under the transcript's cursor: the step of a tool
// call row, shown in the computer; on the panel it keeps the step.
func TestAppEnterOpens(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	d.press("c", "home")
	if d.selected != 0 {
		t.Fatalf("home selected %d", d.selected)
	}
	d.press("j") // off the row of step 0, onto the row below it
	moved, _ := d.transcript.CursorStep()
	d.press("enter")
	if d.hidePanel {
		t.Error("Enter did not show the panel")
	}
	if d.selected != moved {
		t.Errorf("Enter selected %d, want the step under the cursor %d", d.selected, moved)
	}
	// Focus on the panel: Enter keeps the current step.
	d.press("tab", "home", "enter")
	if d.focus != focusPanel || d.selected != 0 {
		t.Errorf("Enter on the panel: focus %v selected %d", d.focus, d.selected)
	}
}

// Each wheel notch scrolls the transcript wheelRows rows, in Update: View
// only draws what Update laid out.
func TestAppWheelScrolls(t *testing.T) {
	a := newDemoApp(t, 160, 48, true, AppOptions{})
	b := newDemoApp(t, 160, 48, true, AppOptions{})
	for _, d := range []*demoApp{a, b} {
		d.transcript.ScrollBy(-200)
		d.relayout()
	}
	before := a.View().Content
	for range 10 {
		a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	b.transcript.ScrollBy(10 * wheelRows)
	b.relayout()
	got := a.View().Content
	if got == before {
		t.Fatal("10 wheel notches did not scroll")
	}
	if got != b.View().Content {
		t.Error("10 wheel notches did not scroll 10×wheelRows rows")
	}
	if a.View().Content != got {
		t.Error("a second View drew another screen")
	}
	for range 4 {
		a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	}
	b.transcript.ScrollBy(-4 * wheelRows)
	b.relayout()
	if a.View().Content != b.View().Content {
		t.Error("wheel notches up did not scroll as they add up")
	}
}

// A light terminal background switches the transcript's markdown to
// glamour's light style; a dark one keeps the dark style.
func TestAppBackgroundTheme(t *testing.T) {
	view := func(bg color.Color) string {
		recs := make(chan []model.Record, 1)
		recs <- demoRecords(t)
		close(recs)
		a := NewApp(fold.New(fold.Options{}), recs, AppOptions{})
		a.Update(a.Init()())
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if bg != nil {
			a.Update(tea.BackgroundColorMsg{Color: bg})
		}
		return a.View().Content
	}
	dark, light := view(nil), view(color.White)
	if dark == light {
		t.Fatal("a light background changed nothing")
	}
	if got := view(color.Black); got != dark {
		t.Fatal("a dark background is not the default look")
	}
}

// A click on a computer card in the transcript opens the computer at the
// card's step, even when the computer was hidden.
func TestAppCardClickOpensComputer(t *testing.T) {
	d := newDemoApp(t, 160, 48, true, AppOptions{})
	d.press("home", "c") // an older step selected, the computer hidden
	d.View()
	for row := 0; row < d.geo.transcript.h; row++ {
		step, ok := d.transcript.CardAt(row)
		if !ok {
			continue
		}
		d.Update(tea.MouseClickMsg{X: d.geo.transcript.x + 10, Y: d.geo.transcript.y + row, Button: tea.MouseLeft})
		if d.hidePanel || d.selected != step {
			t.Fatalf("after a click on the card: hidden %v, selected %d, want step %d", d.hidePanel, d.selected, step)
		}
		return
	}
	t.Fatal("no computer card on screen")
}

// The source's status shows in the transcript's title bar, made safe.
func TestAppSourceStatus(t *testing.T) {
	d := newDemoApp(t, 120, 40, false, AppOptions{Title: "run.jsonl"})
	d.Update(SourceStatusMsg("3 requests\x1b]0;x\x07"))
	top := ansi.Strip(strings.Split(d.View().Content, "\n")[0])
	if !strings.Contains(top, "run.jsonl · 3 requests") || strings.Contains(top, "\x1b]") {
		t.Fatalf("title bar %q", top)
	}
}
