package fold

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// A run's end closes what the run left open. Walking the whole thread to
// find it made a thread of many runs quadratic: every run's end looked at
// every item and step before it. These tests count the entries the fold
// looks at per event (visited, searched), which needs no clock: it must
// not grow with the number of runs before.

// runsLog is one thread of n runs, each a prompt, reasoning, a reply, a
// tool call with its result and a phase; every seventh run fails with
// its reply still open, for the run's end to close.
func runsLog(n int) []model.Record {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for i := range n {
		add(`{"type":"RUN_STARTED","threadId":"t","runId":"r%d","input":{"threadId":"t","runId":"r%d","messages":[{"id":"u%d","role":"user","content":"go"}]}}`, i, i, i)
		add(`{"type":"STEP_STARTED","stepName":"plan"}`)
		add(`{"type":"REASONING_START","messageId":"k%d"}`, i)
		add(`{"type":"REASONING_MESSAGE_START","messageId":"k%d","role":"reasoning"}`, i)
		add(`{"type":"REASONING_MESSAGE_CONTENT","messageId":"k%d","delta":"hmm"}`, i)
		add(`{"type":"REASONING_MESSAGE_END","messageId":"k%d"}`, i)
		add(`{"type":"REASONING_END","messageId":"k%d"}`, i)
		add(`{"type":"TEXT_MESSAGE_START","messageId":"m%d","role":"assistant"}`, i)
		add(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d","delta":"on it"}`, i)
		add(`{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"read","parentMessageId":"m%d"}`, i, i)
		add(`{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{}"}`, i)
		add(`{"type":"TOOL_CALL_END","toolCallId":"c%d"}`, i)
		add(`{"type":"TOOL_CALL_RESULT","messageId":"res%d","toolCallId":"c%d","content":"ok"}`, i, i)
		if i%7 == 3 {
			add(`{"type":"RUN_ERROR","message":"boom"}`)
			continue
		}
		add(`{"type":"TEXT_MESSAGE_END","messageId":"m%d"}`, i)
		add(`{"type":"STEP_FINISHED","stepName":"plan"}`)
		add(`{"type":"RUN_FINISHED","threadId":"t","runId":"r%d"}`, i)
	}
	recs := make([]model.Record, len(lines))
	for i, ln := range lines {
		recs[i] = model.Record{Seq: uint64(i + 1), Proto: model.ProtoAGUI, Raw: []byte(ln), Event: agui.Decode([]byte(ln))}
	}
	return recs
}

// acpTurnsLog is an ACP session of n prompt turns, each running a command
// in a client terminal that the agent polls three times.
func acpTurnsLog(n int) []model.Record {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	upd := func(format string, args ...any) {
		add(`recv {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":`+format+`}}`, args...)
	}
	for i := range n {
		add(`send {"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"test"}]}}`, i)
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t%d","title":"go test","kind":"execute","status":"in_progress"}`, i)
		add(`recv {"jsonrpc":"2.0","id":%d,"method":"terminal/create","params":{"sessionId":"s","command":"go"}}`, 10*i)
		add(`send {"jsonrpc":"2.0","id":%d,"result":{"terminalId":"term-%d"}}`, 10*i, i)
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t%d","content":[{"type":"terminal","terminalId":"term-%d"}]}`, i, i)
		for p := 1; p <= 3; p++ {
			add(`recv {"jsonrpc":"2.0","id":%d,"method":"terminal/output","params":{"sessionId":"s","terminalId":"term-%d"}}`, 10*i+p, i)
			add(`send {"jsonrpc":"2.0","id":%d,"result":{"output":"ok %d\n","truncated":false}}`, 10*i+p, p)
		}
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t%d","status":"completed"}`, i)
		add(`recv {"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn"}}`, i)
	}
	recs := make([]model.Record, len(lines))
	for i, l := range lines {
		dir, msg, _ := strings.Cut(l, " ")
		recs[i] = model.Record{Seq: uint64(i + 1), Proto: model.ProtoACP, Raw: []byte(msg), Event: acp.DecodeDir([]byte(msg), acp.Direction(dir))}
	}
	return recs
}

// visitedPerEvent folds recs in batches, as a file is read, and returns the
// entries the fold looked at per event. With checkpoints it takes one
// every 4096 records and goes on from it, as a replay's timeline does.
func visitedPerEvent(t *testing.T, recs []model.Record, runs int, checkpoints bool) float64 {
	t.Helper()
	f := New(Options{})
	looked := func() int { return f.st.Display.visited + f.st.Reduce.searched + f.st.Verify.searched }
	visited := 0
	for i := 0; i < len(recs); i += 512 {
		before := looked()
		f.apply(recs[i:min(i+512, len(recs))], nil)
		visited += looked() - before
		if checkpoints && (i/512)%8 == 7 {
			f = FromCheckpoint(f.Checkpoint(), Options{})
		}
	}
	if d := f.Diagnostics(); len(d) > 0 {
		t.Fatalf("problems: %v", d[0])
	}
	if got := len(f.Runs()); got != runs {
		t.Fatalf("%d runs, want %d", got, runs)
	}
	return float64(visited) / float64(len(recs))
}

func TestRunEndsStayConstant(t *testing.T) {
	const n = 400
	for _, tc := range []struct {
		name        string
		log         func(int) []model.Record
		checkpoints bool
	}{
		{"AG-UI", runsLog, false},
		{"AG-UI, checkpoints", runsLog, true},
		{"ACP terminals", acpTurnsLog, false},
	} {
		small := visitedPerEvent(t, tc.log(n), n, tc.checkpoints)
		big := visitedPerEvent(t, tc.log(10*n), 10*n, tc.checkpoints)
		t.Logf("%s: %.1f entries looked at per event at %d runs, %.1f at %d", tc.name, small, n, big, 10*n)
		if big > 1.5*small+2 {
			t.Errorf("%s: %.1f entries looked at per event at %d runs, %.1f at %d: an event looks at the runs before it",
				tc.name, small, n, big, 10*n)
		}
	}
}

// BenchmarkRunEnds folds a thread of 10,000 runs and reports the entries
// looked at per event, the figure TestRunEndsStayConstant holds flat:
//
//	go test ./fold/ -run '^$' -bench RunEnds -benchtime 3x
func BenchmarkRunEnds(b *testing.B) {
	const runs = 10_000
	recs := runsLog(runs)
	var f *Fold
	for b.Loop() {
		f = New(Options{})
		for i := 0; i < len(recs); i += 512 {
			f.apply(recs[i:min(i+512, len(recs))], nil)
		}
	}
	st := &f.st
	b.ReportMetric(float64(st.Display.visited+st.Reduce.searched+st.Verify.searched)/float64(len(recs)), "looked/event")
	b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "events/s")
}
