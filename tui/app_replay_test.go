package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/tui/computer"
)

// stillClock is a clock the test moves by hand.
type stillClock struct{ now time.Time }

func (c *stillClock) Now() time.Time { return c.now }
func (c *stillClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- c.now.Add(d)
	return ch
}

func newReplayTestApp(t *testing.T, w, h int) (*App, *replay.Player, *stillClock) {
	t.Helper()
	recs := replay.Slice(demoRecords(t))
	tl, err := replay.BuildTimeline(recs, fold.Options{}, 64)
	if err != nil {
		t.Fatal(err)
	}
	clk := &stillClock{now: time.UnixMilli(1_700_000_000_000)}
	p := replay.NewPlayer(recs, tl, replay.NewSchedule(recs, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap}), replay.PlayerOptions{Clock: clk})
	a := NewReplayApp(p, AppOptions{Title: "demo"})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a, p, clk
}

func (a *App) pressAll(keys ...string) {
	for _, k := range keys {
		a.Update(keyPress(k))
	}
}

// The replay keys move the player and the screen shows where it is.
func TestReplayKeys(t *testing.T) {
	a, p, clk := newReplayTestApp(t, 160, 48)
	a.pressAll("5")
	mid := p.Pos()
	if mid <= 0 || mid >= p.Len() || len(a.fold.Steps()) == 0 {
		t.Fatalf("5: pos %d of %d, %d steps; want the middle of the demo", mid, p.Len(), len(a.fold.Steps()))
	}
	if got := ansi.Strip(a.View().Content); !strings.Contains(got, fmt.Sprintf("%d/%d", mid, p.Len())) {
		t.Fatalf("the replay bar does not show %d/%d:\n%s", mid, p.Len(), got)
	}
	a.pressAll(".", ".", ",")
	if p.Pos() != mid+1 {
		t.Fatalf(". . ,: pos %d, want %d", p.Pos(), mid+1)
	}
	steps := len(a.fold.Steps())
	a.pressAll("right")
	if len(a.fold.Steps()) != steps+1 || a.selected != steps {
		t.Fatalf("→: %d steps (selected %d), want %d with the newest selected", len(a.fold.Steps()), a.selected, steps+1)
	}
	a.pressAll("left", "left")
	if len(a.fold.Steps()) != steps-1 {
		t.Fatalf("← ←: %d steps, want %d", len(a.fold.Steps()), steps-1)
	}
	a.pressAll("+")
	if p.Speed() != 2 || !strings.Contains(ansi.Strip(a.View().Content), "2×  ") {
		t.Fatalf("+: speed %v, or the bar does not show it", p.Speed())
	}
	a.pressAll("-", "-")
	if p.Speed() != 0.5 {
		t.Fatalf("- -: speed %v", p.Speed())
	}
	a.pressAll("home")
	if p.Pos() != 0 || len(a.fold.Steps()) != 0 {
		t.Fatalf("Home: pos %d, %d steps", p.Pos(), len(a.fold.Steps()))
	}
	a.pressAll("end")
	if p.Pos() != p.Len() {
		t.Fatalf("End: pos %d of %d", p.Pos(), p.Len())
	}
	// space plays from the start again; a tick after time passes plays on.
	a.pressAll("home", "space")
	if !p.Playing() {
		t.Fatal("space did not play")
	}
	clk.now = clk.now.Add(10 * time.Second)
	a.Update(replayTickMsg{gen: a.rp().gen})
	if p.Pos() == 0 {
		t.Fatal("a tick 10 s later played nothing")
	}
	a.pressAll("space")
	if p.Playing() {
		t.Fatal("space did not pause")
	}
	stale := a.rp().gen - 1
	before := p.Pos()
	clk.now = clk.now.Add(time.Minute)
	a.Update(replayTickMsg{gen: stale})
	if p.Pos() != before {
		t.Fatal("a stale tick moved the player")
	}
}

// A click on the replay bar seeks to that time; a chip click to its step.
func TestReplayClicks(t *testing.T) {
	a, p, _ := newReplayTestApp(t, 160, 48)
	a.pressAll("end")
	a.View()
	g := a.geo.replayBar
	if g.w == 0 {
		t.Fatal("no replay bar drawn")
	}
	from, to := a.geo.replayBarView.TrackFrom, a.geo.replayBarView.TrackTo
	a.Update(tea.MouseClickMsg{X: g.x + from + (to-from)/2, Y: g.y, Button: tea.MouseLeft})
	half := p.Elapsed()
	if d := half - p.Total()/2; d < -p.Total()/20 || d > p.Total()/20 {
		t.Fatalf("click in the middle of the track: at %v of %v", half, p.Total())
	}
	a.Update(tea.MouseReleaseMsg{})
	a.View()
	tl := a.geo.timelineView
	for col := 0; col < a.geo.timeline.w; col++ {
		if h := tl.HitAt(computer.TimelineChips, col); h.Kind == computer.HitChip && h.Step < len(a.fold.Steps())-1 {
			a.Update(tea.MouseClickMsg{X: a.geo.timeline.x + col, Y: a.geo.timeline.y + computer.TimelineChips, Button: tea.MouseLeft})
			if n := len(a.fold.Steps()); n != h.Step+1 {
				t.Fatalf("click on the chip of step %d: %d steps shown, want %d", h.Step+1, n, h.Step+1)
			}
			return
		}
	}
	t.Fatal("no chip of an earlier step on the timeline")
}

func TestReplayGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		name := fmt.Sprintf("replay_%dx%d", sz[0], sz[1])
		t.Run(name, func(t *testing.T) {
			a, _, _ := newReplayTestApp(t, sz[0], sz[1])
			a.pressAll("4", ".", "+")
			readBackAll(t, a) // what the player shed, as the screen asks for it
			got := a.View().Content
			checkScreen(t, strings.Split(got, "\n"), sz[0], sz[1])
			golden.RequireEqual(t, got)
		})
	}
}

func TestReplayBar(t *testing.T) {
	s := computer.ReplayState{Playing: true, Speed: 0.25, Elapsed: 30 * time.Second, Total: 2 * time.Minute, Pos: 10, Len: 40,
		Steps: []time.Duration{10 * time.Second, 60 * time.Second}, Runs: []time.Duration{0, 90 * time.Second}}
	v := computer.ReplayBar(s, 60)
	got := ansi.Strip(v.Line)
	for _, want := range []string{"▶ 0.25×", "0:30 / 2:00", "10/40", "●", "┃", "·"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar %q lacks %q", got, want)
		}
	}
	if ansi.StringWidth(v.Line) != 60 {
		t.Errorf("bar is %d cells, want 60", ansi.StringWidth(v.Line))
	}
	if d := v.TimeAt(v.TrackFrom, s.Total); d != 0 {
		t.Errorf("start of track = %v", d)
	}
	if d := v.TimeAt(v.TrackTo+5, s.Total); d != s.Total {
		t.Errorf("past the end of track = %v", d)
	}
	narrow := computer.ReplayBar(s, 20)
	if ansi.StringWidth(narrow.Line) != 20 || narrow.TrackTo != 0 {
		t.Errorf("narrow bar: %q track %d–%d", ansi.Strip(narrow.Line), narrow.TrackFrom, narrow.TrackTo)
	}
}
