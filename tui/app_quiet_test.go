package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// A live source that sends nothing for a while says so in the title bar,
// and how long; the pump wakes the screen for it, and stops once the
// source has ended.
func TestQuietSource(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ch := make(chan []model.Record, 1)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{Now: func() time.Time { return now }})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if w := a.quietWake(); w != 0 {
		t.Fatalf("before any record the pump wakes after %v", w)
	}
	ch <- readLog(t, bigLog(1, 5))
	a.Update(a.pump()())
	if w := a.quietWake(); w != quietAfter {
		t.Fatalf("right after records the pump wakes after %v, want %v", w, quietAfter)
	}
	title := func() string {
		a.Update(quietTickMsg{})
		return ansi.Strip(strings.SplitN(a.View().Content, "\n", 2)[0])
	}
	if strings.Contains(title(), "quiet") {
		t.Fatalf("title %q says quiet at once", title())
	}
	now = now.Add(7 * time.Second)
	if w := a.quietWake(); w != quietTick {
		t.Fatalf("once quiet the pump wakes every %v, want %v", w, quietTick)
	}
	if got := title(); !strings.Contains(got, "quiet 7s") {
		t.Fatalf("title %q, want it to say quiet 7s", got)
	}
	// A wake with nothing new redraws and waits again.
	if _, cmd := a.Update(quietTickMsg{}); cmd == nil {
		t.Fatal("no pump after a quiet tick")
	}
	close(ch)
	a.Update(a.pump()())
	if got := title(); strings.Contains(got, "quiet") {
		t.Fatalf("an ended source still says %q", got)
	}
}
