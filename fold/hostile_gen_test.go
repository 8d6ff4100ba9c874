package fold_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// The inputs that once made the fold quadratic, generated for the
// benchmarks (hostile_bench_test.go) and the linearity tests
// (linear_test.go): internal/testkit/hostile's kinds, and deeply nested state.

// hostileRecords is internal/testkit/hostile's input of kind with n parts, read as
// a source reads it.
func hostileRecords(tb testing.TB, kind string, n int) []model.Record {
	tb.Helper()
	var buf bytes.Buffer
	if err := hostile.Write(&buf, kind, n); err != nil {
		tb.Fatal(err)
	}
	return readRecords(tb, &buf)
}

// parallelCallRecords is one assistant message with n tool calls, all
// started before any ends, then their results: what an agent that calls
// tools in parallel sends.
func parallelCallRecords(tb testing.TB, n int) []model.Record {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n")
	b.WriteString(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}` + "\n")
	b.WriteString(`{"type":"TEXT_MESSAGE_END","messageId":"m1"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"read","parentMessageId":"m1"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{\"path\":\"f%d\"}"}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"%d"}`+"\n", i, i, i)
	}
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` + "\n")
	return readRecords(tb, strings.NewReader(b.String()))
}

// deepValue is an object nested depth levels deep: {"a":{"a":…0…}}.
func deepValue(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "0" + strings.Repeat("}", depth)
}

// deepPatchRecords is pairs of a state snapshot nested depth levels deep
// and a delta that replaces its innermost value.
func deepPatchRecords(tb testing.TB, pairs, depth int) []model.Record {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n")
	path := strings.Repeat("/a", depth)
	for i := range pairs {
		fmt.Fprintf(&b, `{"type":"STATE_SNAPSHOT","snapshot":%s}`+"\n", deepValue(depth))
		fmt.Fprintf(&b, `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"%s","value":%d}]}`+"\n", path, i+1)
	}
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` + "\n")
	return readRecords(tb, strings.NewReader(b.String()))
}

// deepeningRecords is n deltas that each nest the state one level deeper.
func deepeningRecords(tb testing.TB, n int) []model.Record {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n")
	b.WriteString(`{"type":"STATE_SNAPSHOT","snapshot":{}}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"%s/a","value":{}}]}`+"\n", strings.Repeat("/a", i))
	}
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` + "\n")
	return readRecords(tb, strings.NewReader(b.String()))
}

func readRecords(tb testing.TB, r io.Reader) []model.Record {
	tb.Helper()
	recs, err := sources.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// foldAsCLI folds recs as `agentwatch fold` does: through Threads, in
// batches as a file is read, then writes the summary of the first thread.
func foldAsCLI(tb testing.TB, recs []model.Record) *fold.Fold {
	tb.Helper()
	ts := fold.NewThreads(fold.Options{})
	for i := 0; i < len(recs); i += benchBatch {
		ts.Apply("hostile", recs[i:min(i+benchBatch, len(recs))]...)
	}
	if ts.Len() == 0 {
		tb.Fatal("no thread")
	}
	f := ts.List()[0].Fold
	if err := json.MarshalWrite(io.Discard, f.Summary(), json.Deterministic(true)); err != nil {
		tb.Fatal(err)
	}
	return f
}

// openCallRecords is n tool calls of one message all open at once: every
// start, then every call's arguments, then every end and every result.
func openCallRecords(tb testing.TB, n int) []model.Record {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"read","parentMessageId":"m1"}`+"\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{\"path\":\"f%d\"}"}`+"\n", i, i)
	}
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"%d"}`+"\n", i, i, i)
	}
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` + "\n")
	return readRecords(tb, strings.NewReader(b.String()))
}

// deltaRecords is one message whose content streams in n deltas, of the
// given kind: TEXT_MESSAGE or REASONING_MESSAGE.
func deltaRecords(tb testing.TB, kind string, n int) []model.Record {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n")
	role := "assistant"
	if kind == "REASONING_MESSAGE" {
		role = "reasoning"
	}
	fmt.Fprintf(&b, `{"type":"%s_START","messageId":"m1","role":"%s"}`+"\n", kind, role)
	for range n {
		fmt.Fprintf(&b, `{"type":"%s_CONTENT","messageId":"m1","delta":"tok "}`+"\n", kind)
	}
	fmt.Fprintf(&b, `{"type":"%s_END","messageId":"m1"}`+"\n", kind)
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` + "\n")
	return readRecords(tb, strings.NewReader(b.String()))
}
