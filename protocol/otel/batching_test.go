package otel_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// ccTimed is a Claude Code event as it exports it, at ms after t0: the
// full name in the body, the bare one in event.name, its own time in
// event.timestamp, and the attributes every event carries.
func ccTimed(ms int, prompt, name string, kv ...any) logSpec {
	ts := t0.Add(msDur(ms)).Format("2006-01-02T15:04:05.000Z")
	return logSpec{ms: ms, body: "claude_code." + name, kv: append([]any{"event.name", name, "event.timestamp", ts,
		"session.id", "5f0c2f9e-sess", "prompt.id", prompt, "app.version", "2.0.14", "terminal.type", "tmux"}, kv...)}
}

// ccLawSession is two prompts of a Claude Code session, event for event
// as Claude Code documents them: the prompt (recorded, then not), model
// calls with their usage, a model call that failed and was retried, an
// accepted Bash command and its result (whose tool_parameters say the
// command), a Read that failed, and an Edit the user refused. As Claude
// Code sends them, neither tool_decision nor tool_result names the call.
func ccLawSession() []logSpec {
	return []logSpec{
		ccTimed(0, "prompt-a", "user_prompt", "prompt", "make the tests pass", "prompt_length", "19"),
		ccTimed(1200, "prompt-a", "api_request", "model", "claude-sonnet-4", "input_tokens", "1234", "output_tokens", "567",
			"cache_read_tokens", "2000", "cache_creation_tokens", "100", "cost_usd", "0.0213", "duration_ms", "1150"),
		ccTimed(1300, "prompt-a", "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config"),
		ccTimed(4300, "prompt-a", "tool_result", "tool_name", "Bash", "success", "true", "duration_ms", "2990",
			"decision_type", "accept", "decision_source", "config", "tool_result_size_bytes", "812",
			"tool_parameters", `{"bash_command":"go","full_command":"go test ./...","description":"Run the tests"}`),
		ccTimed(5000, "prompt-a", "api_error", "model", "claude-sonnet-4", "error", "overloaded", "status_code", "529",
			"duration_ms", "600", "attempt", "2"),
		ccTimed(7000, "prompt-a", "api_request", "model", "claude-sonnet-4", "input_tokens", "2100", "output_tokens", "80",
			"cost_usd", "0.0074", "duration_ms", "1900"),
		ccTimed(7100, "prompt-a", "tool_decision", "tool_name", "Read", "decision", "accept", "source", "config"),
		ccTimed(7150, "prompt-a", "tool_result", "tool_name", "Read", "success", "false", "duration_ms", "20",
			"error", "File does not exist.", "decision_type", "accept", "decision_source", "config"),
		ccTimed(9000, "prompt-b", "user_prompt", "prompt_length", "31"),
		ccTimed(10000, "prompt-b", "api_request", "model", "claude-sonnet-4", "input_tokens", "2500", "output_tokens", "120",
			"cost_usd", "0.0091", "duration_ms", "950"),
		ccTimed(10100, "prompt-b", "tool_decision", "tool_name", "Edit", "decision", "reject", "source", "user_reject"),
		ccTimed(10300, "prompt-b", "api_request", "model", "claude-sonnet-4", "input_tokens", "2600", "output_tokens", "40",
			"cost_usd", "0.0082", "duration_ms", "200"),
	}
}

// telemetry is a fixture: n records, and how to send some of them as one
// export request.
type telemetry struct {
	n    int
	send func(tr *otel.Translator, records []int)
}

func ccTelemetry() telemetry {
	specs := ccLawSession()
	return telemetry{n: len(specs), send: func(tr *otel.Translator, records []int) {
		var req []logSpec
		for _, i := range records {
			req = append(req, specs[i])
		}
		tr.AddLogs(logs(ccResource, req...))
	}}
}

func genTelemetry(specs []spanSpec) telemetry {
	return telemetry{n: len(specs), send: func(tr *otel.Translator, records []int) {
		var req []spanSpec
		for _, i := range records {
			req = append(req, specs[i])
		}
		tr.AddTraces(traces(genResource, req...))
	}}
}

