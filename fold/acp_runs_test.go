package fold_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// An ACP run's id is its prompt's JSON-RPC id, which counts every request
// of the connection (2, 4, 5, …); people see the runs numbered in the
// session from 1. The ids stay: answers and steps name runs by them. A
// fold restored from an export numbers on from where it was.
func TestACPRunsNumbered(t *testing.T) {
	fh, err := os.Open("../testdata/acp/coding-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := sources.ReadACPRecording(fh)
	if err != nil {
		t.Fatal(err)
	}
	wantIDs := []string{"2", "4", "5", "6", "7"}
	check := func(what string, f *fold.Fold) {
		t.Helper()
		runs := f.Runs()
		if len(runs) != len(wantIDs) {
			t.Fatalf("%s: %d runs", what, len(runs))
		}
		for i, r := range runs {
			if r.RunID != wantIDs[i] || r.Number != i+1 || r.Name() != strconv.Itoa(i+1) {
				t.Errorf("%s: run %d is id %q number %d name %q, want id %q named %d", what, i, r.RunID, r.Number, r.Name(), wantIDs[i], i+1)
			}
		}
	}
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	check("folded", whole)

	half := len(recs) / 2
	first := fold.New(fold.Options{})
	first.Apply(recs[:half]...)
	rest := throughJSON(t, first)
	rest.Apply(recs[half:]...)
	check(fmt.Sprintf("restored after record %d", half), rest)

	// AG-UI runs have ids people chose: they are named by them.
	if n := (&model.Run{RunID: "r2"}).Name(); n != "r2" {
		t.Errorf("an AG-UI run is named %q", n)
	}
}
