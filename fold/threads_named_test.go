package fold_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Records that name their thread go to it, so two threads' runs may be
// open at once in one source without a thread-overlap problem, and each
// thread folds as its records alone.
func TestThreadsNamedByRecord(t *testing.T) {
	named := func(seq uint64, thread, raw string) model.Record {
		r := event(seq, raw)
		r.Thread = thread
		return r
	}
	recs := []model.Record{
		named(1, "a", `{"type":"RUN_STARTED","threadId":"a","runId":"a1"}`),
		named(2, "b", `{"type":"RUN_STARTED","threadId":"b","runId":"b1"}`),
		named(3, "a", `{"type":"TOOL_CALL_START","toolCallId":"t1","toolCallName":"Bash"}`),
		named(4, "b", `{"type":"TOOL_CALL_START","toolCallId":"t2","toolCallName":"Read"}`),
		named(5, "a", `{"type":"TOOL_CALL_END","toolCallId":"t1"}`),
		named(6, "b", `{"type":"TOOL_CALL_END","toolCallId":"t2"}`),
		named(7, "b", `{"type":"RUN_FINISHED","threadId":"b","runId":"b1"}`),
		named(8, "a", `{"type":"RUN_FINISHED","threadId":"a","runId":"a1"}`),
	}
	for _, batch := range [][][]model.Record{{recs}, {recs[:3], recs[3:]}, {recs[:1], recs[1:5], recs[5:]}} {
		ts := fold.NewThreads(fold.Options{})
		for _, b := range batch {
			ts.Apply("otlp", b...)
		}
		if ts.Len() != 2 {
			t.Fatalf("%d threads, want 2", ts.Len())
		}
		for i, want := range []struct {
			id   string
			tool string
		}{{"a", "Bash"}, {"b", "Read"}} {
			th := ts.List()[i]
			if th.ID != want.id || len(th.Fold.Diagnostics()) != 0 {
				t.Fatalf("thread %d: id %q, diagnostics %v", i, th.ID, th.Fold.Diagnostics())
			}
			if r := th.Fold.Runs(); len(r) != 1 || r[0].Status != model.StatusCompleted {
				t.Fatalf("thread %s: runs %+v", th.ID, r)
			}
			if s := th.Fold.Steps(); len(s) != 1 || s[0].ToolName != want.tool {
				t.Fatalf("thread %s: steps %+v", th.ID, s)
			}
		}
	}
}
