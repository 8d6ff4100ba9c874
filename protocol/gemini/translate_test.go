package gemini_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// Every tool call of the fixture is one step, of the category, status and
// location its records say, however often its message was written again.
func TestFixtureSteps(t *testing.T) {
	f := foldAll(t, translate(readFixture(t)))
	type want struct {
		id       string
		tool     string
		category model.Category
		status   model.Status
		location string
	}
	wants := []want{
		{"run_shell_command_1745140517001_0", "run_shell_command", model.CategoryExecute, model.StatusFailed, "go test ./money/"},
		{"read_file_1745140517001_1", "read_file", model.CategoryRead, model.StatusCompleted, "money/round.go"},
		{"replace_1745140522001_0", "replace", model.CategoryEdit, model.StatusFailed, "/home/dev/shop/money/round.go"},
		{"replace_1745140525001_0", "replace", model.CategoryEdit, model.StatusCompleted, "/home/dev/shop/money/round.go"},
		{"run_shell_command_1745140528001_0", "run_shell_command", model.CategoryExecute, model.StatusCompleted, "go test ./money/"},
		{"google_web_search_1745140694001_0", "google_web_search", model.CategorySearch, model.StatusCompleted, "banker's rounding half cents"},
		{"codebase_investigator_1745140694001_1", "codebase_investigator", model.CategoryOther, model.StatusCompleted, ""},
	}
	steps := f.Steps()
	if len(steps) != len(wants) {
		t.Fatalf("%d steps, want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		if s.ToolCallID != w.id || s.ToolName != w.tool || s.Category != w.category || s.Status != w.status || s.Location != w.location {
			t.Errorf("step %d = %s %s %s %s %q, want %+v", i, s.ToolCallID, s.ToolName, s.Category, s.Status, s.Location, w)
		}
	}
	if s := steps[0]; s.ExitCode == nil || *s.ExitCode != 1 || !strings.HasPrefix(s.Result, "--- FAIL: TestRound") {
		t.Errorf("the failed test run: exit %v, result %q", s.ExitCode, s.Result)
	}
	if s := steps[2]; !strings.HasPrefix(s.Result, "Failed to edit, 0 occurrences found") {
		t.Errorf("the failed edit's result is %q, want its error", s.Result)
	}
	if s := steps[3]; !strings.Contains(s.Result, "+\treturn math.Round(x*100) / 100") {
		t.Errorf("the edit's result is %q, want its diff", s.Result)
	}
}

// A message written again shows only what is new: each call starts once
// and ends once, each text and each thought is one message.
func TestUpsertsDoNotDuplicate(t *testing.T) {
	starts, results, texts := map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range translate(readFixture(t)) {
		switch e := r.Event.(type) {
		case *agui.ToolCallStart:
			starts[e.ToolCallID]++
		case *agui.ToolCallResult:
			results[e.ToolCallID]++
		case *agui.TextMessageStart:
			texts[e.MessageID]++
		case *agui.ReasoningStart:
			texts[e.MessageID]++
		}
		if r.Thread != fixtureThread {
			t.Fatalf("record %d names thread %q", r.Seq, r.Thread)
		}
	}
	for id, n := range starts {
		if n != 1 || results[id] != 1 {
			t.Errorf("call %s: %d starts, %d results", id, n, results[id])
		}
	}
	for id, n := range texts {
		if n != 1 {
			t.Errorf("message %s started %d times", id, n)
		}
	}
	if len(starts) != 7 {
		t.Errorf("%d calls, want 7", len(starts))
	}
}

