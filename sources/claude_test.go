package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

const claudeFixture = "../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl"

// TestClaudeSteps reads the fixture session as agentwatch steps does:
// every tool call is one step with its category, status, what it acted
// on and what it did.
func TestClaudeSteps(t *testing.T) {
	f, err := os.Open(claudeFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(f)
	var recs []model.Record
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		recs = append(recs, rec)
	}
	if rd.Format() != FormatClaude {
		t.Fatalf("format %v, want claude", rd.Format())
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply(filepath.Base(claudeFixture), recs...)
	list := ts.List()
	if len(list) != 1 || list[0].ID != "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23" {
		t.Fatalf("threads %v, want the session's one", list)
	}
	fo := list[0].Fold
	if d := fo.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems: %v", d)
	}
	want := []struct {
		id, tool string
		cat      model.Category
		status   model.Status
		loc      string
		result   string // a piece of the result
		pictures int
	}{
		{"toolu_01", "Bash", model.CategoryExecute, model.StatusFailed, "go test ./...", "exit status 1", 0},
		{"toolu_02", "Read", model.CategoryRead, model.StatusCompleted, "/home/dev/app/shot.png", "", 1},
		{"toolu_03", "Edit", model.CategoryEdit, model.StatusCompleted, "/home/dev/app/retry.go", "-\ttime.Sleep(10 * time.Millisecond)\n+\tclock.Sleep(10 * time.Millisecond)", 0},
		{"toolu_04", "Write", model.CategoryEdit, model.StatusCompleted, "/home/dev/app/clock.go", "--- /dev/null\n+++ b/home/dev/app/clock.go\n@@ -0,0 +1,3 @@\n+package app", 0},
		{"toolu_05", "Task", model.CategoryThink, model.StatusCompleted, "Find other sleeps", "poll_test.go:12", 0},
		{"toolu_06", "TodoWrite", model.CategoryThink, model.StatusCompleted, "", "Todos", 0},
		{"toolu_07", "Grep", model.CategorySearch, model.StatusCompleted, `time\.Sleep`, "Found 2 files", 0},
		{"toolu_08", "Bash", model.CategoryExecute, model.StatusRunning, "go test ./... -count=1", "", 0},
	}
	steps := fo.Steps()
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(steps), len(want))
	}
	for i, w := range want {
		s := steps[i]
		if s.ToolCallID != w.id || s.ToolName != w.tool || s.Category != w.cat || s.Status != w.status || s.Location != w.loc {
			t.Errorf("step %d: %s %s %s %s %q, want %+v", i, s.ToolCallID, s.ToolName, s.Category, s.Status, s.Location, w)
		}
		if !strings.Contains(s.Result, w.result) {
			t.Errorf("step %d: result %q lacks %q", i, s.Result, w.result)
		}
		if len(s.Screenshots) != w.pictures {
			t.Errorf("step %d: %d screenshots, want %d", i, len(s.Screenshots), w.pictures)
		}
	}
}

// TestClaudeNotDetected: a JSON line that is neither AG-UI nor Claude's
// is still read as JSON Lines.
func TestClaudeNotDetected(t *testing.T) {
	for _, line := range []string{`{"type":"user","name":"x"}`, `{"kind":"assistant","sessionId":"s"}`, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`} {
		rd := NewReader(strings.NewReader(line + "\n"))
		rd.Next()
		if rd.Format() != FormatJSONL {
			t.Errorf("%s: format %v, want jsonl", line, rd.Format())
		}
	}
}
