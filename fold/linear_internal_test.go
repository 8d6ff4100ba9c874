package fold

import (
	"fmt"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The tool-call lookups once searched lists that grow with the log: the
// run's calls, the conversation, a message's calls, the verifier's open
// calls. These tests count the entries searches look at (searched), which
// needs no clock: per call, it must not grow with the number of calls.

// callLog is n tool calls of one run, as lines: each alone (start, args,
// end, result), or all of one message one after the other, or all open
// at once.
func callLog(shape string, n int) []model.Record {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	add(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	call := func(i int, part string) {
		switch part {
		case "start":
			parent := ""
			if shape != "alone" {
				parent = `,"parentMessageId":"m"`
			}
			add(`{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"read"%s}`, i, parent)
		case "args":
			add(`{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{}"}`, i)
		case "end":
			add(`{"type":"TOOL_CALL_END","toolCallId":"c%d"}`, i)
		case "result":
			add(`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"ok"}`, i, i)
		}
	}
	parts := []string{"start", "args", "end", "result"}
	switch shape {
	case "open": // every start, then every delta, and so on
		for _, p := range parts {
			for i := range n {
				call(i, p)
			}
		}
	case "one message": // each call whole, then every result
		for i := range n {
			for _, p := range parts[:3] {
				call(i, p)
			}
		}
		for i := range n {
			call(i, "result")
		}
	default:
		for i := range n {
			for _, p := range parts {
				call(i, p)
			}
		}
	}
	add(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	recs := make([]model.Record, len(lines))
	for i, ln := range lines {
		recs[i] = model.Record{Seq: uint64(i + 1), Proto: model.ProtoAGUI, Raw: []byte(ln), Event: agui.Decode([]byte(ln))}
	}
	return recs
}

// searchedPerCall folds recs in batches, as a file is read, and returns
// the entries searched per call.
func searchedPerCall(t *testing.T, recs []model.Record, n int) float64 {
	t.Helper()
	f := New(Options{})
	for i := 0; i < len(recs); i += 512 {
		f.apply(recs[i:min(i+512, len(recs))], nil)
	}
	if d := f.Diagnostics(); len(d) > 0 {
		t.Fatalf("problems: %v", d[0])
	}
	if len(f.Steps()) != n {
		t.Fatalf("%d steps, want %d", len(f.Steps()), n)
	}
	return float64(f.st.Reduce.searched+f.st.Verify.searched) / float64(n)
}

func TestToolCallLookupsStayConstant(t *testing.T) {
	const n = 1_000
	for _, shape := range []string{"alone", "one message", "open"} {
		small := searchedPerCall(t, callLog(shape, n), n)
		big := searchedPerCall(t, callLog(shape, 10*n), 10*n)
		t.Logf("%s: %.1f entries searched per call at %d calls, %.1f at %d", shape, small, n, big, 10*n)
		if big > 2*small+4 {
			t.Errorf("%s: %.1f entries searched per call at %d calls, %.1f at %d: lookups grow with the log", shape, small, n, big, 10*n)
		}
	}
}
