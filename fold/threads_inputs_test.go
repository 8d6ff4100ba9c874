package fold_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/splits"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// threadsStep is one Apply of one record to a source, or a Forget of the
// source (a file that started over).
type threadsStep struct {
	source string
	rec    model.Record
	forget bool
}

// applyStep takes one step and describes the updates it returned by
// thread index, so that updates of two sets compare.
func applyStep(ts *fold.Threads, st threadsStep) string {
	if st.forget {
		return fmt.Sprintf("forgot %d", len(ts.Forget(st.source)))
	}
	var b strings.Builder
	for _, u := range ts.Apply(st.source, st.rec) {
		fmt.Fprintf(&b, "thread %d new %v items %v steps %v diagnostics %+v; ", ts.Index(u.Thread), u.New, u.Update.Items, u.Update.Steps, u.Update.Diagnostics)
	}
	return b.String()
}

// threadsState is everything a reader sees of a set: each thread's fields,
// title and fold export in list order, and the last thread.
func threadsState(t *testing.T, ts *fold.Threads) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%d threads, last %d\n", ts.Len(), ts.Index(ts.Last()))
	for i, th := range ts.List() {
		fmt.Fprintf(&b, "%d %s|%s|%d|%d-%d|%s|%s|%q|%s\n", ts.Index(th), th.Source, th.ID, th.Records, th.FirstSeq, th.LastSeq,
			stamp(th.First), stamp(th.Last), th.Title(), export(t, th.Fold))
		if ts.Index(th) != i {
			fmt.Fprintf(&b, "thread %d has index %d\n", i, ts.Index(th))
		}
	}
	return b.String()
}

// stamp is a time as an instant: JSON keeps the instant and its offset,
// not the time.Location it was made in.
func stamp(at time.Time) string {
	if at.IsZero() {
		return "zero"
	}
	return fmt.Sprint(at.UnixNano())
}

// exportThreads is the set's snapshot and its JSON.
func exportThreads(t *testing.T, ts *fold.Threads) (fold.ThreadsSnapshot, []byte) {
	t.Helper()
	snap, err := ts.Export()
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return snap, wire
}

// restoreThreads reads a snapshot's JSON back into a new set, and checks
// it exports to the same bytes.
func restoreThreads(t *testing.T, wire []byte) *fold.Threads {
	t.Helper()
	var back fold.ThreadsSnapshot
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	ts, err := fold.RestoreThreads(back, fold.Options{})
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if _, again := exportThreads(t, ts); !bytes.Equal(again, wire) {
		t.Fatalf("a restored set exports differently:\n%s\n%s", fuzzClip(again, 2000), fuzzClip(wire, 2000))
	}
	return ts
}

func oneSource(source string, recs []model.Record) []threadsStep {
	out := make([]threadsStep, len(recs))
	for i, r := range recs {
		out[i] = threadsStep{source: source, rec: r}
	}
	return out
}

// interleave takes from a and b in turn, 1, 2, 3, 1, 2, 3… steps at a time.
func interleave(a, b []threadsStep) []threadsStep {
	var out []threadsStep
	for n := 0; len(a)+len(b) > 0; n++ {
		take := min(len(a), 1+n%3)
		out, a = append(out, a[:take]...), a[take:]
		take = min(len(b), 1+(n+1)%3)
		out, b = append(out, b[:take]...), b[take:]
	}
	return out
}

func lines(t *testing.T, ls ...string) []model.Record {
	t.Helper()
	return readAll(t, strings.NewReader(strings.Join(ls, "\n")+"\n"))
}

