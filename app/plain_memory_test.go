package app

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// plainOf prints log as --plain does, keeping what mem says, and returns
// the lines and the threads.
func plainOf(t *testing.T, log []byte, mem *plainMemory) (string, *fold.Threads) {
	t.Helper()
	var out bytes.Buffer
	ts := fold.NewThreads(fold.Options{})
	in := make(chan model.Batch)
	done := make(chan error, 1)
	go func() { done <- printLinesKeeping(&Options{Stdout: &out}, ts, in, false, mem) }()
	r := sources.NewReader(bytes.NewReader(log))
	var batch []model.Record
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if batch = append(batch, rec); len(batch) == 97 {
			in <- model.Batch{Source: "log", Records: batch}
			batch = nil
		}
	}
	in <- model.Batch{Source: "log", Records: batch}
	close(in)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return out.String(), ts
}

// sameLines fails t when got is not want, showing where they part.
func sameLines(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Fatalf("%s differ at byte %d of %d (want %d):\n got …%s…\nwant …%s…",
		what, i, len(got), len(want), got[max(0, i-200):min(len(got), i+200)], want[max(0, i-200):min(len(want), i+200)])
}

// --plain holding little (shedding, forgetting, retiring quiet threads)
// prints exactly the lines it prints holding everything, on a log of many
// threads whose runs take turns and resend their thread's conversation.
func TestPlainBoundedPrintsTheSame(t *testing.T) {
	log := loggen.GenerateThreads(30_000, 12, 3)
	want, _ := plainOf(t, log, newPlainMemory(plainKeepAll))
	small := newPlainMemory(plainLimits{keep: fold.Keep{Items: 8, Content: 2, Skeletons: 4, Tombstones: fold.TombstonesRecent}, retireAfter: 900, retireEvery: 64})
	got, ts := plainOf(t, log, small)
	sameLines(t, "bounded --plain", got, want)
	forgot := 0
	for _, th := range ts.List() {
		forgot += th.Fold.StepBase()
	}
	if small.retired == 0 || forgot == 0 {
		t.Fatalf("the test retired %d threads and forgot %d steps: it checks nothing", small.retired, forgot)
	}
	t.Logf("%d lines; %d threads retired, %d steps forgotten", bytes.Count([]byte(got), []byte("\n")), small.retired, forgot)
}
