package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/window"
)

// itemsOnly is read keeping only the items it reads back.
func itemsOnly(read func(window.ItemsWanted) (window.ItemsRead, error)) func(window.ItemsWanted) ([]*model.Item, error) {
	return func(w window.ItemsWanted) ([]*model.Item, error) {
		r, err := read(w)
		return r.Items, err
	}
}

// readItemsLog writes a generated log (of seed) and folds it whole,
// without shedding: the fold the items read back are held to.
func readItemsLog(t *testing.T, events int, seed int64) (path string, th *fold.Thread) {
	t.Helper()
	log := loggen.Generate(events, seed)
	path = filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply(path, recs...)
	if ts.Len() != 1 {
		t.Fatalf("the log has %d threads, want 1", ts.Len())
	}
	return path, ts.List()[0]
}

// sameItems checks items read back against the whole fold's items of the
// same Seq: the same item, in full when it is done in both.
func sameItems(t *testing.T, got []*model.Item, whole *fold.Fold) {
	t.Helper()
	bySeq := map[uint64]*model.Item{}
	for _, it := range whole.Items() {
		bySeq[it.Seq] = it
	}
	for i, it := range got {
		if i > 0 && got[i-1].Seq+1 != it.Seq {
			t.Fatalf("items read back skip from seq %d to %d", got[i-1].Seq, it.Seq)
		}
		want := bySeq[it.Seq]
		if want == nil {
			t.Fatalf("item %d read back is not in the whole fold", it.Seq)
		}
		if it.Kind != want.Kind || it.ID != want.ID || it.Step != want.Step {
			t.Fatalf("item %d read back is %s %q (step %d), the whole fold's is %s %q (step %d)",
				it.Seq, it.Kind, it.ID, it.Step, want.Kind, want.ID, want.Step)
		}
		if !it.Status.Done() || !want.Status.Done() {
			continue
		}
		// A later run echoes old messages, which touches them (Version,
		// LastSeq, Updated) and nothing else; a read back stops before.
		g, _ := json.Marshal(untouched(it))
		w, _ := json.Marshal(untouched(want))
		if !bytes.Equal(g, w) {
			t.Fatalf("item %d read back differs from the whole fold's:\n got %s\nwant %s", it.Seq, g, w)
		}
	}
}

// untouched is it without what a later event that changes nothing shown
// sets.
func untouched(it *model.Item) model.Item {
	c := *it
	c.Version, c.LastSeq, c.Updated = 0, 0, time.Time{}
	return c
}

// Items read back from a file, by Seq or around a step, are the items of
// a fold of the whole file that never shed: same items, same numbers.
func TestReadItemsMatchesWholeFold(t *testing.T) {
	t.Parallel()
	path, th := readItemsLog(t, 120_000, 11)
	whole := th.Fold
	items := whole.Items()
	if len(items) < 8000 {
		t.Fatalf("the log folds to %d items; too few to shed", len(items))
	}
	// A window far smaller than the thread, so that the fold reading back
	// sheds many times before it gets there.
	const span = 500
	read := itemsOnly(itemReader(New(&Options{}), func(s string) string { return s })(path))
	if read == nil {
		t.Fatal("a file source has no reader")
	}

	t.Run("range", func(t *testing.T) {
		after := items[len(items)/2]
		got, err := read(window.ItemsWanted{Source: path, Thread: th.ID, Step: -1, Max: span,
			From: after.Seq - span, To: after.Seq, AfterKind: after.Kind, AfterID: after.ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != span || got[0].Seq != after.Seq-span || got[len(got)-1].Seq != after.Seq-1 {
			t.Fatalf("read back %d items, want the %d before seq %d", len(got), span, after.Seq)
		}
		sameItems(t, got, whole)
	})

	t.Run("start", func(t *testing.T) {
		got, err := read(window.ItemsWanted{Source: path, Thread: th.ID, Step: -1, Max: span,
			From: 1, To: items[span].Seq, AfterKind: items[span].Kind, AfterID: items[span].ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != span || got[0].Seq != 1 {
			t.Fatalf("read back %d items from seq %d, want %d from 1", len(got), got[0].Seq, span)
		}
		sameItems(t, got, whole)
		var user bool
		for _, it := range got {
			user = user || it.Kind == model.ItemMessage && it.Role == "user"
		}
		if !user {
			t.Error("the log's start read back has no user message")
		}
	})

	t.Run("step", func(t *testing.T) {
		steps := whole.Steps()
		for _, i := range []int{0, len(steps) / 2, len(steps) - 1} {
			got, err := read(window.ItemsWanted{Source: path, Thread: th.ID, Step: i, ToolCallID: steps[i].ToolCallID, Max: span})
			if err != nil {
				t.Fatal(err)
			}
			sameItems(t, got, whole)
			found := false
			for _, it := range got {
				found = found || it.Kind == model.ItemToolCall && it.Step == i
			}
			if !found || len(got) > span {
				t.Errorf("step %d: %d items read back, with its tool call: %v", i, len(got), found)
			}
		}
	})

	t.Run("changed", func(t *testing.T) {
		// The file now holds another log: what the screen folded is not in it.
		other := loggen.Generate(120_000, 12)
		p := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(p, other, 0o644); err != nil {
			t.Fatal(err)
		}
		after := items[len(items)/2]
		_, err := itemsOnly(itemReader(New(&Options{}), func(string) string { return p })(path))(window.ItemsWanted{Source: path, Thread: th.ID, Step: -1, Max: span,
			From: after.Seq - span, To: after.Seq, AfterKind: after.Kind, AfterID: after.ID})
		if err == nil || !strings.Contains(err.Error(), "rewritten") {
			t.Fatalf("reading back from a rewritten file: %v", err)
		}
		_, err = itemsOnly(itemReader(New(&Options{}), func(string) string { return p })(path))(window.ItemsWanted{Source: path, Thread: th.ID, Step: 0,
			ToolCallID: whole.Steps()[0].ToolCallID, Max: span})
		if err == nil {
			t.Fatal("reading a step back from a rewritten file did not fail")
		}
	})

	t.Run("not a file", func(t *testing.T) {
		if itemReader(New(&Options{}), func(string) string { return "" })("standard input") != nil {
			t.Error("standard input has a reader")
		}
	})
}

// A step read back from a file, by a fold that sheds as it goes, is the
// step of a fold of the whole file that never shed.
func TestReadBackMatchesWholeFold(t *testing.T) {
	path, th := readItemsLog(t, 40_000, 11)
	steps := th.Fold.Steps()
	read := stepReader(New(&Options{}), func(s string) string { return s })
	for _, i := range []int{0, 1, len(steps) / 3, len(steps) / 2, len(steps) - 1} {
		got, err := read(path, th.ID, i, steps[i].ToolCallID)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(steps[i])
		if !bytes.Equal(g, w) {
			t.Errorf("step %d read back differs from the whole fold's:\n got %s\nwant %s", i, g, w)
		}
	}
}
