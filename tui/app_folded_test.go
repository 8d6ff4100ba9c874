package tui

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

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
