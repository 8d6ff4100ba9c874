package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// sessionLines prints a recorded ACP turn as `acp --plain` does, keeping
// what keep says, and returns the lines and the fold.
func sessionLines(t *testing.T, recs []model.Record, keep plainLimits) (string, *fold.Fold) {
	t.Helper()
	in := make(chan []model.Record)
	go func() {
		defer close(in)
		for i := 0; i < len(recs); i += 61 {
			in <- recs[i:min(i+61, len(recs))]
		}
	}()
	var out bytes.Buffer
	f := fold.New(fold.Options{})
	if err := printSession(&out, f, in, keep); err != nil {
		t.Fatal(err)
	}
	return out.String(), f
}

// A long headless ACP turn holds what its lines still need, and prints
// exactly what it prints holding everything.
func TestACPPlainBounded(t *testing.T) {
	const n = 3000
	var log bytes.Buffer
	if err := hostile.ACPTurn(&log, 0, n); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadACPRecording(&log)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sessionLines(t, recs, plainKeepAll)
	got, f := sessionLines(t, recs, plainDefaults)
	sameLines(t, "the bounded turn's lines", got, want)
	if !strings.Contains(got, "echo 2999") || !strings.Contains(got, "did 0") {
		t.Fatalf("the lines miss the first message or the last call:\n%s", got[max(0, len(got)-500):])
	}
	if items := len(f.Items()); items >= 2*plainDefaults.keep.Items {
		t.Errorf("the turn's fold keeps %d items, want under %d", items, 2*plainDefaults.keep.Items)
	}
	if f.StepBase() == 0 || len(f.Steps()) > 2*plainDefaults.keep.Skeletons {
		t.Errorf("the turn's fold keeps %d of %d steps", len(f.Steps()), n)
	}
}
