package fold_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// TestTooDeepEventIsAProblem: an event nested deeper than agui.MaxDepth
// becomes a problem row that names the limit, and the fold goes on.
func TestTooDeepEventIsAProblem(t *testing.T) {
	past := strings.Repeat(`[`, agui.MaxDepth) + strings.Repeat(`]`, agui.MaxDepth)
	f := fold.New(fold.Options{})
	fuzzApply(t, f, readAll(t, strings.NewReader(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"CUSTOM","name":"deep","value":`+past+`}
{"type":"STATE_SNAPSHOT","snapshot":{"ok":true}}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}
`))...)
	d := f.Diagnostics()
	if len(d) != 1 || d[0].Seq != 2 || d[0].Rule != fold.RuleTooDeep ||
		d[0].Message != "CUSTOM: nested too deeply: its JSON is 1001 levels deep, and agentwatch reads at most 1000" {
		t.Fatalf("diagnostics %+v", d)
	}
	if got := string(f.State()); got != `{"ok":true}` {
		t.Errorf("state %s: the fold did not go on", got)
	}
}

// TestTooDeepStateIsAProblem: a STATE_DELTA that would nest the state
// deeper than agui.MaxDepth is refused as a problem and changes nothing;
// the deltas around it apply.
func TestTooDeepStateIsAProblem(t *testing.T) {
	recs := deepeningRecords(t, agui.MaxDepth+1) // the 1,000th delta nests 1,001 levels
	f := fold.New(fold.Options{})
	fuzzApply(t, f, recs...)
	d := f.Diagnostics()
	want := "STATE_DELTA: the state would be nested 1001 levels deep; agentwatch keeps state up to 1000 levels"
	if len(d) != 1 || d[0].Seq != uint64(2+agui.MaxDepth) || d[0].Rule != fold.RuleTooDeep || d[0].Message != want {
		t.Fatalf("diagnostics %+v", d)
	}
	// The next delta finds the state as it was: a level short of its path.
	w := f.Warnings()
	if len(w) != 1 || w[0].Seq != d[0].Seq+1 || !strings.HasPrefix(w[0].Message, "Failed to apply state patch: add operation does not apply") {
		t.Errorf("warnings %+v", w)
	}
	if got := agui.Depth(f.State()); got != agui.MaxDepth {
		t.Errorf("state %d levels deep, want %d", got, agui.MaxDepth)
	}
}
