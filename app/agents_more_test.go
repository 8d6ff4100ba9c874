package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// A Copilot CLI session's state is read from its last line: ended after
// session.shutdown, waiting for you on an unanswered permission, working
// while written, else open (its last turn decides).
func TestCopilotStates(t *testing.T) {
	fixture, err := os.ReadFile("../testdata/copilot/session-state/5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(fixture), "\n")
	upTo := func(typ string) string { // the session cut after its first line of typ
		for i, l := range lines {
			if strings.Contains(l, `"type":"`+typ+`"`) {
				return strings.Join(lines[:i+1], "")
			}
		}
		t.Fatalf("no %s line in the fixture", typ)
		return ""
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	w := &agentWatch{kind: agentCopilot}
	for _, tc := range []struct {
		data  string
		later time.Duration
		want  model.AgentState
	}{
		{string(fixture), time.Hour, model.AgentEnded},
		{upTo("permission.requested"), time.Hour, model.AgentWaiting},
		{upTo("permission.completed"), time.Second, model.AgentWorking},
		{upTo("permission.completed"), time.Hour, model.AgentOpen},
	} {
		if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.states([]string{path}, st.ModTime().Add(tc.later))[path]; got != tc.want {
			t.Errorf("last line %q, %v later: %v, want %v", lastLineType(path, st.Size()), tc.later, got, tc.want)
		}
	}
}
