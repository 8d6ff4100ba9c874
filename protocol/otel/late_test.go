package otel_test

import (
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// Live, a span that comes after its run ended still shows: in that run,
// taken up again and ended again, without a protocol problem; a span for
// a step that has its result already changes nothing.
func TestLateSpans(t *testing.T) {
	specs := genSpans()
	tr := otel.New(otel.Options{})
	tr.AddTraces(traces(genResource, specs[0], specs[1], specs[4]))
	first := tr.Flush()
	tr.AddTraces(traces(genResource, specs[2]))
	late := tr.Flush()
	tr.AddTraces(traces(genResource, specs[2]))
	again := tr.Flush()
	if len(again) != 0 {
		t.Fatalf("a step's span sent twice made %d records", len(again))
	}
	ts := foldAll(t, first, late)
	th := otlptest.Thread(t, ts, "support-bot/h1/conv-1")
	runs := th.Fold.Runs()
	if len(runs) != 1 || runs[0].RunID != genTrace || runs[0].Status != model.StatusCompleted || !runs[0].Ended.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("runs %+v", runs)
	}
	if s := th.Fold.Steps(); len(s) != 1 || s[0].ToolCallID != "call_1" || s[0].Status != model.StatusCompleted || s[0].DurationMS != 2000 ||
		s[0].RunID != genTrace {
		t.Fatalf("steps %+v", s)
	}
}
