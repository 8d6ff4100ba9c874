package fold_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/fold/agui"
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