func acpLines(t *testing.T, ls ...string) []model.Record {
	t.Helper()
	recs, err := sources.ReadACPRecording(strings.NewReader(strings.Join(ls, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// threadsInputs are the logs the threads' checkpoint law is checked on:
// the fixtures with ACP records (no fixture has several threads), a
// generated log of many threads, logs made to reach each rule of the
// routing (overlapping runs, records that name their thread, ACP sessions
// and requests in flight), and several sources interleaved, one of them
// forgotten and started over.
func threadsInputs(t *testing.T) map[string][]threadsStep {
	t.Helper()
	out := map[string][]threadsStep{}
	all := fixtures(t)
	for name, recs := range all {
		for _, r := range recs {
			if r.Proto == model.ProtoACP {
				out[name] = oneSource(name, recs)
				break
			}
		}
	}
	gen := readAll(t, bytes.NewReader(loggen.GenerateThreads(400, 3, 9)))
	out["generated"] = oneSource("s", gen)

	routing := lines(t,
		`{"type":"CUSTOM","name":"early","value":1}`,
		`{"type":"RUN_STARTED","threadId":"a","runId":"a1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"first\nquestion"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"RUN_FINISHED","threadId":"a","runId":"a1"}`,
		`{"type":"CUSTOM","name":"between","value":2}`,
		`{"type":"RUN_STARTED","threadId":"b","runId":"b1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`,
		`{"type":"RUN_STARTED","threadId":"a","runId":"a2","parentRunId":"a1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m3","delta":"x"}`,
		`{"type":"RUN_ERROR","message":"boom"}`,
		`{"type":"CUSTOM","name":"after","value":3}`,
		`{"type":"RUN_FINISHED","threadId":"b","runId":"b1"}`,
		`{"type":"RUN_STARTED","threadId":"c","runId":"c1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m4","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m4","delta":"third"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m4"}`,
	)
	out["routing"] = oneSource("f", routing)

	var named []model.Record
	for i, l := range []struct{ thread, raw string }{
		{"a", `{"type":"RUN_STARTED","threadId":"a","runId":"a1"}`},
		{"b", `{"type":"RUN_STARTED","threadId":"b","runId":"b1"}`},
		{"a", `{"type":"TOOL_CALL_START","toolCallId":"t1","toolCallName":"Bash"}`},
		{"b", `{"type":"TOOL_CALL_START","toolCallId":"t2","toolCallName":"Read"}`},
		{"", `{"type":"CUSTOM","name":"unnamed","value":1}`},
		{"a", `{"type":"TOOL_CALL_END","toolCallId":"t1"}`},
		{"b", `{"type":"TOOL_CALL_END","toolCallId":"t2"}`},
		{"b", `{"type":"RUN_FINISHED","threadId":"b","runId":"b1"}`},
		{"a", `{"type":"RUN_FINISHED","threadId":"a","runId":"a1"}`},
	} {
		r := event(uint64(i+1), l.raw)
		r.Thread = l.thread
		named = append(named, r)
	}
	out["named"] = oneSource("otlp", named)

	sessions := acpLines(t,
		`{"t":1764700000000,"dir":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}`,
		`{"t":1764700000010,"dir":"recv","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}`,
		`{"t":1764700000020,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
		`{"t":1764700000030,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}}`,
		`{"t":1764700000040,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"one"}]}}}`,
		`{"t":1764700000050,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"first"}}}}}`,
		`{"t":1764700000060,"dir":"send","msg":{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
		`{"t":1764700000070,"dir":"recv","msg":{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s2"}}}`,
		`{"t":1764700000080,"dir":"send","msg":{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s2","prompt":[{"type":"text","text":"two"}]}}}`,
		`{"t":1764700000085,"dir":"recv","msg":{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s2","toolCall":{"toolCallId":"c1","title":"rm"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}}`,
		`{"t":1764700000090,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"second"}}}}}`,
		`{"t":1764700000100,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" more"}}}}}`,
		`{"t":1764700000105,"dir":"send","msg":{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}}`,
		`{"t":1764700000110,"dir":"recv","msg":{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}}`,
		`{"t":1764700000120,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}`,
		`{"t":1764700000130,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"nobody","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"stray"}}}}}`,
	)
	out["acp sessions"] = oneSource("rec.jsonl", sessions)

	small := readAll(t, bytes.NewReader(loggen.GenerateThreads(150, 3, 5)))
	out["two sources"] = interleave(oneSource("x.jsonl", small), oneSource("y.jsonl", all["acp/coding-session.jsonl"]))
	out["two sources, same ids"] = interleave(oneSource("a.jsonl", small), oneSource("b.jsonl", routing))
	// a.jsonl is truncated halfway and written again from its start.
	half := len(small) / 2
	restart := append(oneSource("a.jsonl", small[:half]), threadsStep{source: "a.jsonl", forget: true})
	restart = append(restart, oneSource("a.jsonl", small)...)
	out["forget"] = interleave(oneSource("b.jsonl", sessions), restart)
	return out
}

// stepSplits are the split points the law is checked at: every one of a
// short input; in a longer one, the first step of each kind (a record's
// event, or a Forget) with its neighbours, and a stride between
// (splits.Points).
func stepSplits(steps []threadsStep) []int {
	seen := map[string]bool{}
	var marks []int
	for i, st := range steps {
		kind := "forget"
		if !st.forget {
			kind = splits.Kind(st.rec)
		}
		if !seen[kind] {
			seen[kind] = true
			marks = append(marks, i+1)
		}
	}
	return splits.Points(len(steps), marks...)
}