// Prompts start runs, tool responses do not; the prompt after a rewind
// starts a branch beside the run rewound away; the error ends its run.
func TestRunsAndRewind(t *testing.T) {
	f := foldAll(t, translate(readFixture(t)))
	runs := f.Runs()
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	first := "run-5b0e1f3a-6c2d-4e8b-9a71-d3c4b5a69e01"
	if runs[0].RunID != first || runs[0].ParentRunID != "" {
		t.Errorf("first run %s (parent %q)", runs[0].RunID, runs[0].ParentRunID)
	}
	if runs[1].ParentRunID != first || runs[2].ParentRunID != first {
		t.Errorf("the rewound run and the branch have parents %q and %q, want both %s", runs[1].ParentRunID, runs[2].ParentRunID, first)
	}
	if runs[2].Status != model.StatusFailed || !strings.Contains(runs[2].Error, "quota") {
		t.Errorf("the last run is %s (%q), want failed by the API error", runs[2].Status, runs[2].Error)
	}
	if !strings.Contains(string(runs[0].Usage), `"outputTokens":380`) {
		t.Errorf("the first run's usage is %s", runs[0].Usage)
	}
}

// A call seen executing shows started; written again done, it ends once.
func TestCallGoesFromExecutingToDone(t *testing.T) {
	lines := []string{
		`{"sessionId":"s1","projectHash":"p","startTime":"2026-04-20T09:00:00.000Z","lastUpdated":"2026-04-20T09:00:00.000Z","kind":"main"}`,
		`{"id":"u1","timestamp":"2026-04-20T09:00:01.000Z","type":"user","content":[{"text":"list it"}]}`,
		`{"id":"g1","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"Listing.","toolCalls":[{"id":"c1","name":"list_directory","args":{"dir_path":"src"},"status":"executing","timestamp":"2026-04-20T09:00:02.000Z"},{"id":"c2","name":"write_file","args":{"file_path":"a.txt","content":"x"},"status":"executing","timestamp":"2026-04-20T09:00:02.000Z"}],"model":"gemini-2.5-pro"}`,
		`{"id":"g1","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"Listing.","toolCalls":[{"id":"c1","name":"list_directory","args":{"dir_path":"src"},"status":"success","timestamp":"2026-04-20T09:00:03.000Z","result":[{"functionResponse":{"id":"c1","name":"list_directory","response":{"output":"a.go"}}}]},{"id":"c2","name":"write_file","args":{"file_path":"a.txt","content":"x"},"status":"executing","timestamp":"2026-04-20T09:00:02.000Z"}],"model":"gemini-2.5-pro"}`,
		`{"id":"g1","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"Listing.","toolCalls":[{"id":"c1","name":"list_directory","args":{"dir_path":"src"},"status":"success","timestamp":"2026-04-20T09:00:03.000Z"},{"id":"c2","name":"write_file","args":{"file_path":"a.txt","content":"x"},"status":"error","timestamp":"2026-04-20T09:00:04.000Z","resultDisplay":"Permission denied"}],"model":"gemini-2.5-pro"}`,
	}
	tr := gemini.New()
	var counts []int
	var recs []model.Record
	for _, l := range lines {
		out := tr.Line([]byte(l))
		counts = append(counts, len(out))
		recs = append(recs, out...)
	}
	f := foldAll(t, recs)
	steps := f.Steps()
	if len(steps) != 2 {
		t.Fatalf("%d steps", len(steps))
	}
	if s := steps[0]; s.Category != model.CategoryRead || s.Location != "src" || s.Status != model.StatusCompleted || s.Result != "a.go" {
		t.Errorf("list: %s %q %s %q", s.Category, s.Location, s.Status, s.Result)
	}
	if s := steps[1]; s.Category != model.CategoryEdit || s.Location != "a.txt" || s.Status != model.StatusFailed || s.Result != "Permission denied" {
		t.Errorf("write: %s %q %s %q", s.Category, s.Location, s.Status, s.Result)
	}
	if counts[3] != 1 || counts[4] != 1 {
		t.Errorf("the re-written message made %d and %d records, want one result each", counts[3], counts[4])
	}
}

// A subagent's file read on its own is a session like any other: its
// first record names its thread as a main session's does.
func TestSubagentFile(t *testing.T) {
	f := foldAll(t, translate(mustRead(t, subagentFixture)))
	steps := f.Steps()
	if len(steps) != 2 || steps[0].Category != model.CategorySearch || steps[0].Location != "money/**/*_test.go" || steps[1].ToolName != "complete_task" {
		t.Errorf("subagent steps %+v", steps)
	}
}
