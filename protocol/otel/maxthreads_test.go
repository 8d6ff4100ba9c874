package otel_test

import (
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/protocol/otel"
)

// A Translator opens at most MaxThreads threads: telemetry of a
// conversation new past it is left out and counted, in one request or
// many, while the threads it has go on.
func TestMaxThreads(t *testing.T) {
	prompt := func(ms int, session, text string) logSpec {
		return logSpec{ms: ms, body: "claude_code.user_prompt", kv: []any{"session.id", session, "prompt.id", session + "-" + text, "prompt", text}}
	}
	res := []any{"service.name", "claude-code"}
	threads := map[string]int{}
	tr := otel.New(otel.Options{MaxThreads: 2})
	for _, specs := range [][]logSpec{{prompt(0, "a", "one"), prompt(1, "b", "one"), prompt(2, "c", "one")}, {prompt(3, "d", "one")}, {prompt(4, "a", "two"), prompt(5, "b", "two")}} {
		tr.AddLogs(logs(res, specs...))
		for _, r := range tr.Flush() {
			threads[r.Thread]++
		}
	}
	var ids []string
	for id := range threads {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{"claude-code/a", "claude-code/b"}; !slices.Equal(ids, want) {
		t.Errorf("threads %q, want %q", ids, want)
	}
	if threads["claude-code/a"] != threads["claude-code/b"] || threads["claude-code/a"] == 0 {
		t.Errorf("records per thread %v: both threads go on", threads)
	}
	if tr.LeftOut() != 2 {
		t.Errorf("left out %d, want the prompts of c and d", tr.LeftOut())
	}
}
