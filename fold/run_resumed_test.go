package fold_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// A RUN_STARTED that names a run that ended takes that run up again: one
// run, running again, then ended by its next end, with what came meanwhile
// its own; no second run of the same id.
func TestRunStartedAgainResumesTheRun(t *testing.T) {
	f := fold.New(fold.Options{})
	f.Apply(log(
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"RUN_ERROR","message":"boom"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"b"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"b","usage":[{"model":"m","inputTokens":1}]}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"b"}`,
	)...)
	runs := f.Runs()
	if len(runs) != 2 || runs[1].RunID != "b" || runs[1].Status != model.StatusRunning || len(runs[1].Usage) != 0 || !runs[1].Ended.IsZero() {
		t.Fatalf("after b started again: %+v", runs)
	}
	f.Apply(log(
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"b"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"a"}`,
	)...)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems %+v", d)
	}
	runs = f.Runs()
	if len(runs) != 2 || runs[0].Status != model.StatusCompleted || runs[1].Status != model.StatusCompleted {
		t.Fatalf("runs %+v", runs)
	}
	if s := f.Steps(); len(s) != 1 || s[0].RunID != "b" {
		t.Fatalf("steps %+v", s)
	}
	var rows []*model.Item
	for _, it := range f.Items() {
		if it.Kind == model.ItemRun {
			rows = append(rows, it)
		}
	}
	if len(rows) != 2 || rows[0].Status != model.StatusCompleted || rows[1].Status != model.StatusCompleted {
		t.Fatalf("run rows %+v", rows)
	}
}

// A tool call started again takes the category and location its new
// TOOL_CALL_START gives (telemetry learns a command from its result) and
// the arguments sent with it, keeping its run.
func TestToolCallStartedAgainTakesItsLocation(t *testing.T) {
	f := fold.New(fold.Options{})
	f.Apply(log(
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"Bash","metadata":{"category":"execute"}}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"s"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"Bash","metadata":{"category":"execute","location":"go test ./..."}}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"full_command\":\"go test ./...\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"ok"}`,
	)...)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems %+v", d)
	}
	s := f.Steps()
	if len(s) != 1 || s[0].Label() != "Ran command · go test ./..." || s[0].RunID != "r" || string(s[0].ArgsJSON) != `{"full_command":"go test ./..."}` {
		t.Fatalf("steps %+v", s)
	}
}

// A run taken up again that fails again with the same error has one
// error row: it is the same failure, told again when the run ends again.
func TestRunResumedFailsOnce(t *testing.T) {
	f := fold.New(fold.Options{})
	f.Apply(log(
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"RUN_ERROR","message":"boom"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"CUSTOM","name":"late","value":1}`,
		`{"type":"RUN_ERROR","message":"boom"}`,
	)...)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems %+v", d)
	}
	n := 0
	for _, it := range f.Items() {
		if it.Kind == model.ItemError {
			n++
		}
	}
	if r := f.Runs(); len(r) != 1 || r[0].Status != model.StatusFailed || r[0].Error != "boom" || n != 1 {
		t.Fatalf("runs %+v, %d error rows", r, n)
	}
}

// A subagent started again in a run taken up again is the same subagent:
// one row, running again, then ended as its next end says.
func TestSubagentStartedAgainResumesIt(t *testing.T) {
	f := fold.New(fold.Options{})
	f.Apply(log(
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"helper"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"a"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"helper"}`,
		`{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"gave up"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"a"}`,
	)...)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems %+v", d)
	}
	var subs []*model.Item
	for _, it := range f.Items() {
		if it.Kind == model.ItemSubagent {
			subs = append(subs, it)
		}
	}
	if len(subs) != 1 || subs[0].Status != model.StatusFailed || subs[0].Text != "gave up" {
		t.Fatalf("subagent rows %+v", subs)
	}
}
