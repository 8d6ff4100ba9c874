package tui

// These tests run the screen as agentwatch runs it, in a real program under
// the guard, and drive it as a person at a terminal does: keys and clicks
// arrive as the terminal's messages, in order, while the program draws. A
// crash shows as a failed test with its stack, as a person would have seen
// the crash page (the click in a mode whose state was nil was one).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
)

// screenWait is how long a screen test waits for the program.
const screenWait = 10 * time.Second

// onScreen is the program a screen test drives, and the screen inside it.
type onScreen struct {
	tm *teatest.TestModel
}

// askMsg runs ask on the program's own goroutine, between two messages,
// so that a test reads the screen's state (its layout, its selection) as
// the program has it, without a race; done closes after.
type askMsg struct {
	ask     func(*App)
	done    chan struct{}
	crashed *bool // set instead when the screen has crashed
}

// probe is the guarded screen with one message more: askMsg.
type probe struct{ g *Guarded }

func (p *probe) Init() tea.Cmd { return p.g.Init() }

func (p *probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(askMsg); ok {
		if *m.crashed = p.g.Crashed() != nil; !*m.crashed {
			m.ask(p.g.Inner().(*App))
		}
		close(m.done)
		return p, nil
	}
	_, cmd := p.g.Update(msg)
	return p, cmd
}

func (p *probe) View() tea.View { return p.g.View() }

// startScreen runs a in a program of w×h cells, on a terminal that says
// it is xterm-256color with true colour and answers no query, under the
// guard; a crash fails t with its stack.
func startScreen(t *testing.T, a *App, w, h int) *onScreen {
	t.Helper()
	g := Guard(a, func(c Crash) string {
		t.Errorf("the screen crashed during %s: %v\n%s", c.During, c.Value, c.Stack)
		return ""
	})
	tm := teatest.NewTestModel(t, &probe{g: g}, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithColorProfile(colorprofile.TrueColor)))
	return &onScreen{tm: tm}
}

// ask runs f on the program's goroutine and waits for it.
func (s *onScreen) ask(t *testing.T, f func(*App)) {
	t.Helper()
	done, crashed := make(chan struct{}), false
	s.tm.Send(askMsg{ask: f, done: done, crashed: &crashed})
	select {
	case <-done:
	case <-time.After(screenWait):
		t.Fatal("the program did not take a message")
	}
	if crashed {
		t.Fatal("the screen crashed (above)")
	}
}

