package app

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// A replay sheds at its checkpoints; at the end of a long log, scrolling to
// the top reads what it shed back from the timeline, window by window,
// until the log's first user message is on screen, and every read ends
// (no two windows push each other out).
func TestReplayShedThenScrollBack(t *testing.T) {
	path, _, whole := generatedLog(t, readBackEvents, 6)
	want := firstWords(t, whole)
	l, tl, sched := indexedReplay(t, path)
	p := replay.NewPlayer(l, tl, sched, replay.PlayerOptions{})
	if _, err := p.Seek(p.Len()); err != nil {
		t.Fatal(err)
	}
	a := tui.NewReplayApp(p, tui.AppOptions{Title: "run.jsonl", Window: window.Options{Keep: readBackKeep}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	screen := func() string { return ansi.Strip(a.View().Content) }
	if s := screen(); !strings.Contains(s, "earlier items not kept") || strings.Contains(s, want) {
		t.Fatalf("at the end the replay did not shed, or shows the log's start:\n%s", s)
	}
	reads := 0
	for ; reads < 40 && !strings.Contains(screen(), want); reads++ {
		_, cmd := a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
		if driveUpTo(a, cmd, 20) {
			t.Fatal("the screen still asks for more after 20 messages: it reads back for ever")
		}
	}
	s := screen()
	if !strings.Contains(s, want) {
		t.Fatalf("after %d reads back the first user message %q is not on screen:\n%s", reads, want, s)
	}
	if !regexp.MustCompile(`not kept · [0-9,]+ read`).MatchString(s) || strings.Contains(s, "▲") {
		t.Fatalf("at the log's start: no count of items read back, or a gap row above:\n%s", s)
	}
	t.Logf("%d reads back to the start", reads)
}
