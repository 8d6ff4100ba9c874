package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// A failed start says why on the status line and shows the agent's last
// stderr lines under it, made safe, as many as a third of the screen
// holds; the screen keeps its size at every height.
func TestAgentFailedStart(t *testing.T) {
	for _, h := range []int{4, 8, 24, 60} {
		ch := make(chan []model.Record)
		close(ch)
		a := NewAgentApp(fold.New(fold.Options{}), ch, &fakeAgent{}, AppOptions{Title: "agent"})
		a.Update(tea.WindowSizeMsg{Width: 80, Height: h})
		a.Update(AgentFailedMsg{Reason: "agent failed to start: initialize: the agent exited (exit status 3)",
			Stderr: []string{"one", "two\x1b]0;pwned\x07", "three\tfour", "\x1b[31mlast\x1b[0m"}})
		view := a.View().Content
		lines := strings.Split(view, "\n")
		if len(lines) != h {
			t.Errorf("height %d: %d lines", h, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != 80 {
				t.Errorf("height %d: line %d is %d cells", h, i, w)
			}
		}
		got := ansi.Strip(view)
		if !strings.Contains(got, "✗ agent failed to start: initialize: the agent exited (exit status 3)") {
			t.Errorf("height %d: no reason:\n%s", h, got)
		}
		if strings.Contains(got, "pwned") || strings.Contains(view, "\x1b]") {
			t.Errorf("height %d: agent escapes reached the screen", h)
		}
		rows := min(5, 9, h/3)
		if rows > 0 && !strings.Contains(got, "agent stderr:") || rows > 1 && !strings.Contains(got, "   last") {
			t.Errorf("height %d: the stderr lines are missing:\n%s", h, got)
		}
		if h >= 24 && !strings.Contains(got, "   three four") {
			t.Errorf("height %d: the stderr lines are missing:\n%s", h, got)
		}
	}
}
