package otel_test

import (
	"encoding/json"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

var ccResource = []any{"service.name", "claude-code", "host.name", "dev1"}

// ccEvent is a Claude Code event as it exports it: the full name in the
// body, the bare one in event.name, the session and prompt on every one.
func ccEvent(ms int, name string, kv ...any) logSpec {
	return logSpec{ms: ms, body: "claude_code." + name,
		kv: append([]any{"event.name", name, "session.id", "sess-1", "prompt.id", "p1", "event.timestamp", "2026-03-01T10:00:00Z"}, kv...)}
}

// claudeSession is one prompt of a Claude Code session: a model call, an
// accepted Bash command, a refused Edit and a failed Read whose result
// names no call (older versions).
func claudeSession() plog.Logs {
	return logs(ccResource,
		ccEvent(0, "user_prompt", "prompt_length", "42"),
		ccEvent(500, "api_request", "model", "claude-sonnet-4-5", "input_tokens", "1200", "output_tokens", "80",
			"cache_read_tokens", "300", "cost_usd", "0.0123", "duration_ms", "450"),
		ccEvent(900, "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config", "tool_use_id", "toolu_1"),
		ccEvent(2000, "tool_result", "tool_name", "Bash", "success", "true", "duration_ms", "800", "tool_use_id", "toolu_1",
			"tool_parameters", `{"bash_command":"go","full_command":"go test ./...","description":"run the tests"}`),
		ccEvent(2100, "tool_decision", "tool_name", "Edit", "decision", "reject", "source", "user_reject", "tool_use_id", "toolu_2"),
		ccEvent(2500, "tool_result", "tool_name", "Read", "success", "false", "error", "no such file", "duration_ms", "5"),
		ccEvent(2600, "api_error", "model", "claude-sonnet-4-5", "error", "overloaded", "status_code", "529", "attempt", "1"),
	)
}

// Claude Code's events become a run per prompt: the prompt (its length
// when its text is not recorded), each tool a step with the builtin
// category and location, each decision a permission row (a refused call
// cancelled), the model calls' usage and errors as rows, the run's usage
// added up.
func TestClaudeCodeEvents(t *testing.T) {
	ts := foldAll(t, translate(otel.Options{}, nil, []plog.Logs{claudeSession()}))
	th := otlptest.Thread(t, ts, "claude-code/dev1/sess-1")
	runs := th.Fold.Runs()
	if len(runs) != 1 || runs[0].RunID != "p1" || runs[0].Status != model.StatusCompleted {
		t.Fatalf("runs %+v", runs)
	}
	if u := string(runs[0].Usage); u != `[{"model":"claude-sonnet-4-5","inputTokens":1200,"outputTokens":80,"totalTokens":1280,"cachedInputTokens":300}]` {
		t.Errorf("usage %s", u)
	}
	steps := th.Fold.Steps()
	if len(steps) != 3 {
		t.Fatalf("%d steps: %+v", len(steps), steps)
	}
	want := []struct {
		tool     string
		cat      model.Category
		loc      string
		status   model.Status
		duration int64
	}{
		{"Bash", model.CategoryExecute, "go test ./...", model.StatusCompleted, 800},
		{"Edit", model.CategoryEdit, "", model.StatusCancelled, 0},
		{"Read", model.CategoryRead, "", model.StatusFailed, 5},
	}
	for i, w := range want {
		s := steps[i]
		if s.ToolName != w.tool || s.Category != w.cat || s.Location != w.loc || s.Status != w.status || s.DurationMS != w.duration {
			t.Errorf("step %d: %s %s %q %s %dms, want %+v", i+1, s.ToolName, s.Category, s.Location, s.Status, s.DurationMS, w)
		}
	}
	if m := items(th, model.ItemMessage); len(m) != 1 || m[0].Role != "user" || m[0].Text != "[prompt not recorded · 42 characters]" {
		t.Errorf("messages %+v", m)
	}
	rows := map[string][]string{}
	for _, it := range items(th, model.ItemActivity) {
		rows[it.Name] = append(rows[it.Name], string(it.Data))
	}
	if p := rows["permission"]; len(p) != 2 || p[0] != `{"decision":"accept","source":"config","tool":"Bash","toolCallId":"toolu_1"}` ||
		p[1] != `{"decision":"reject","source":"user_reject","tool":"Edit","toolCallId":"toolu_2"}` {
		t.Errorf("permission rows %q", p)
	}
	if u := rows["usage"]; len(u) != 1 || u[0] != `{"cacheReadTokens":300,"costUsd":0.0123,"durationMs":450,"inputTokens":1200,"model":"claude-sonnet-4-5","outputTokens":80}` {
		t.Errorf("usage rows %q", u)
	}
	if e := rows["error"]; len(e) != 1 || e[0] != `{"attempt":1,"message":"overloaded","model":"claude-sonnet-4-5","statusCode":"529"}` {
		t.Errorf("error rows %q", e)
	}
}

// A category from --tool-kinds wins over the builtin one.
func TestToolKindsOverBuiltin(t *testing.T) {
	kinds := fold.ToolKinds{"Bash": {Category: model.CategoryRead}}
	recs := translate(otel.Options{UserKinds: func(n string) bool { _, ok := kinds[n]; return ok }}, nil, []plog.Logs{claudeSession()})
	ts := fold.NewThreads(fold.Options{ToolKinds: kinds})
	ts.Apply("f", recs...)
	if s := ts.List()[0].Fold.Steps()[0]; s.Category != model.CategoryRead {
		t.Fatalf("Bash step is %s, want read", s.Category)
	}
}

// Live, a decision arrives before its result: the step shows at once
// (pending while its arguments are not known), and the result, in a
// later request, finishes it.
func TestClaudeCodeLive(t *testing.T) {
	tr := otel.New(otel.Options{})
	tr.AddLogs(logs(ccResource, ccEvent(0, "user_prompt", "prompt", "run the tests"),
		ccEvent(900, "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config", "tool_use_id", "toolu_1")))
	first := tr.Flush()
	ts := foldAll(t, first)
	th := ts.List()[0]
	if s := th.Fold.Steps(); len(s) != 1 || s[0].Status != model.StatusPending {
		t.Fatalf("after the decision: %+v", s)
	}
	if th.Title() != "run the tests" {
		t.Errorf("title %q", th.Title())
	}
	tr.AddLogs(logs(ccResource, ccEvent(2000, "tool_result", "tool_name", "Bash", "success", "true", "duration_ms", "800",
		"tool_use_id", "toolu_1", "tool_parameters", `{"full_command":"go test"}`)))
	ts.Apply("otlp", tr.Flush()...)
	if s := th.Fold.Steps(); len(s) != 1 || s[0].Status != model.StatusCompleted || s[0].DurationMS != 1100 {
		t.Fatalf("after the result: %+v", s[0])
	}
	if r := th.Fold.Runs(); len(r) != 1 || r[0].Status != model.StatusRunning {
		t.Fatalf("live run %+v", r)
	}
}

var cxResource = []any{"service.name", "codex_cli_rs", "host.name", "ci-7"}

func cxEvent(ms int, name string, kv ...any) logSpec {
	return logSpec{ms: ms, kv: append([]any{"event.name", "codex." + name, "conversation.id", "conv-9", "model", "gpt-5-codex"}, kv...)}
}

// Codex's events: a run per user prompt, shell commands and patches as
// steps (the command of `bash -lc`, the patched file), decisions, usage
// from the completed response.
func TestCodexEvents(t *testing.T) {
	ld := logs(cxResource,
		cxEvent(0, "user_prompt", "prompt", "fix the build", "prompt_length", "13"),
		cxEvent(100, "tool_decision", "tool_name", "shell", "call_id", "c1", "decision", "approved", "source", "config"),
		cxEvent(300, "tool_result", "tool_name", "shell", "call_id", "c1", "arguments", `{"command":["bash","-lc","go build ./..."]}`,
			"output", "ok", "success", "true", "duration_ms", "150"),
		cxEvent(400, "tool_result", "tool_name", "apply_patch", "call_id", "c2",
			"arguments", `{"input":"*** Begin Patch\n*** Update File: main.go\n@@\n-a\n+b\n*** End Patch"}`, "output", "done", "success", "true", "duration_ms", "3"),
		cxEvent(500, "sse_event", "event.kind", "response.completed", "input_token_count", "900", "output_token_count", "40"),
		cxEvent(600, "user_prompt", "prompt_length", "5"),
		cxEvent(700, "tool_decision", "tool_name", "shell", "call_id", "c3", "decision", "denied", "source", "user"),
	)
	ts := foldAll(t, translate(otel.Options{}, nil, []plog.Logs{ld}))
	th := otlptest.Thread(t, ts, "codex_cli_rs/ci-7/conv-9")
	if r := th.Fold.Runs(); len(r) != 2 {
		t.Fatalf("runs %+v", r)
	}
	steps := th.Fold.Steps()
	if len(steps) != 3 {
		t.Fatalf("steps %+v", steps)
	}
	if s := steps[0]; s.Category != model.CategoryExecute || s.Location != "go build ./..." || s.Status != model.StatusCompleted || s.Result != "ok" {
		t.Errorf("shell step %+v", s)
	}
	if s := steps[1]; s.Category != model.CategoryEdit || s.Location != "main.go" || s.Status != model.StatusCompleted {
		t.Errorf("patch step %+v", s)
	}
	if s := steps[2]; s.Status != model.StatusCancelled || s.RunID != "run-2" {
		t.Errorf("denied step %+v", s)
	}
	if m := items(th, model.ItemMessage); len(m) != 2 || m[0].Text != "fix the build" || m[1].Text != "[prompt not recorded · 5 characters]" {
		t.Errorf("messages %+v", m)
	}
	var usage []map[string]any
	if err := json.Unmarshal(th.Fold.Runs()[0].Usage, &usage); err != nil || len(usage) != 1 || usage[0]["inputTokens"] != 900.0 {
		t.Errorf("usage %s", th.Fold.Runs()[0].Usage)
	}
}

// Claude Code's spans (traces, a beta of its telemetry): a tool span is a
// step, its permission wait a decision, its model calls usage, all in the
// run of the interaction around them.
func TestClaudeCodeSpans(t *testing.T) {
	tr := "11111111111111111111111111111111"
	specs := []spanSpec{
		{trace: tr, id: "0000000000000011", name: "claude_code.interaction", start: 0, end: 3000,
			kv: []any{"session.id", "sess-2", "user_prompt", "list files"}},
		{trace: tr, id: "0000000000000012", parent: "0000000000000011", name: "claude_code.llm_request", start: 100, end: 400,
			kv: []any{"session.id", "sess-2", "model", "claude-haiku", "input_tokens", 10, "output_tokens", 3}},
		{trace: tr, id: "0000000000000013", parent: "0000000000000011", name: "claude_code.tool", start: 500, end: 2500,
			kv: []any{"session.id", "sess-2", "tool_name", "Bash", "tool_use_id", "toolu_9", "duration_ms", 2000}},
		{trace: tr, id: "0000000000000014", parent: "0000000000000013", name: "claude_code.tool.blocked_on_user", start: 500, end: 1500,
			kv: []any{"session.id", "sess-2", "decision", "accept", "source", "user_temporary"}},
	}
	ts := foldAll(t, translate(otel.Options{}, []ptrace.Traces{traces(ccResource, specs...)}, nil))
	th := otlptest.Thread(t, ts, "claude-code/dev1/sess-2")
	if r := th.Fold.Runs(); len(r) != 1 || r[0].RunID != "0000000000000011" || r[0].Status != model.StatusCompleted {
		t.Fatalf("runs %+v", r)
	}
	if s := th.Fold.Steps(); len(s) != 1 || s[0].ToolCallID != "toolu_9" || s[0].Category != model.CategoryExecute || s[0].DurationMS != 2000 {
		t.Fatalf("steps %+v", s)
	}
	if p := items(th, model.ItemActivity); len(p) != 2 {
		t.Fatalf("rows %+v", p)
	}
	if m := items(th, model.ItemMessage); len(m) != 1 || m[0].Text != "list files" {
		t.Fatalf("messages %+v", m)
	}
}

// Text that is not valid UTF-8 (protobuf strings are not checked) is
// mended, not a reason to fail.
func TestInvalidUTF8(t *testing.T) {
	ld := logs(ccResource, ccEvent(0, "user_prompt", "prompt", "bad \xff\xfe text", "session.id", "s\xff"),
		ccEvent(10, "tool_result", "tool_name", "Bash\xff", "success", "true", "tool_use_id", "t\xff1", "session.id", "s\xff"))
	ts := foldAll(t, translate(otel.Options{}, nil, []plog.Logs{ld}))
	th := ts.List()[0]
	if m := items(th, model.ItemMessage); len(m) != 1 || m[0].Text != "bad \uFFFD text" {
		t.Fatalf("messages %+v", m)
	}
	if s := th.Fold.Steps(); len(s) != 1 || s[0].ToolName != "Bash\uFFFD" {
		t.Fatalf("steps %+v", s)
	}
}
