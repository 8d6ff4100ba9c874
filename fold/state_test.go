package fold_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// stateLog is a run with a state and deltas that apply, fail half way,
// are not patches at all, or move and copy what a checkpoint shares.
var stateLog = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
	`{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,2,3],"b":{"c":null},"~/":1,"s":"x"}}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-","value":4},{"op":"test","path":"/a/0","value":2}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-","value":4},{"op":"test","path":"/a/0","value":1}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"move","from":"/b","path":"/b/c"}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/a","path":"/a/1"}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"remove","path":""}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/~01/~10/x","value":1}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"frobnicate","path":"/a"}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/99999999999999999999","value":1}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-1","value":1},{"op":"remove","path":"/a/01"}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/o","value":{"k":[{"deep":true}]}}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/o/k/0/more","value":1},{"op":"remove","path":"/s"}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"move","from":"/o/k","path":"/k"},{"op":"add","path":"/k/-","value":null}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"test","path":"/k","value":[{"deep":true,"more":1},null]}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"","value":{"whole":[]}}]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/whole/-","value":"after the library"}]}`,
	`{"type":"STATE_DELTA","delta":[]}`,
	`{"type":"STATE_SNAPSHOT","snapshot":"just a string"}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/x","value":1}]}`,
	`{"type":"STATE_SNAPSHOT","snapshot":[]}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/-","value":{"x":1}},{"op":"add","path":"/0/y","value":2}]}`,
	`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
}

// stateLikeTheLibrary is what the fold made of stateLog before its state
// was patched in place: each delta handed to the patch library with the
// state as JSON, a failure a warning.
func stateLikeTheLibrary(t *testing.T, log []string) (state string, warnings []string) {
	t.Helper()
	doc := jsontext.Value("{}")
	for i, line := range log {
		switch ev := agui.Decode([]byte(line)).(type) {
		case *agui.StateSnapshot:
			doc = ev.Snapshot
		case *agui.StateDelta:
			out, err := agui.ApplyPatch(doc, ev.Delta)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("#%d Failed to apply state patch: %v", i+1, err))
				continue
			}
			doc = out
		}
	}
	return canonicalJSON(t, doc), warnings
}

func canonicalJSON(t *testing.T, v jsontext.Value) string {
	t.Helper()
	c := v.Clone()
	if err := c.Canonicalize(); err != nil {
		t.Fatalf("%s: %v", v, err)
	}
	return string(c)
}

// TestStateLikeTheLibrary: the state patched in place ends where the
// library took it, with the library's warnings, however the log is cut
// by checkpoints (which share the state copy-on-write).
func TestStateLikeTheLibrary(t *testing.T) {
	wantState, wantWarnings := stateLikeTheLibrary(t, stateLog)
	recs := readAll(t, strings.NewReader(strings.Join(stateLog, "\n")))
	check := func(f *fold.Fold, when string) {
		t.Helper()
		var got []string
		for _, w := range f.Warnings() {
			got = append(got, fmt.Sprintf("#%d %s", w.Seq, w.Message))
		}
		if strings.Join(got, "\n") != strings.Join(wantWarnings, "\n") {
			t.Errorf("%s: warnings\n%s\nwant\n%s", when, strings.Join(got, "\n"), strings.Join(wantWarnings, "\n"))
		}
		if s := canonicalJSON(t, f.State()); s != wantState {
			t.Errorf("%s: state %s, want %s", when, s, wantState)
		}
	}
	whole := fold.New(fold.Options{})
	fuzzApply(t, whole, recs...)
	check(whole, "folded at once")
	for k := range recs {
		head := fold.New(fold.Options{})
		fuzzApply(t, head, recs[:k]...)
		cp := head.Checkpoint()
		before := string(fold.FromCheckpoint(cp, fold.Options{}).State())
		fuzzApply(t, head, recs[k:]...)
		check(head, fmt.Sprintf("folded on after a checkpoint at %d", k))
		resumed := fold.FromCheckpoint(cp, fold.Options{})
		if got := string(resumed.State()); got != before {
			t.Fatalf("checkpoint at %d: its state changed from %s to %s as the fold went on", k, before, got)
		}
		fuzzApply(t, resumed, recs[k:]...)
		check(resumed, fmt.Sprintf("restored from the checkpoint at %d", k))
	}
}