// deliver sends the records in order, cut into requests after each index
// in cuts, each mapped as the receiver maps a request; live is the fold
// then, ended the fold once the runs are ended as a file's are.
func deliver(t *testing.T, tel telemetry, order []int, cuts map[int]bool) (live, ended string) {
	t.Helper()
	tr := otel.New(otel.Options{})
	ts := fold.NewThreads(fold.Options{})
	var req []int
	for i, r := range order {
		req = append(req, r)
		if cuts[i] || i == len(order)-1 {
			tel.send(tr, req)
			ts.Apply("otlp", tr.Flush()...)
			req = nil
		}
	}
	live = digest(t, ts)
	ts.Apply("otlp", tr.Finish()...)
	return live, digest(t, ts)
}

// inOrder is 0…n-1.
func inOrder(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// splitOf is the cuts of split number mask: a cut after record i when bit
// i is set.
func splitOf(mask, n int) map[int]bool {
	cuts := map[int]bool{}
	for i := range n - 1 {
		if mask&(1<<i) != 0 {
			cuts[i] = true
		}
	}
	return cuts
}

// each is one request per record.
func each(n int) map[int]bool { return splitOf(1<<n-1, n) }

// checkSame fails when a delivery folds otherwise than the reference.
func checkSame(t *testing.T, what string, wantLive, wantEnded, live, ended string) bool {
	t.Helper()
	if live != wantLive {
		t.Errorf("%s: live fold differs from one request in order:\n--- got\n%s\n--- want\n%s", what, live, wantLive)
		return false
	}
	if ended != wantEnded {
		t.Errorf("%s: ended fold differs from one request in order:\n--- got\n%s\n--- want\n%s", what, ended, wantEnded)
		return false
	}
	return true
}

// checkBatching is the law: at every split of the records into requests,
// in order, and at every adjacent swap and a seeded sample of
// permutations (all of them when there are few), each delivered at every
// split when there are few records and otherwise one per request and at
// a random split, the fold is the one that one request in order gives.
func checkBatching(t *testing.T, tel telemetry, samples int) {
	t.Helper()
	wantLive, wantEnded := deliver(t, tel, inOrder(tel.n), nil)
	splits := 1 << (tel.n - 1)
	for mask := range splits {
		live, ended := deliver(t, tel, inOrder(tel.n), splitOf(mask, tel.n))
		if !checkSame(t, "split "+cutString(splitOf(mask, tel.n)), wantLive, wantEnded, live, ended) {
			return
		}
	}
	var perms [][]int
	for i := range tel.n - 1 {
		p := inOrder(tel.n)
		p[i], p[i+1] = p[i+1], p[i]
		perms = append(perms, p)
	}
	if tel.n <= 6 {
		perms = append(perms, permutations(inOrder(tel.n))...)
	} else {
		rng := rand.New(rand.NewPCG(1, uint64(tel.n)))
		for range samples {
			p := inOrder(tel.n)
			rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			perms = append(perms, p)
		}
	}
	rng := rand.New(rand.NewPCG(2, uint64(tel.n)))
	for _, p := range perms {
		cutsList := []map[int]bool{nil, each(tel.n), splitOf(rng.IntN(splits), tel.n)}
		if tel.n <= 6 {
			cutsList = cutsList[:0]
			for mask := range splits {
				cutsList = append(cutsList, splitOf(mask, tel.n))
			}
		}
		for _, cuts := range cutsList {
			live, ended := deliver(t, tel, p, cuts)
			if !checkSame(t, "order "+orderString(p)+" split "+cutString(cuts), wantLive, wantEnded, live, ended) {
				return
			}
		}
	}
}

// checkOrders is the law for the given orders of the records: each
// delivered at every split folds as one request in order.
func checkOrders(t *testing.T, tel telemetry, orders [][]int) {
	t.Helper()
	wantLive, wantEnded := deliver(t, tel, inOrder(tel.n), nil)
	for _, p := range orders {
		for mask := range 1 << (tel.n - 1) {
			live, ended := deliver(t, tel, p, splitOf(mask, tel.n))
			if !checkSame(t, "order "+orderString(p)+" split "+cutString(splitOf(mask, tel.n)), wantLive, wantEnded, live, ended) {
				return
			}
		}
	}
}

// permutations are all orders of p.
func permutations(p []int) [][]int {
	if len(p) <= 1 {
		return [][]int{append([]int(nil), p...)}
	}
	var out [][]int
	for i := range p {
		rest := append(append([]int(nil), p[:i]...), p[i+1:]...)
		for _, q := range permutations(rest) {
			out = append(out, append([]int{p[i]}, q...))
		}
	}
	return out
}

func orderString(p []int) string {
	s := ""
	for _, i := range p {
		s += string(rune('a' + i))
	}
	return s
}

func cutString(cuts map[int]bool) string {
	s := ""
	for i := range 64 {
		if cuts[i] {
			s += string(rune('0'+i%10)) + ","
		}
	}
	return "[" + s + "]"
}

// Claude Code's events fold the same however they are cut into requests
// and in whatever order the requests come: as one request in order.
func TestClaudeCodeBatchingLaw(t *testing.T) {
	checkBatching(t, ccTelemetry(), 400)
}

// A GenAI trace's spans fold the same however they are cut into requests
// and in whatever order they come: as one request in order.
func TestGenAIBatchingLaw(t *testing.T) {
	checkBatching(t, genTelemetry(genSpans()), 0)
}

// What one request in order gives for the Claude Code session: one run
// per prompt, each tool decision and its result one step labelled with
// what the result's tool_parameters say, the decision, usage and error
// rows, the refused Edit cancelled.
func TestClaudeCodeSessionFold(t *testing.T) {
	tr := otel.New(otel.Options{})
	tr.AddLogs(logs(ccResource, ccLawSession()...))
	ts := foldAll(t, tr.Flush(), tr.Finish())
	th := otlptest.Thread(t, ts, "claude-code/dev1/5f0c2f9e-sess")
	if r := th.Fold.Runs(); len(r) != 2 || r[0].RunID != "prompt-a" || r[1].RunID != "prompt-b" {
		t.Fatalf("runs %+v", r)
	}
	steps := th.Fold.Steps()
	want := []struct {
		label  string
		status model.Status
		run    string
	}{
		{"Ran command · go test ./...", model.StatusCompleted, "prompt-a"},
		{"Read failed", model.StatusFailed, "prompt-a"},
		{"Edit cancelled", model.StatusCancelled, "prompt-b"},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(steps), len(want), steps)
	}
	for i, w := range want {
		if s := steps[i]; s.Label() != w.label || s.Status != w.status || s.RunID != w.run {
			t.Errorf("step %d: %q %s in %s, want %+v", i+1, s.Label(), s.Status, s.RunID, w)
		}
	}
	if s := steps[0]; s.Result != "[result not recorded]" || s.DurationMS != 2990 {
		t.Errorf("Bash step: result %q, %dms", s.Result, s.DurationMS)
	}
}

