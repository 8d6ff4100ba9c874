package fold_test

import (
	"os"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/sources"
)

// TestThreadsLastIsTheLatestTime keeps a thread's last activity when its
// last records carry no time (a Claude Code session's summary line), read
// in one batch or record by record.
func TestThreadsLastIsTheLatestTime(t *testing.T) {
	f, err := os.Open("../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if !recs[len(recs)-1].At.IsZero() {
		t.Skip("the fixture's last record has a time: nothing to hold")
	}
	whole := fold.NewThreads(fold.Options{})
	whole.Apply("s", recs...)
	each := fold.NewThreads(fold.Options{})
	for _, r := range recs {
		each.Apply("s", r)
	}
	for name, ts := range map[string]*fold.Threads{"whole": whole, "each": each} {
		th := ts.List()[0]
		if th.Last.IsZero() || th.Last.Before(th.First) {
			t.Errorf("%s: last %v, first %v", name, th.Last, th.First)
		}
		if !th.Last.Equal(each.List()[0].Last) {
			t.Errorf("%s: last %v, record by record %v", name, th.Last, each.List()[0].Last)
		}
	}
}
