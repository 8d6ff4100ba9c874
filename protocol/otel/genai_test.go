package otel_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

const (
	genTrace = "0af7651916cd43dd8448eb211c80319c"
	genAgent = "b7ad6b7169203331"
)

var genResource = []any{"service.name", "support-bot", "host.name", "h1"}

// genSpans is an agent run as the GenAI conventions record it: an
// invoke_agent span around two model calls and two tool executions (one
// failing), with content recorded.
func genSpans() []spanSpec {
	return []spanSpec{
		{trace: genTrace, id: genAgent, name: "invoke_agent support", start: 0, end: 5000,
			kv: []any{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "support", "gen_ai.conversation.id", "conv-1"}},
		{trace: genTrace, id: "00000000000000c1", parent: genAgent, name: "chat gpt-4o", start: 100, end: 900,
			kv: []any{"gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-4o", "gen_ai.provider.name", "openai",
				"gen_ai.usage.input_tokens", 120, "gen_ai.usage.output_tokens", 30,
				"gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"why is the build red?"}]}]`,
				"gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"Let me run the tests."},{"type":"tool_call","id":"call_1","name":"run_tests","arguments":{}}],"finish_reason":"tool_call"}]`}},
		{trace: genTrace, id: "00000000000000a1", parent: genAgent, name: "execute_tool run_tests", start: 1000, end: 3000,
			kv: []any{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "run_tests", "gen_ai.tool.call.id", "call_1",
				"gen_ai.tool.call.arguments", `{"path":"./..."}`, "gen_ai.tool.call.result", "FAIL TestX"}},
		{trace: genTrace, id: "00000000000000a2", parent: genAgent, name: "execute_tool read_file", start: 3100, end: 3200, err: "file not found",
			kv: []any{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "read_file", "gen_ai.tool.call.id", "call_2"}},
		{trace: genTrace, id: "00000000000000c2", parent: genAgent, name: "chat gpt-4o", start: 3300, end: 4900,
			kv: []any{"gen_ai.operation.name", "chat", "gen_ai.response.model", "gpt-4o", "gen_ai.provider.name", "openai",
				"gen_ai.usage.input_tokens", 200, "gen_ai.usage.output_tokens", 50,
				"gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"TestX fails: the fixture is missing."}],"finish_reason":"stop"}]`}},
	}
}

// checkGenAI checks the run genSpans makes, however it arrived.
func checkGenAI(t *testing.T, threadID string, recs ...[]model.Record) {
	t.Helper()
	ts := foldAll(t, recs...)
	if ts.Len() != 1 {
		t.Fatalf("%d threads, want 1", ts.Len())
	}
	th := otlptest.Thread(t, ts, threadID)
	runs := th.Fold.Runs()
	if len(runs) != 1 || runs[0].RunID != genTrace || runs[0].Status != model.StatusCompleted {
		t.Fatalf("runs: %+v", runs)
	}
	if u := string(runs[0].Usage); u != `[{"provider":"openai","model":"gpt-4o","inputTokens":320,"outputTokens":80,"totalTokens":400}]` {
		t.Errorf("run usage %s", u)
	}
	steps := th.Fold.Steps()
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2: %+v", len(steps), steps)
	}
	s := steps[0]
	if s.ToolName != "run_tests" || s.ToolCallID != "call_1" || s.Status != model.StatusCompleted || s.DurationMS != 2000 ||
		string(s.ArgsJSON) != `{"path":"./..."}` || s.Result != "FAIL TestX" || s.Category != model.CategoryOther {
		t.Errorf("step 1: %+v", s)
	}
	if s := steps[1]; s.ToolName != "read_file" || s.Status != model.StatusFailed || s.DurationMS != 100 || s.Result != "file not found" {
		t.Errorf("step 2: %+v", s)
	}
	var texts []string
	for _, it := range items(th, model.ItemMessage) {
		texts = append(texts, it.Role+": "+it.Text)
	}
	want := []string{"user: why is the build red?", "assistant: Let me run the tests.", "assistant: TestX fails: the fixture is missing."}
	if !slices.Equal(texts, want) {
		t.Errorf("messages %q, want %q", texts, want)
	}
	if n := len(items(th, model.ItemActivity)); n != 2 {
		t.Errorf("%d usage rows, want 2", n)
	}
}

// A GenAI agent run becomes one run (its trace), its tool executions
// steps with their arguments, results, status and duration from the
// spans, and its model calls messages and usage.
func TestGenAIRun(t *testing.T) {
	checkGenAI(t, "support-bot/h1/conv-1", translate(otel.Options{}, []ptrace.Traces{traces(genResource, genSpans()...)}, nil))
}

// Spans that a batching exporter sends in any order, across any number of
// requests of one file, land in their place: the result is the same.
func TestGenAIOutOfOrder(t *testing.T) {
	specs := genSpans()
	slices.Reverse(specs)
	checkGenAI(t, "support-bot/h1/conv-1", translate(otel.Options{}, []ptrace.Traces{traces(genResource, specs...)}, nil))
	var split []ptrace.Traces
	for _, s := range specs {
		split = append(split, traces(genResource, s))
	}
	checkGenAI(t, "support-bot/h1/conv-1", translate(otel.Options{}, split, nil))
}

// Live, spans come as their exporter sends them: the children before the
// agent that encloses them, in requests of their own. The run is the same.
// When only the agent names the conversation, the spans before it wait
// for it, and the run is in the conversation's thread all the same.
func TestGenAILive(t *testing.T) {
	for _, named := range []bool{true, false} {
		specs := genSpans()
		want := "support-bot/h1/conv-1"
		if named {
			for i := range specs {
				specs[i].kv = append(specs[i].kv, "gen_ai.conversation.id", "conv-1")
			}
		}
		tr := otel.New(otel.Options{})
		var batches [][]model.Record
		for _, s := range append(specs[1:], specs[0]) {
			tr.AddTraces(traces(genResource, s))
			batches = append(batches, tr.Flush())
		}
		checkGenAI(t, want, batches...)
	}
}

// nestedSpans is a lead agent that calls a helper agent as a tool (the
// call delegate), the helper running a researcher agent of its own that
// fails; each agent does something.
func nestedSpans() []spanSpec {
	return []spanSpec{
		{trace: genTrace, id: genAgent, name: "invoke_agent lead", start: 0, end: 1000,
			kv: []any{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "lead", "gen_ai.conversation.id", "c"}},
		{trace: genTrace, id: "00000000000000d1", parent: genAgent, name: "execute_tool delegate", start: 50, end: 900,
			kv: []any{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "delegate", "gen_ai.tool.call.id", "call_d"}},
		{trace: genTrace, id: "00000000000000b2", parent: "00000000000000d1", name: "invoke_agent helper", start: 100, end: 800,
			kv: []any{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "helper", "gen_ai.agent.description", "checks the facts"}},
		{trace: genTrace, id: "00000000000000a1", parent: "00000000000000b2", name: "execute_tool search", start: 200, end: 300,
			kv: []any{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "search"}},
		{trace: genTrace, id: "00000000000000c1", parent: "00000000000000b2", name: "chat gpt-4o", start: 310, end: 390,
			kv: []any{"gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-4o", "gen_ai.usage.input_tokens", 5, "gen_ai.usage.output_tokens", 2,
				"gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"found it"}]}]`}},
		{trace: genTrace, id: "00000000000000b3", parent: "00000000000000b2", name: "invoke_agent researcher", start: 400, end: 700, err: "no sources",
			kv: []any{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "researcher"}},
		{trace: genTrace, id: "00000000000000a2", parent: "00000000000000b3", name: "execute_tool fetch", start: 450, end: 600,
			kv: []any{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "fetch", "gen_ai.tool.call.id", "call_f"}},
	}
}

// checkNested checks the runs nestedSpans makes: one run (the lead's),
// a subagent run per nested agent whose events say which parent it has
// (parentSubagentRunId, parentToolCallId) and whose rows say it in words;
// each step, message and row of a nested agent is its subagent's.
func checkNested(t *testing.T, recs []model.Record) {
	t.Helper()
	ts := foldAll(t, recs)
	th := otlptest.Thread(t, ts, "support-bot/h1/c")
	if runs := th.Fold.Runs(); len(runs) != 1 || runs[0].RunID != genTrace || runs[0].Status != model.StatusCompleted {
		t.Fatalf("runs %+v", runs)
	}
	if p := items(th, model.ItemPhase); len(p) != 0 {
		t.Errorf("phases %+v, want none", p)
	}
	subs := items(th, model.ItemSubagent)
	if len(subs) != 2 {
		t.Fatalf("subagents %+v", subs)
	}
	if s := subs[0]; s.ID != "00000000000000b2" || s.Name != "helper" || s.Status != model.StatusCompleted ||
		s.Text != "checks the facts · called by lead through tool call call_d" {
		t.Errorf("helper %+v", s)
	}
	if s := subs[1]; s.ID != "00000000000000b3" || s.Name != "researcher" || s.Status != model.StatusFailed ||
		s.Text != "no sources" {
		t.Errorf("researcher %+v", s)
	}
	parents := map[string]map[string]any{}
	for _, r := range recs {
		var ev map[string]any
		if err := json.Unmarshal(r.Raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev["type"] == "SUBAGENT_STARTED" {
			parents[ev["subagentRunId"].(string)] = ev
		}
	}
	if p := parents["00000000000000b2"]; p["parentToolCallId"] != "call_d" || p["parentSubagentRunId"] != nil {
		t.Errorf("helper started %v, want the call delegate as its parent", p)
	}
	if p := parents["00000000000000b3"]; p["parentSubagentRunId"] != "00000000000000b2" || p["parentToolCallId"] != nil ||
		p["description"] != "called by helper" {
		t.Errorf("researcher started %v, want the helper as its parent", p)
	}
	want := map[string]string{"delegate": "", "search": "00000000000000b2", "fetch": "00000000000000b3"}
	steps := th.Fold.Steps()
	if len(steps) != 3 {
		t.Fatalf("steps %+v", steps)
	}
	for _, s := range steps {
		if w, ok := want[s.ToolName]; !ok || s.SubagentRunID != w || s.Status != model.StatusCompleted {
			t.Errorf("step %s: subagent %q, status %s; want subagent %q", s.ToolName, s.SubagentRunID, s.Status, w)
		}
	}
	if m := items(th, model.ItemMessage); len(m) != 1 || m[0].SubagentRunID != "00000000000000b2" {
		t.Errorf("messages %+v, want the helper's answer", m)
	}
}

// An agent inside another agent's run is a subagent run (AG-UI
// SUBAGENT_*, one open run per thread) whose parent is the span above
// it: another nested agent, or the tool call that invoked it. What it
// does is its subagent's. Out of order, the result is the same.
func TestGenAINestedAgents(t *testing.T) {
	specs := nestedSpans()
	checkNested(t, translate(otel.Options{}, []ptrace.Traces{traces(genResource, specs...)}, nil))
	slices.Reverse(specs)
	checkNested(t, translate(otel.Options{}, []ptrace.Traces{traces(genResource, specs...)}, nil))
}

// Live, a nested agent's spans may come before the agents above them
// (an exporter sends a span when it ends): what came before its agent
// is the run's own, and nothing is a protocol problem.
func TestGenAINestedLive(t *testing.T) {
	specs := nestedSpans()
	tr := otel.New(otel.Options{})
	var batches [][]model.Record
	for i := len(specs) - 1; i >= 0; i-- {
		tr.AddTraces(traces(genResource, specs[i]))
		batches = append(batches, tr.Flush())
	}
	ts := foldAll(t, batches...)
	// Only the lead names the conversation, and it comes last: what came
	// before it waited for it.
	th := otlptest.Thread(t, ts, "support-bot/h1/c")
	if s := th.Fold.Steps(); len(s) != 3 {
		t.Fatalf("steps %+v", s)
	}
	if s := items(th, model.ItemSubagent); len(s) != 2 || !s[0].Status.Done() || !s[1].Status.Done() {
		t.Fatalf("subagents %+v", s)
	}
	if r := th.Fold.Runs(); len(r) != 1 || r[0].Status != model.StatusCompleted {
		t.Fatalf("runs %+v, want the lead's run, ended by the lead", r)
	}
}

// Live, an agent whose parent span has not come yet may be a subagent:
// it is shown as one, and its run stays open. When the span above it
// comes and is not an agent (a server's request span), the agent was the
// run's own, and the run ends then, at the agent's end, failed as it did.
func TestGenAIAgentUnderLateRoot(t *testing.T) {
	root := "00000000000000e1"
	specs := []spanSpec{
		{trace: genTrace, id: genAgent, parent: root, name: "invoke_agent support", start: 10, end: 900, err: "gave up",
			kv: []any{"gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "support", "gen_ai.conversation.id", "c"}},
		{trace: genTrace, id: root, name: "POST /chat", start: 0, end: 1000, kv: []any{"gen_ai.conversation.id", "c"}},
	}
	tr := otel.New(otel.Options{})
	tr.AddTraces(traces(genResource, specs[0]))
	first := tr.Flush()
	ts := foldAll(t, first)
	th := otlptest.Thread(t, ts, "support-bot/h1/c")
	if r := th.Fold.Runs(); len(r) != 1 || r[0].Status != model.StatusRunning {
		t.Fatalf("before the root: runs %+v", r)
	}
	tr.AddTraces(traces(genResource, specs[1]))
	ts.Apply("otlp", tr.Flush()...)
	if r := th.Fold.Runs(); len(r) != 1 || r[0].Status != model.StatusFailed || r[0].Error != "gave up" || !r[0].Ended.Equal(t0.Add(900*time.Millisecond)) {
		t.Fatalf("after the root: runs %+v", r)
	}
	if d := th.Fold.Diagnostics(); len(d) != 0 {
		t.Fatalf("problems %+v", d)
	}
}

// A failed agent span ends its run with RUN_ERROR, saying why.
func TestGenAIFailedAgent(t *testing.T) {
	specs := []spanSpec{{trace: genTrace, id: genAgent, name: "invoke_agent x", start: 0, end: 10, err: "rate limited",
		kv: []any{"gen_ai.operation.name", "invoke_agent"}}}
	ts := foldAll(t, translate(otel.Options{}, []ptrace.Traces{traces(genResource, specs...)}, nil))
	th := otlptest.Thread(t, ts, "support-bot/h1/trace-"+genTrace)
	if runs := th.Fold.Runs(); len(runs) != 1 || runs[0].Status != model.StatusFailed || runs[0].Error != "rate limited" {
		t.Fatalf("runs %+v", runs)
	}
}

// OpenInference spans map as GenAI's do: AGENT a run, TOOL a step with
// tool.name, input.value and output.value, LLM a model call.
func TestOpenInference(t *testing.T) {
	specs := []spanSpec{
		{trace: genTrace, id: genAgent, name: "agent", start: 0, end: 1000,
			kv: []any{"openinference.span.kind", "AGENT", "session.id", "s1"}},
		{trace: genTrace, id: "00000000000000a1", parent: genAgent, name: "tool", start: 100, end: 400,
			kv: []any{"openinference.span.kind", "TOOL", "tool.name", "lookup", "input.value", `{"q":"x"}`, "output.value", "42"}},
		{trace: genTrace, id: "00000000000000c1", parent: genAgent, name: "llm", start: 500, end: 900,
			kv: []any{"openinference.span.kind", "LLM", "llm.model_name", "claude", "llm.token_count.prompt", 10, "llm.token_count.completion", 5,
				"llm.output_messages.0.message.role", "assistant", "llm.output_messages.0.message.content", "It is 42."}},
	}
	ts := foldAll(t, translate(otel.Options{}, []ptrace.Traces{traces(genResource, specs...)}, nil))
	th := otlptest.Thread(t, ts, "support-bot/h1/s1")
	s := th.Fold.Steps()
	if len(s) != 1 || s[0].ToolName != "lookup" || s[0].Result != "42" || string(s[0].ArgsJSON) != `{"q":"x"}` || s[0].DurationMS != 300 {
		t.Fatalf("steps %+v", s)
	}
	if m := items(th, model.ItemMessage); len(m) != 1 || m[0].Text != "It is 42." {
		t.Fatalf("messages %+v", m)
	}
}
