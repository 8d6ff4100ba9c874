package fold

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/sources"
)

// TestCheckpointsShareBlocks folds a long log taking a checkpoint every
// 500 records: two checkpoints in a row share every block of their lists
// but the few the fold appended to or changed in between, so a timeline's
// checkpoints cost what changed, not the whole lists each.
func TestCheckpointsShareBlocks(t *testing.T) {
	recs, err := sources.ReadAll(bytes.NewReader(loggen.Generate(100_000, 3)))
	if err != nil {
		t.Fatal(err)
	}
	f := New(Options{})
	var prev, last *Checkpoint
	for i := 0; i < len(recs); i += 500 {
		f.Apply(recs[i:min(len(recs), i+500)]...)
		prev, last = last, f.Checkpoint()
	}
	if last.lists.items.Blocks() < 20 {
		t.Fatalf("only %d blocks of items: the log is too short to tell", last.lists.items.Blocks())
	}
	for name, pair := range map[string][2]int{
		"items":    {last.lists.items.Unshared(prev.lists.items), last.lists.items.Blocks()},
		"messages": {last.lists.msgs.Unshared(prev.lists.msgs), last.lists.msgs.Blocks()},
		"steps":    {last.lists.steps.Unshared(prev.lists.steps), last.lists.steps.Blocks()},
	} {
		if pair[0] > 4 {
			t.Errorf("%s: %d of %d blocks are new between two checkpoints 500 records apart", name, pair[0], pair[1])
		}
	}
	// Restoring gives the lists back whole, and the fold folds on as the
	// original did (the laws check this at every split point).
	g := FromCheckpoint(last, Options{})
	if len(g.Items()) != len(f.Items()) || len(g.Steps()) != len(f.Steps()) || len(g.Messages()) != len(f.Messages()) {
		t.Fatalf("restored %d items %d steps %d messages, want %d %d %d",
			len(g.Items()), len(g.Steps()), len(g.Messages()), len(f.Items()), len(f.Steps()), len(f.Messages()))
	}
}