// waitUntil waits until ready holds of the screen, as the program has it.
func (s *onScreen) waitUntil(t *testing.T, what string, ready func(*App) bool) {
	t.Helper()
	ok := false
	teatest.WaitFor(t, s.tm.Output(), func([]byte) bool {
		s.ask(t, func(a *App) { ok = ready(a) })
		return ok
	}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
	if !ok {
		t.Fatalf("the screen never got %s", what)
	}
}

// settle waits until the screen reads nothing back: what the player shed
// is read back as the screen asks for it, and a person clicks on what the
// screen shows once it is there.
func (s *onScreen) settle(t *testing.T) {
	t.Helper()
	s.waitUntil(t, "every read back", func(a *App) bool {
		return !strings.Contains(ansi.Strip(a.View().Content), "reading back")
	})
}

// press sends the keys, as typed.
func (s *onScreen) press(keys ...string) {
	for _, k := range keys {
		s.tm.Send(keyPress(k))
	}
}

// click presses and releases the left button on the cell x, y.
func (s *onScreen) click(x, y int) {
	s.tm.Send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	s.tm.Send(tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// quit presses q and returns the screen as the program left it.
func (s *onScreen) quit(t *testing.T) *App {
	t.Helper()
	s.press("q")
	m := s.tm.FinalModel(t, teatest.WithFinalTimeout(screenWait))
	return m.(*probe).g.Inner().(*App)
}

// chipAt is the cell of the timeline chip of a step that pick accepts, and
// that step; ok is false when no such chip is drawn.
func chipAt(a *App, pick func(step int) bool) (x, y, step int, ok bool) {
	g := a.geo
	for col := 0; col < g.timeline.w; col++ {
		if h := g.timelineView.HitAt(computer.TimelineChips, col); h.Kind == computer.HitChip && pick(h.Step) {
			return g.timeline.x + col, g.timeline.y + computer.TimelineChips, h.Step, true
		}
	}
	return 0, 0, 0, false
}

// reviewApp is the screen of the demo as a saved log: every record read,
// the file closed, on a clock that does not move.
func reviewApp(t *testing.T) *App {
	t.Helper()
	ch := make(chan []model.Record, 1)
	ch <- demoRecords(t)
	close(ch)
	still := time.UnixMilli(1_700_000_000_000)
	return NewApp(fold.New(fold.Options{}), ch, AppOptions{Title: "demo", Now: func() time.Time { return still }})
}

// readDemo waits until the screen has read the whole demo and drawn it.
func (s *onScreen) readDemo(t *testing.T) {
	t.Helper()
	s.waitUntil(t, "the whole demo", func(a *App) bool {
		return a.done && len(a.fold.Steps()) > 0 && a.geo.timeline.w > 0
	})
}

// A click on a chip of the timeline selects that step, and the screen shows
// it: the step's panel, its chip marked, the transcript at its row.
func TestScreenClickChip(t *testing.T) {
	s := startScreen(t, reviewApp(t), 120, 40)
	s.readDemo(t)
	var x, y, target, before int
	found := false
	s.ask(t, func(a *App) {
		before = a.selected
		x, y, target, found = chipAt(a, func(step int) bool { return step != a.selected })
	})
	if !found {
		t.Fatal("no chip of another step on screen")
	}
	s.click(x, y)
	a := s.quit(t)
	if a.selected != target || a.following {
		t.Errorf("a click on the chip of step %d (step %d selected before) selected %d, following %v", target, before, a.selected, a.following)
	}
	got := a.View().Content
	checkScreen(t, strings.Split(got, "\n"), 120, 40)
	if says := fmt.Sprintf("step %d of %d", target+1, len(a.fold.Steps())); !strings.Contains(ansi.Strip(got), says) {
		t.Errorf("the screen does not say %q:\n%s", says, ansi.Strip(got))
	}
	golden.RequireEqual(t, got)
}

// Clicks in a replay reach the replay's own state: a click on the replay
// bar seeks, a click on a chip plays to that step, a click on the
// transcript moves the focus. None of them may crash the screen.
func TestScreenReplayClicks(t *testing.T) {
	a, p, _ := newReplayTestApp(t, 120, 40)
	s := startScreen(t, a, 120, 40)
	s.waitUntil(t, "a replay bar", func(a *App) bool { return a.geo.replayBar.w > 0 })
	s.press("end")
	var x, y, target, steps int
	found := false
	s.ask(t, func(a *App) {
		steps = len(a.fold.Steps())
		x, y, target, found = chipAt(a, func(step int) bool { return step < steps-1 })
	})
	if !found {
		t.Fatalf("no chip of an earlier step than the last of %d", steps)
	}
	s.click(x, y)
	s.settle(t)
	var shown int
	s.ask(t, func(a *App) { shown = len(a.fold.Steps()) })
	if shown != target+1 {
		t.Errorf("a click on the chip of step %d: %d steps shown, want %d", target, shown, target+1)
	}
	var barX, barY, tx, ty int
	s.ask(t, func(a *App) {
		bar := a.geo.replayBar
		barX, barY = bar.x+(a.geo.replayBarView.TrackFrom+a.geo.replayBarView.TrackTo)/2, bar.y
	})
	s.click(barX, barY)
	s.settle(t)
	s.ask(t, func(a *App) { tx, ty = a.geo.transcript.x+1, a.geo.transcript.y+1 })
	s.click(tx, ty)
	s.settle(t)
	a = s.quit(t)
	if d := p.Elapsed() - p.Total()/2; d < -p.Total()/20 || d > p.Total()/20 {
		t.Errorf("a click in the middle of the replay bar: at %v of %v", p.Elapsed(), p.Total())
	}
	if a.focus != focusTranscript {
		t.Errorf("a click on the transcript left the focus at %v", a.focus)
	}
	if _, ok := a.mode.(*replayMode); !ok {
		t.Errorf("the screen left the replay: its mode is %T", a.mode)
	}
	// No golden here: which shed rows the transcript has read back when the
	// program quits depends on when each read came back, not on the clicks.
	got := a.View().Content
	checkScreen(t, strings.Split(got, "\n"), 120, 40)
	if !strings.Contains(ansi.Strip(got), "❚❚ paused") {
		t.Errorf("the screen does not say the replay is paused:\n%s", ansi.Strip(got))
	}
}

// '?' shows the help over the screen, and '?' again takes it away and
// leaves the screen as it was.
func TestScreenHelpToggle(t *testing.T) {
	s := startScreen(t, reviewApp(t), 100, 30)
	s.readDemo(t)
	var before, help string
	s.ask(t, func(a *App) { before = a.View().Content })
	s.press("?")
	s.ask(t, func(a *App) {
		if !a.help {
			t.Error("? did not open the help")
		}
		help = a.View().Content
	})
	t.Run("open", func(t *testing.T) {
		checkScreen(t, strings.Split(help, "\n"), 100, 30)
		golden.RequireEqual(t, help)
	})
	s.press("?")
	a := s.quit(t)
	if a.help {
		t.Error("? again did not close the help")
	}
	if got := a.View().Content; got != before {
		t.Errorf("the screen after the help is not the screen before it:\n%s\nwant:\n%s", got, before)
	}
}
