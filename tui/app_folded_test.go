package tui

import (
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// How far a screen has folded a file is known exactly, or not at all: a
// batch cut in two says its end only once both halves are folded, and a
// source that started over is no longer known.
func TestFoldedUpTo(t *testing.T) {
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), nil, AppOptions{})
	if _, _, ok := a.foldedUpTo("f"); ok {
		t.Fatal("known before anything was folded")
	}
	a.onBatches(batchesMsg{{Source: "f", Records: numbered(1, 5), End: 500}})
	if end, seq, ok := a.foldedUpTo("f"); !ok || end != 500 || seq != 5 {
		t.Fatalf("after a whole batch: %d, %d, %v; want 500, 5, true", end, seq, ok)
	}
	now, rest := cutBatches(batchesMsg{{Source: "f", Records: numbered(6, 10), End: 1500}}, 4)
	a.onBatches(now)
	if _, _, ok := a.foldedUpTo("f"); ok {
		t.Fatal("known after the first half of a cut batch")
	}
	a.onBatches(rest)
	if end, seq, ok := a.foldedUpTo("f"); !ok || end != 1500 || seq != 15 {
		t.Fatalf("after both halves: %d, %d, %v; want 1500, 15, true", end, seq, ok)
	}
	a.onBatches(batchesMsg{{Source: "f", Restart: true}, {Source: "f", Records: numbered(16, 2), End: 200}})
	if _, _, ok := a.foldedUpTo("f"); ok {
		t.Fatal("known after the source started over")
	}
}

// A fold taken up is shown by a screen that has folded nothing, and what
// arrives folds on from it; a screen that folded something keeps it.
func TestTakenUp(t *testing.T) {
	taken := fold.NewThreads(fold.Options{})
	taken.Apply("f", model.Record{Seq: 1, Proto: model.ProtoAGUI, Event: nil})
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), nil, AppOptions{})
	a.Update(TakenUpMsg{Threads: taken})
	if a.Threads() != taken {
		t.Fatal("the screen does not show the fold taken up")
	}
	b := NewThreadsApp(fold.NewThreads(fold.Options{}), nil, AppOptions{})
	b.onBatches(batchesMsg{{Source: "f", Records: numbered(1, 1), End: 10}})
	mine := b.Threads()
	b.Update(TakenUpMsg{Threads: taken})
	if b.Threads() != mine {
		t.Fatal("a screen that folded records took up another fold")
	}
}

// Keep is given a checkpoint once a file is read to its end and folded,
// not while it is being read, and not again before keepEvery passed and
// the file grew by an eighth; a quiet tick keeps what a batch could not.
func TestKeepWhenReadToTheEnd(t *testing.T) {
	now := time.Unix(1e9, 0)
	type kept struct {
		end int64
		seq uint64
		n   int
	}
	var got []kept
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), nil, AppOptions{Now: func() time.Time { return now },
		Keep: func(source string, cp *fold.ThreadsCheckpoint, end int64, seq uint64) {
			records := 0
			for _, th := range fold.ThreadsFromCheckpoint(cp, fold.Options{}).List() {
				records += th.Records
			}
			got = append(got, kept{end, seq, records})
		}})
	batch := func(first, n int, end, size int64) {
		recs := numbered(first, n)
		for i := range recs {
			recs[i].Proto, recs[i].Event = model.ProtoAGUI, &model.Unreadable{Reason: "test"}
		}
		a.onBatches(batchesMsg{{Source: "f", Records: recs, End: end, Read: end, Size: size}})
	}
	batch(1, 5, 500, 1000)
	if len(got) != 0 {
		t.Fatalf("kept while reading: %v", got)
	}
	batch(6, 5, 1000, 1000)
	if len(got) != 1 || got[0] != (kept{1000, 10, 10}) {
		t.Fatalf("read to the end: kept %v; want [{1000 10 10}]", got)
	}
	now = now.Add(keepEvery / 2)
	batch(11, 2, 1200, 1200)
	if len(got) != 1 {
		t.Fatalf("kept again after %v: %v", keepEvery/2, got)
	}
	now = now.Add(keepEvery)
	batch(13, 2, 1400, 1400)
	if len(got) != 2 || got[1] != (kept{1400, 14, 14}) {
		t.Fatalf("after %v: kept %v; want a second {1400 14 14}", keepEvery, got)
	}
	// Grown by less than an eighth of what was kept: not again, however
	// long since; by an eighth, again.
	now = now.Add(10 * keepEvery)
	batch(15, 2, 1400+1400/keepGrowth-1, 1400+1400/keepGrowth-1)
	if len(got) != 2 {
		t.Fatalf("kept again after growing by less than 1/%d: %v", keepGrowth, got)
	}
	batch(17, 2, 1400+1400/keepGrowth, 1400+1400/keepGrowth)
	if len(got) != 3 || got[2] != (kept{1400 + 1400/keepGrowth, 18, 18}) {
		t.Fatalf("grown by 1/%d: kept %v; want a third at %d", keepGrowth, got, 1400+1400/keepGrowth)
	}
	// A log that grew, then went quiet before keepEvery passed, is kept
	// on a quiet tick once it has.
	batch(19, 2, 2000, 2000)
	if len(got) != 3 {
		t.Fatalf("kept again before %v: %v", keepEvery, got)
	}
	a.Update(quietTickMsg{})
	if len(got) != 3 {
		t.Fatalf("kept on a quiet tick before %v: %v", keepEvery, got)
	}
	now = now.Add(keepEvery)
	a.Update(quietTickMsg{})
	if len(got) != 4 || got[3] != (kept{2000, 20, 20}) {
		t.Fatalf("quiet for %v: kept %v; want a fourth {2000 20 20}", keepEvery, got)
	}
}
