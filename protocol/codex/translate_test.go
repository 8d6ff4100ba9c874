package codex_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Every tool call of the fixture is one step, of the category, status,
// location and exit code its lines say.
func TestFixtureSteps(t *testing.T) {
	f := foldAll(t, translate(readFixture(t)))
	type want struct {
		id       string
		tool     string
		category model.Category
		status   model.Status
		location string
		exit     int // -1: none
	}
	wants := []want{
		{"call_tests", "exec_command", model.CategoryExecute, model.StatusFailed, "go test ./...", 1},
		{"call_status", "exec_command", model.CategoryExecute, model.StatusCompleted, "git status --short", 0},
		{"call_patch", "apply_patch", model.CategoryEdit, model.StatusCompleted, "money.go", 0},
		{"search-", "web_search", model.CategorySearch, model.StatusCompleted, "go math.Round half away from zero", -1},
		{"call_plan", "update_plan", model.CategoryThink, model.StatusCompleted, "Rounding fixed; checking the rest.", -1},
		{"call_retest", "exec_command", model.CategoryExecute, model.StatusCompleted, "go test ./...", 0},
		{"call_integration", "exec_command", model.CategoryExecute, model.StatusCancelled, "go test -tags integration ./...", -1},
		{"call_ls", "local_shell", model.CategoryExecute, model.StatusCompleted, "ls -la", 0},
		{"call_rates", "mcp__rates__lookup", model.CategoryOther, model.StatusCompleted, "", -1},
		{"call_spawn", "spawn_agent", model.CategoryThink, model.StatusCompleted,
			"Review the rounding change in money.go and report anything that could still be off.", -1},
		{"call_changelog", "exec_command", model.CategoryExecute, model.StatusCompleted, "head -n 3 CHANGELOG.md", 0},
		{"call_wait", "wait", model.CategoryOther, model.StatusCompleted, "", -1},
	}
	steps := f.Steps()
	if len(steps) != len(wants) {
		for _, s := range steps {
			t.Logf("%s %s %s %s", s.ToolCallID, s.ToolName, s.Category, s.Status)
		}
		t.Fatalf("%d steps, want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		if !strings.HasPrefix(s.ToolCallID, w.id) || s.ToolName != w.tool || s.Category != w.category ||
			s.Status != w.status || s.Location != w.location {
			t.Errorf("step %d = %s %s %s %s %q, want %+v", i, s.ToolCallID, s.ToolName, s.Category, s.Status, s.Location, w)
		}
		switch {
		case w.exit < 0 && s.ExitCode != nil:
			t.Errorf("step %d: exit code %d, want none", i, *s.ExitCode)
		case w.exit >= 0 && (s.ExitCode == nil || *s.ExitCode != w.exit):
			t.Errorf("step %d: exit code %v, want %d", i, s.ExitCode, w.exit)
		}
	}
	tests := steps[0]
	if !strings.HasPrefix(tests.Result, "--- FAIL: TestTotal") {
		t.Errorf("the failed command's result is %q, want its output without the header", tests.Result)
	}
	if got := tests.Label(); got != "Command failed (exit 1) · go test ./..." {
		t.Errorf("label %q", got)
	}
	if steps[1].Ended.Before(steps[1].Started) || !steps[1].Ended.Before(tests.Ended) {
		t.Error("the second command's output came first and should end it first")
	}
	patch := string(steps[2].ArgsJSON)
	for _, part := range []string{`"patch":"--- a/money.go\n+++ b/money.go\n@@ -1,5 +1,5 @@ func Total`,
		`-\treturn math.Floor(sum*100) / 100\n+\treturn math.Round(sum*100) / 100\n`} {
		if !strings.Contains(patch, part) {
			t.Errorf("apply_patch args %s lack %s", patch, part)
		}
	}
	if steps[8].Args != "rate for NL, not JSON" || steps[8].ArgsJSON != nil {
		t.Errorf("arguments that are not JSON: %q %s", steps[8].Args, steps[8].ArgsJSON)
	}
}

// The conversation: the user's prompts (never the context Codex adds),
// the agent's messages and its reasoning summaries, a compaction marker,
// and three runs, the second cancelled.
func TestFixtureConversation(t *testing.T) {
	recs := translate(readFixture(t))
	for _, r := range recs {
		if r.Thread != fixtureThread {
			t.Fatalf("record %d names thread %q", r.Seq, r.Thread)
		}
	}
	var users, reasoning, compactions []string
	var runs []string
	for _, r := range recs {
		switch e := r.Event.(type) {
		case *agui.TextMessageStart:
			if e.Role == "user" {
				users = append(users, e.MessageID)
			}
		case *agui.ReasoningMessageContent:
			reasoning = append(reasoning, e.Delta)
		case *agui.Custom:
			compactions = append(compactions, e.Name)
		case *agui.RunFinished:
			o := "success"
			if e.Outcome != nil {
				o = e.Outcome.Type
			}
			runs = append(runs, o)
		}
	}
	if len(users) != 4 {
		t.Errorf("%d user messages, want the 4 prompts", len(users))
	}
	if len(reasoning) != 2 || reasoning[0] != "**Looking at the rounding**" {
		t.Errorf("reasoning %q", reasoning)
	}
	if len(compactions) != 1 || compactions[0] != "compaction" {
		t.Errorf("compaction markers %q, want one", compactions)
	}
	if strings.Join(runs, " ") != "success cancelled success success" {
		t.Errorf("runs ended %q", runs)
	}
	foldAll(t, recs)
}