func msDur(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// Nested agents (a lead that calls a helper agent through a tool, the
// helper running a researcher that fails) fold the same at every split of
// their spans into requests, in order and in the order an exporter sends
// them (each span when it ends, the innermost first), as in one request:
// the subagents that were running when a request ended are taken up again
// with their run.
func TestGenAINestedBatchingLaw(t *testing.T) {
	specs := nestedSpans()
	byEnd := inOrder(len(specs))
	slices.SortStableFunc(byEnd, func(a, b int) int { return cmp.Compare(specs[a].end, specs[b].end) })
	checkOrders(t, genTelemetry(specs), [][]int{inOrder(len(specs)), byEnd})
}

// Claude Code's spans (its traces, a beta) fold the same however they are
// cut into requests and in whatever order they come: a span waits for the
// interaction around it, which is its run.
func TestClaudeCodeSpansBatchingLaw(t *testing.T) {
	tr := "11111111111111111111111111111111"
	specs := []spanSpec{
		{trace: tr, id: "0000000000000011", name: "claude_code.interaction", start: 0, end: 3000,
			kv: []any{"session.id", "sess-2", "user_prompt", "list files"}},
		{trace: tr, id: "0000000000000012", parent: "0000000000000011", name: "claude_code.llm_request", start: 100, end: 400,
			kv: []any{"session.id", "sess-2", "model", "claude-haiku", "input_tokens", 10, "output_tokens", 3}},
		{trace: tr, id: "0000000000000013", parent: "0000000000000011", name: "claude_code.tool", start: 500, end: 2500,
			kv: []any{"session.id", "sess-2", "tool_name", "Bash", "tool_use_id", "toolu_9", "duration_ms", 2000,
				"tool_input", `{"command":"ls -la"}`}},
		{trace: tr, id: "0000000000000014", parent: "0000000000000013", name: "claude_code.tool.blocked_on_user", start: 500, end: 1500,
			kv: []any{"session.id", "sess-2", "decision", "accept", "source", "user_temporary"}},
	}
	checkBatching(t, genTelemetry(specs), 0)
}

// Codex's events fold the same at every split into requests, in order: a
// decision that opened its call in one request, and its result in the
// next, are one step with the command its arguments name. (Out of order
// they may not: a Codex turn has no id, docs/OTEL.md.)
func TestCodexBatchingSplits(t *testing.T) {
	specs := []logSpec{
		cxEvent(0, "user_prompt", "prompt", "fix the build", "prompt_length", "13"),
		cxEvent(100, "tool_decision", "tool_name", "shell", "call_id", "c1", "decision", "approved", "source", "config"),
		cxEvent(300, "tool_result", "tool_name", "shell", "call_id", "c1", "arguments", `{"command":["bash","-lc","go build ./..."]}`,
			"output", "ok", "success", "true", "duration_ms", "150"),
		cxEvent(400, "tool_result", "tool_name", "apply_patch", "call_id", "c2",
			"arguments", `{"input":"*** Begin Patch\n*** Update File: main.go\n@@\n-a\n+b\n*** End Patch"}`, "output", "done", "success", "true", "duration_ms", "3"),
		cxEvent(500, "sse_event", "event.kind", "response.completed", "input_token_count", "900", "output_token_count", "40"),
		cxEvent(600, "user_prompt", "prompt_length", "5"),
		cxEvent(700, "tool_decision", "tool_name", "shell", "call_id", "c3", "decision", "denied", "source", "user"),
	}
	checkOrders(t, telemetry{n: len(specs), send: func(tr *otel.Translator, recs []int) {
		var req []logSpec
		for _, i := range recs {
			req = append(req, specs[i])
		}
		tr.AddLogs(logs(cxResource, req...))
	}}, [][]int{inOrder(len(specs))})
}

// Two runs of one conversation that overlap (a model call of another
// trace while the nested agents run) fold the same at every split, in
// order and in an exporter's order: the run that makes way for the other
// takes its running subagents with it, and they end as their spans say
// (the researcher failed) when it is taken up again.
func TestGenAIOverlappingRunsBatchingLaw(t *testing.T) {
	specs := append(nestedSpans(), spanSpec{trace: "22222222222222222222222222222222", id: "00000000000000f1", name: "chat gpt-4o",
		start: 420, end: 450, kv: []any{"gen_ai.operation.name", "chat", "gen_ai.conversation.id", "c", "gen_ai.request.model", "gpt-4o",
			"gen_ai.usage.input_tokens", 1, "gen_ai.usage.output_tokens", 1}})
	byEnd := inOrder(len(specs))
	slices.SortStableFunc(byEnd, func(a, b int) int { return cmp.Compare(specs[a].end, specs[b].end) })
	checkOrders(t, genTelemetry(specs), [][]int{inOrder(len(specs)), byEnd})
	tr := otel.New(otel.Options{})
	tr.AddTraces(traces(genResource, specs...))
	th := otlptest.Thread(t, foldAll(t, tr.Flush(), tr.Finish()), "support-bot/h1/c")
	if s := items(th, model.ItemSubagent); len(s) != 2 || s[1].Status != model.StatusFailed {
		t.Fatalf("subagents %+v", s)
	}
}
