package tui

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// How far a screen has folded a file is known exactly, or not at all: a
// batch cut in two says its end only once both halves are folded, and a
// source that started over is no longer known.
func TestFoldedTo(t *testing.T) {
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), nil, AppOptions{})
	if _, _, ok := a.FoldedTo("f"); ok {
		t.Fatal("known before anything was folded")
	}
	a.onBatches(batchesMsg{{Source: "f", Records: numbered(1, 5), End: 500}})
	if end, seq, ok := a.FoldedTo("f"); !ok || end != 500 || seq != 5 {
		t.Fatalf("after a whole batch: %d, %d, %v; want 500, 5, true", end, seq, ok)
	}
	now, rest := cutBatches(batchesMsg{{Source: "f", Records: numbered(6, 10), End: 1500}}, 4)
	a.onBatches(now)
	if _, _, ok := a.FoldedTo("f"); ok {
		t.Fatal("known after the first half of a cut batch")
	}
	a.onBatches(rest)
	if end, seq, ok := a.FoldedTo("f"); !ok || end != 1500 || seq != 15 {
		t.Fatalf("after both halves: %d, %d, %v; want 1500, 15, true", end, seq, ok)
	}
	a.onBatches(batchesMsg{{Source: "f", Restart: true}, {Source: "f", Records: numbered(16, 2), End: 200}})
	if _, _, ok := a.FoldedTo("f"); ok {
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
