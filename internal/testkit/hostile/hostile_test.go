package hostile

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/sources"
)

// TestEveryKindFoldsCleanly checks that each input is a valid log: it folds
// without a problem, with the steps and messages it says it holds.
func TestEveryKindFoldsCleanly(t *testing.T) {
	want := map[string]int{"message": 0, "output": 1, "tool-calls": 50, "arg-deltas": 1, "state-deltas": 0}
	for _, kind := range Kinds {
		var buf bytes.Buffer
		if err := Write(&buf, kind, 50); err != nil {
			t.Fatal(err)
		}
		recs, err := sources.ReadAll(&buf)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		f := fold.New(fold.Options{})
		if _, err := f.Apply(recs...); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if d := f.Diagnostics(); len(d) > 0 {
			t.Errorf("%s: problems %v", kind, d)
		}
		if w := f.Warnings(); len(w) > 0 {
			t.Errorf("%s: warnings %v", kind, w)
		}
		if got := len(f.Steps()); got != want[kind] {
			t.Errorf("%s: %d steps, want %d", kind, got, want[kind])
		}
	}
	if err := Write(&bytes.Buffer{}, "nonsense", 1); err == nil {
		t.Error("an unknown kind gave no error")
	}
}
