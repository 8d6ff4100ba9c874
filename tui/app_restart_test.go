package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// A source that starts over (a tailed file truncated and written again)
// takes its old items off the screen: the thread on screen shows only the
// new content, in a fresh fold, with no problem about another thread.
func TestThreadsAppRestart(t *testing.T) {
	batch := func(restart bool, lines ...string) model.Batch {
		recs := readLog(t, []byte(strings.Join(lines, "\n")+"\n"))
		if len(lines) == 0 {
			recs = nil
		}
		return model.Batch{Source: "run.jsonl", Records: recs, Restart: restart}
	}
	d := newThreadsApp(t, 120, 30, AppOptions{}, batch(false,
		`{"type":"RUN_STARTED","threadId":"t","runId":"old1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"make old"}}`,
	))
	if s := ansi.Strip(d.screen(t)); !strings.Contains(s, "make old") {
		t.Fatalf("before the restart the screen lacks the old step:\n%s", s)
	}
	d.feed(t, batch(true), batch(false,
		`{"type":"RUN_STARTED","threadId":"t","runId":"new1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"make new"}}`,
	))
	s := ansi.Strip(d.screen(t))
	if strings.Contains(s, "make old") || !strings.Contains(s, "make new") {
		t.Fatalf("after the restart the screen is:\n%s", s)
	}
	if n := d.tv().set.Len(); n != 1 {
		t.Fatalf("%d threads after the restart, want 1", n)
	}
	if f := d.fold; len(f.Steps()) != 1 || len(f.Diagnostics()) != 0 || len(f.Runs()) != 1 || f.Runs()[0].RunID != "new1" {
		t.Fatalf("the fold on screen: %d steps, %d runs, diagnostics %v", len(f.Steps()), len(f.Runs()), f.Diagnostics())
	}
}
