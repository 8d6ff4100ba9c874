package serve

// This file holds a growing AG-UI log for the tests: one run whose steps
// are commands named probe-1, probe-2, …

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// growingLog is an event log file a test appends steps to.
type growingLog struct {
	t     testing.TB
	path  string
	steps int
}

// newGrowingLog writes a log of one run with steps steps.
func newGrowingLog(t testing.TB, dir string, steps int) *growingLog {
	t.Helper()
	g := &growingLog{t: t, path: filepath.Join(dir, "run.jsonl")}
	head := `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1","timestamp":1764321247000}` + "\n" +
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","timestamp":1764321247001}` + "\n" +
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Working through the probes.","timestamp":1764321247002}` + "\n" +
		`{"type":"TEXT_MESSAGE_END","messageId":"m1","timestamp":1764321247003}` + "\n"
	if err := os.WriteFile(g.path, []byte(head), 0o600); err != nil {
		t.Fatal(err)
	}
	g.add(steps)
	return g
}

// add appends n finished steps, in one write.
func (g *growingLog) add(n int) {
	g.t.Helper()
	var b strings.Builder
	for range n {
		g.steps++
		b.WriteString(stepEvents(g.steps))
	}
	f, err := os.OpenFile(g.path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		g.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		g.t.Fatal(err)
	}
}

// stepEvents are the events of step k: a command echo probe-k that
// prints a few lines and succeeds.
func stepEvents(k int) string {
	id := fmt.Sprintf("call-%d", k)
	ts := 1764321248000 + int64(k)*1000
	cmd := fmt.Sprintf("echo probe-%d", k)
	var out strings.Builder
	for i := range 12 {
		fmt.Fprintf(&out, `probe-%d line %d\n`, k, i+1)
	}
	return fmt.Sprintf(`{"type":"TOOL_CALL_START","toolCallId":"%s","toolCallName":"bash","parentMessageId":"m1","metadata":{"category":"execute","location":"%s"},"timestamp":%d}`+"\n"+
		`{"type":"TOOL_CALL_ARGS","toolCallId":"%s","delta":"{\"command\":\"%s\"}","timestamp":%d}`+"\n"+
		`{"type":"TOOL_CALL_END","toolCallId":"%s","timestamp":%d}`+"\n"+
		`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"%s","content":"%s","role":"tool","timestamp":%d}`+"\n",
		id, cmd, ts, id, cmd, ts+10, id, ts+20, k, id, out.String(), ts+300)
}

// stepOf is what the panel says when step k of n is shown.
func stepOf(k, n int) string { return fmt.Sprintf("step %d of %d", k, n) }
